package io.sluice.runtime.plugin.wrap;

/**
 * Sets a thread context class loader for the length of a {@code try} block and restores the
 * previous one after it, also when the block throws.
 *
 * <pre>{@code
 * try (ContextClassLoader ignored = ContextClassLoader.enter(pluginLoader)) {
 *     return delegate.createWriter(context, state);
 * }
 * }</pre>
 */
public final class ContextClassLoader implements AutoCloseable {

    private final Thread thread;
    private final ClassLoader previous;

    private ContextClassLoader(Thread thread, ClassLoader previous) {
        this.thread = thread;
        this.previous = previous;
    }

    /** Makes {@code loader} the current thread's context class loader until {@link #close()}. */
    public static ContextClassLoader enter(ClassLoader loader) {
        Thread thread = Thread.currentThread();
        ContextClassLoader scope = new ContextClassLoader(thread, thread.getContextClassLoader());
        thread.setContextClassLoader(loader);
        return scope;
    }

    @Override
    public void close() {
        thread.setContextClassLoader(previous);
    }
}
