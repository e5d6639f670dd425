package io.sluice.runtime.plugin;

import org.apache.flink.util.UserCodeClassLoader;

import javax.annotation.Nullable;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one plugin-lifecycle hook, attached by every part of a job that uses plugins: the sink's
 * writer and committer, the commit aggregator, and the sources' enumerators and readers.
 *
 * <p>When the framework sits in Flink's {@code lib/}, registries live as long as the JVM and
 * attaching does nothing. When it was shipped inside a job jar, each job has its own registries
 * (the framework's classes, and so {@link PluginRegistry}'s static map, belong to the job's class
 * loader); they must be closed (plugins stopped, their loaders closed) or repeated jobs leak
 * metaspace. Two things close them, whichever comes first:
 * <ul>
 *   <li>a release hook on the job's class loader, registered by the parts Flink hands a {@link
 *       UserCodeClassLoader} (writers, readers);</li>
 *   <li>the last {@link Attachment} of this class loader being closed: the parts Flink gives no
 *       such loader (committers, the aggregator, enumerators on the JobManager) count too, so
 *       registries opened only by them are closed as well. A restarted part attaches again and
 *       opens the registries anew.</li>
 * </ul>
 * Whether the framework is in the job jar is told from the job's class loader: the given one, else
 * the thread's context class loader, which Flink sets to the job's around every call that creates
 * these parts. Replaces the release hook that only the writer registered, which left registries
 * opened only by committers or enumerators (on the JobManager) open.
 */
public final class PluginLifecycle {

    static final String RELEASE_HOOK = "sluice-plugin-registries";

    private static final Object LOCK = new Object();
    private static int attached; // guarded by LOCK

    private PluginLifecycle() {}

    /**
     * Attaches a part of a job; close the result when the part closes.
     *
     * @param userCode the job's class loader as Flink hands it to the part, or {@code null} when Flink
     *     hands none (then the thread's context class loader tells the job's loader)
     */
    public static Attachment attach(@Nullable UserCodeClassLoader userCode) {
        ClassLoader job = userCode != null
                ? userCode.asClassLoader()
                : Thread.currentThread().getContextClassLoader();
        if (!inJobJar(job)) {
            return Attachment.NONE;
        }
        if (userCode != null) {
            userCode.registerReleaseHookIfAbsent(RELEASE_HOOK, PluginRegistry::closeAll);
        }
        synchronized (LOCK) {
            attached++;
        }
        return new Attachment(true);
    }

    /**
     * Whether the framework's classes were defined by the job's loader: shipped in the job jar. The
     * JVM's own class path ({@code lib/}, a test's class path) never is a job jar.
     */
    static boolean inJobJar(@Nullable ClassLoader job) {
        ClassLoader framework = PluginLifecycle.class.getClassLoader();
        return job != null && framework == job && framework != ClassLoader.getSystemClassLoader();
    }

    /** How many parts are attached now (job-jar mode only; always 0 with the framework in {@code lib/}). */
    static int attached() {
        synchronized (LOCK) {
            return attached;
        }
    }

    /** One attached part; closing it twice counts once. */
    public static final class Attachment implements AutoCloseable {

        /** Nothing attached: the framework is in {@code lib/}, or the part is a test's. */
        public static final Attachment NONE = new Attachment(false);

        private final AtomicBoolean open;

        private Attachment(boolean counted) {
            this.open = new AtomicBoolean(counted);
        }

        @Override
        public void close() {
            if (!open.compareAndSet(true, false)) {
                return;
            }
            boolean last;
            synchronized (LOCK) {
                last = --attached == 0;
            }
            if (last) {
                PluginRegistry.closeAll();
            }
        }
    }
}
