package io.sluice.runtime.sink.distribution.range;

import io.sluice.runtime.sink.distribution.StatisticsType;

/**
 * The range partitioner: which writer a row of a sort key goes to, under the global statistics
 * last applied. Built anew on every shuffle subtask from the same statistics and the current number
 * of writers, so every subtask assigns alike, and a restore with another parallelism balances the
 * new writers. Used by the task thread only.
 */
interface RangeAssignment {

    /** The writer, in {@code [0, writers)}, of the next row of {@code key}. */
    int writerOf(String key);

    /**
     * The assignment for the statistics.
     *
     * @param baseWeight {@code range-distribution-sort-key-base-weight}, applied to Map statistics
     * @param seed of the choice among the writers a key is split over
     */
    static RangeAssignment of(KeyStatistics statistics, int writers, double baseWeight, long seed) {
        return statistics.type() == StatisticsType.MAP
                ? MapRangeAssignment.of(statistics.counts(), writers, baseWeight, seed)
                : SketchRangeAssignment.of(statistics.sample(), writers);
    }
}
