package io.sluice.runtime.sink;

import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

/**
 * The subtask {@code keyBy} would choose for a key, with the default maximum parallelism for that
 * many subtasks, through a plain partitioner: what BATCH jobs use where the order of a key's
 * records matters, since BATCH sorts a keyed operator's input by key and the sort does not keep
 * the order of records with the same key.
 */
public final class KeyGroupPartitioner implements Partitioner<String> {
    private static final long serialVersionUID = 1L;

    @Override
    public int partition(String key, int subtasks) {
        return KeyGroupRangeAssignment.assignKeyToParallelOperator(
                key, KeyGroupRangeAssignment.computeDefaultMaxParallelism(subtasks), subtasks);
    }
}
