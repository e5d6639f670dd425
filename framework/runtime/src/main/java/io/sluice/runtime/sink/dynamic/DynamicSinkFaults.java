package io.sluice.runtime.sink.dynamic;

/**
 * Failure injection points (and an observation point) of the dynamic sink for the framework's tests, as {@code
 * RangeShuffleFaults} for the range shuffle: null (no fault) unless a test in the same JVM as the
 * MiniCluster sets them.
 */
public final class DynamicSinkFaults {

    /** Run by the table updater before it updates a table. */
    public static volatile Runnable onUpdate;

    /** Told the write target ({@code WriteTarget#toString}) of every idle writer a writer subtask closes. */
    public static volatile java.util.function.Consumer<String> onIdleWriterClosed;

    private DynamicSinkFaults() {}

    public static void clear() {
        onUpdate = null;
        onIdleWriterClosed = null;
    }
}
