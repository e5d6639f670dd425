package io.sluice.spi.compact;

/**
 * The framework's file compaction as one sink sees it: whether it is on, and the compactor that
 * merges the units a committer runs. Offered to targets that take part in it ({@link
 * io.sluice.spi.sink.TargetFactory#compaction()}).
 *
 * @since 2.0.0 (before, two methods of {@code SinkContext})
 */
public interface SinkCompaction {

    /**
     * Whether the sink compacts ({@code auto-compaction}): a file target's writers then write their
     * files under hidden names and mark them {@link io.sluice.spi.sink.PendingCommit#forCompaction()}.
     */
    boolean enabled();

    /**
     * The compactor chosen for the sink ({@code compaction.compactor}, by default {@code concat}
     * for row formats and {@code record-wise} for bulk formats), for the {@link
     * io.sluice.spi.sink.CompactionUnit}s a committer runs. Available also when compaction is off:
     * files written for compaction before a restore are still published through it.
     *
     * @throws IllegalArgumentException if no compactor of the chosen name exists (listing those that do)
     */
    FileCompactor compactor();

    /**
     * How many compaction units of one commit a committer may run at the same time ({@code
     * compaction.parallelism}, by default the sink's parallelism); at least 1. The units of one
     * commit are independent of each other (each has its own inputs and output), so a committer may
     * run them on a pool of that many threads; the compactor then runs on several units at once.
     *
     * @since 2.1.0
     */
    @io.sluice.spi.Experimental
    default int parallelism() {
        return 1;
    }
}
