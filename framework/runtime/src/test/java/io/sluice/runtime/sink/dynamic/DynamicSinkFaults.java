package io.sluice.runtime.sink.dynamic;

import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Failure injection points (and an observation point) of the dynamic sink for the tests: a test
 * makes one, sets what the table updater runs before an update and what a writer subtask is told
 * of the idle writers it closes, and puts it {@link #into} the sink's builder; {@link #clear} after
 * the test.
 *
 * <p>The hooks travel in the job graph, and each task deserializes its own copy, again after every
 * restart; in the JVM of a MiniCluster every copy resolves to the instance the test made, so the
 * test's counters and lists are the ones the job's parts see. Elsewhere a copy does nothing.
 */
public final class DynamicSinkFaults implements DynamicSinkHooks {

    private static final long serialVersionUID = 1L;

    /** The instances of this JVM's tests, by id, until {@link #clear}. */
    private static final Map<String, DynamicSinkFaults> LIVE = new ConcurrentHashMap<>();

    private final String id = UUID.randomUUID().toString();
    private transient volatile Runnable onUpdate;
    private transient volatile Consumer<String> onIdleWriterClosed;

    public DynamicSinkFaults() {
        LIVE.put(id, this);
    }

    /** Forgets every instance: copies deserialized from now on do nothing. */
    public static void clear() {
        LIVE.clear();
    }

    /** Runs {@code fault} in the table updater before it updates a table. */
    public DynamicSinkFaults onUpdate(Runnable fault) {
        this.onUpdate = Objects.requireNonNull(fault, "fault");
        return this;
    }

    /** Tells {@code observer} the write target ({@code WriteTarget#toString}) of every idle writer a subtask closes. */
    public DynamicSinkFaults onIdleWriterClosed(Consumer<String> observer) {
        this.onIdleWriterClosed = Objects.requireNonNull(observer, "observer");
        return this;
    }

    /** {@code builder}, its sink's operators calling these hooks. */
    public <T> DynamicSink.Builder<T> into(DynamicSink.Builder<T> builder) {
        return builder.hooks(this);
    }

    @Override
    public void onUpdate() {
        Runnable fault = onUpdate;
        if (fault != null) {
            fault.run();
        }
    }

    @Override
    public void onIdleWriterClosed(String target) {
        Consumer<String> observer = onIdleWriterClosed;
        if (observer != null) {
            observer.accept(target);
        }
    }

    private Object readResolve() {
        return LIVE.getOrDefault(id, this);
    }
}
