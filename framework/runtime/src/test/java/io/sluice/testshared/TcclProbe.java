package io.sluice.testshared;

import java.util.ArrayList;
import java.util.List;

/**
 * Records, from inside plugin code, which thread context class loader each plugin method ran
 * under, and can make every plugin method throw. Lives on the framework's (test) classpath; the
 * plugins that use it are loaded with {@code io.sluice.testshared.} as an additional parent-first
 * prefix, so they see this very class.
 */
public final class TcclProbe {

    /** One call into plugin code. */
    public static final class Call {
        public final String method;
        public final ClassLoader contextClassLoader;
        public final ClassLoader pluginClassLoader;

        Call(String method, ClassLoader contextClassLoader, ClassLoader pluginClassLoader) {
            this.method = method;
            this.contextClassLoader = contextClassLoader;
            this.pluginClassLoader = pluginClassLoader;
        }

        @Override
        public String toString() {
            return method + " under " + contextClassLoader + " (plugin code of " + pluginClassLoader + ")";
        }
    }

    /** Thrown by every probed plugin method while {@link #failing} is set. */
    public static final class Failure extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        public Failure(String method) {
            super("probe failure in " + method);
        }
    }

    private static final List<Call> CALLS = new ArrayList<>();
    private static volatile boolean failing;

    private TcclProbe() {}

    /** Called first thing by every probed plugin method. */
    public static void enter(String method, Object self) {
        synchronized (CALLS) {
            CALLS.add(new Call(
                    method,
                    Thread.currentThread().getContextClassLoader(),
                    self.getClass().getClassLoader()));
        }
        if (failing) {
            throw new Failure(method);
        }
    }

    /** The calls recorded since the last call of this method, which clears them. */
    public static List<Call> drain() {
        synchronized (CALLS) {
            List<Call> calls = new ArrayList<>(CALLS);
            CALLS.clear();
            return calls;
        }
    }

    public static void failing(boolean fail) {
        failing = fail;
    }
}
