package io.sluice.runtime.sink.distribution.range;

import java.io.Serializable;

/**
 * Where the range shuffle's own parts, which no plugin or job function reaches, call out: the
 * statistics operator for every row, the coordinator before it aggregates a checkpoint's
 * statistics. A sink has {@link #NONE}; the exactly-once tests fail those parts through their own
 * hooks (the runtime's test-jar), handed to a sink the package-private way. It travels in the job
 * graph with the operator's factory.
 */
public interface RangeShuffleHooks extends Serializable {

    /** Nothing happens: what every sink outside the tests has. */
    RangeShuffleHooks NONE = new RangeShuffleHooks() {
        private static final long serialVersionUID = 1L;
    };

    /** Before the statistics operator takes a row, on the task thread. */
    default void onRecord() {}

    /** Before the coordinator aggregates a checkpoint's statistics, on the JobManager. */
    default void onAggregation() {}
}
