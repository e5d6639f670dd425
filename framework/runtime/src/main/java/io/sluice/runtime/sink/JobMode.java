package io.sluice.runtime.sink;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.transformations.WithBoundedness;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a sink's job runs in BATCH, decided as Flink's stream graph generator decides it: {@code
 * execution.runtime-mode} {@code BATCH}, or {@code AUTOMATIC} with every source bounded. Asked on
 * the client while the sink's topology is built, the one moment a DataStream sink learns the mode.
 */
public final class JobMode {

    private JobMode() {}

    /** Whether the job of {@code input} runs in BATCH (bounded input, commit at the end). */
    public static boolean isBatch(DataStream<?> input) {
        StreamExecutionEnvironment env = input.getExecutionEnvironment();
        RuntimeExecutionMode mode = env.getConfiguration().get(ExecutionOptions.RUNTIME_MODE);
        if (mode != RuntimeExecutionMode.AUTOMATIC) {
            return mode == RuntimeExecutionMode.BATCH;
        }
        List<Transformation<?>> roots = new ArrayList<>(env.getTransformations());
        roots.add(input.getTransformation());
        for (Transformation<?> root : roots) {
            for (Transformation<?> t : root.getTransitivePredecessors()) {
                if (t instanceof WithBoundedness && ((WithBoundedness) t).getBoundedness() != Boundedness.BOUNDED) {
                    return false;
                }
            }
        }
        return true;
    }
}
