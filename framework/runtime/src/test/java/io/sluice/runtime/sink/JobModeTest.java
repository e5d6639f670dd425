package io.sluice.runtime.sink;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JobModeTest {

    @Test
    void anExplicitModeIsTakenWhateverTheSources() {
        assertThat(JobMode.isBatch(bounded(RuntimeExecutionMode.BATCH))).isTrue();
        assertThat(JobMode.isBatch(bounded(RuntimeExecutionMode.STREAMING))).isFalse();
    }

    @Test
    void automaticIsBatchOnlyWhenEverySourceOfTheJobIsBounded() {
        assertThat(JobMode.isBatch(bounded(RuntimeExecutionMode.AUTOMATIC))).isTrue();

        StreamExecutionEnvironment env = env(RuntimeExecutionMode.AUTOMATIC);
        DataStream<Long> unbounded = env.socketTextStream("localhost", 1).map(Long::parseLong);
        assertThat(JobMode.isBatch(unbounded)).isFalse();
        // the sink's input is bounded, but another branch of the job reads without end
        DataStream<Long> boundedBranch = env.fromSequence(1, 10);
        unbounded.print();
        assertThat(JobMode.isBatch(boundedBranch)).isFalse();
        // and an input that unions a bounded and an unbounded source
        StreamExecutionEnvironment other = env(RuntimeExecutionMode.AUTOMATIC);
        assertThat(JobMode.isBatch(other.fromSequence(1, 10)
                        .union(other.socketTextStream("localhost", 1).map(Long::parseLong))))
                .isFalse();
    }

    private static DataStream<Long> bounded(RuntimeExecutionMode mode) {
        return env(mode).fromSequence(1, 10).map(x -> x + 1);
    }

    private static StreamExecutionEnvironment env(RuntimeExecutionMode mode) {
        Configuration conf = new Configuration();
        conf.set(ExecutionOptions.RUNTIME_MODE, mode);
        return StreamExecutionEnvironment.getExecutionEnvironment(conf);
    }
}
