package io.sluice.testshared.campaign;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * One run of the failure campaign, drawn from a seed: the mode, the parallelism, the input per
 * source split (uneven; fewer splits than subtasks leave subtasks without input, so writers reach
 * the end of input at different checkpoints), the checkpoint interval, the pace, and the failures
 * to inject (one or several of the target's kinds). Its {@link #toString} is what a failed run
 * prints next to its seed.
 */
public final class CampaignSchedule {

    public final long seed;
    public final boolean streaming;
    public final int parallelism;
    public final long[] splitSizes;
    public final long checkpointIntervalMs;
    public final int recordsPerSecondPerSubtask;
    public final List<String> failures;
    public final boolean compaction;
    /** For the target's own choices (format, mode of a failure ...), after the schedule's. */
    public final Random random;

    private CampaignSchedule(long seed, List<String> failureKinds) {
        this.seed = seed;
        // scrambled: java.util.Random's first draws of consecutive seeds are alike (unscrambled, every
        // seed of a consecutive run drew STREAMING, and the parallelism cycled 1, 2, 3, 4)
        Random r = new Random(new java.util.SplittableRandom(seed).nextLong());
        this.streaming = r.nextInt(4) != 0;
        this.parallelism = 1 + r.nextInt(4);
        int splits = 1 + r.nextInt(parallelism + 1);
        this.splitSizes = new long[splits];
        for (int i = 0; i < splits; i++) {
            // one split in three is small: its reader ends long before the others
            splitSizes[i] = r.nextInt(3) == 0 ? 1 + r.nextInt(300) : 800 + r.nextInt(2400);
        }
        this.checkpointIntervalMs = 50 + r.nextInt(350);
        // a STREAMING run lasts a few seconds: several checkpoints before and after the first writer ends
        this.recordsPerSecondPerSubtask = streaming ? 1000 + r.nextInt(2000) : 0;
        List<String> kinds = new ArrayList<>(failureKinds);
        Collections.shuffle(kinds, r);
        this.failures = Collections.unmodifiableList(new ArrayList<>(
                kinds.subList(0, 1 + r.nextInt(Math.min(3, kinds.size())))));
        this.compaction = r.nextInt(3) == 0;
        this.random = r;
    }

    /** The schedule of {@code seed}, injecting some of {@code failureKinds}. */
    public static CampaignSchedule draw(long seed, List<String> failureKinds) {
        return new CampaignSchedule(seed, failureKinds);
    }

    /**
     * The job's environment: this schedule's mode, parallelism and checkpoint interval, and a
     * fixed-delay restart strategy with room for every failure the schedule may inject.
     */
    public org.apache.flink.streaming.api.environment.StreamExecutionEnvironment environment(
            int restartAttempts, java.time.Duration restartDelay) {
        org.apache.flink.configuration.Configuration conf = new org.apache.flink.configuration.Configuration();
        conf.set(org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(
                org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS,
                restartAttempts);
        conf.set(
                org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, restartDelay);
        org.apache.flink.streaming.api.environment.StreamExecutionEnvironment env =
                org.apache.flink.streaming.api.environment.StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        env.setRuntimeMode(
                streaming
                        ? org.apache.flink.api.common.RuntimeExecutionMode.STREAMING
                        : org.apache.flink.api.common.RuntimeExecutionMode.BATCH);
        if (streaming) {
            env.enableCheckpointing(checkpointIntervalMs);
        }
        return env;
    }

    public long records() {
        return Arrays.stream(splitSizes).sum();
    }

    public boolean fails(String kind) {
        return failures.contains(kind);
    }

    @Override
    public String toString() {
        return "seed " + seed + ": " + (streaming ? "STREAMING" : "BATCH") + ", parallelism " + parallelism
                + ", splits " + Arrays.toString(splitSizes)
                + (streaming
                        ? ", checkpoints every " + checkpointIntervalMs + " ms, " + recordsPerSecondPerSubtask
                                + " rows/s per subtask"
                        : "")
                + ", failures " + failures
                + (compaction ? ", compaction" : "");
    }
}
