package io.sluice.runtime.sink.dynamic;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.util.Collector;

import java.io.Serializable;

/**
 * Makes the {@link DynamicRecord}s of a dynamic sink from the job's records: none, one or several
 * per input record. Runs in the sink's router, on every subtask; an exception fails the job, named
 * with the input record's position in its subtask.
 *
 * @param <T> the job's records
 */
@FunctionalInterface
public interface DynamicRecordGenerator<T> extends Serializable {

    /** Called once per subtask before the first record. */
    default void open(OpenContext context) throws Exception {}

    void generate(T input, Collector<DynamicRecord> out) throws Exception;
}
