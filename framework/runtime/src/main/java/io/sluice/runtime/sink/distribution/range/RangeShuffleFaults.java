package io.sluice.runtime.sink.distribution.range;

/**
 * Where the exactly-once tests fail the range shuffle's own parts, which no plugin or job
 * function reaches: the statistics operator (per row) and the coordinator's aggregation (per
 * checkpoint). A test in the JVM of a MiniCluster sets a hook and clears it after; unset, they cost
 * one volatile read.
 */
public final class RangeShuffleFaults {

    /** Run for every row the statistics operator takes, on the task thread. */
    public static volatile Runnable onRecord;

    /** Run before the coordinator aggregates a checkpoint's statistics. */
    public static volatile Runnable onAggregation;

    private RangeShuffleFaults() {}

    /** Clears every hook. */
    public static void clear() {
        onRecord = null;
        onAggregation = null;
    }
}
