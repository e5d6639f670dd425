package io.sluice.it;

import io.sluice.runtime.sink.RollingPolicies;
import io.sluice.runtime.sink.SluiceSink;
import io.sluice.runtime.sink.SluiceSinkBuilder;
import io.sluice.runtime.sink.compaction.CompactionStrategy;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compaction in the filesystem sink on a MiniCluster: many small files (one per writer, bucket and
 * 100 ms checkpoint) become few files near the target size with exactly the rows written; a
 * failure inside the compaction or around its commit loses and duplicates nothing; switching
 * compaction on and off across savepoints publishes every row once, also the rows of files that
 * were waiting for a compaction when it was switched off.
 */
class CompactionIT {

    private static final int PARALLELISM = 2;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    private static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(false, 10)}, new String[] {"id", "bucket"});

    @TempDir
    Path tmp;

    private StreamExecutionEnvironment environment(Configuration conf) {
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(100);
        return env;
    }

    private static DataGeneratorSource<RowData> numbers(long count, int perSecond) {
        return new DataGeneratorSource<>(
                i -> GenericRowData.of(i + 1, StringData.fromString("b" + (i % 3))),
                count,
                RateLimiterStrategy.perSecond(perSecond),
                InternalTypeInfo.of(ROW));
    }

    private SluiceSinkBuilder sink(String target, String format, Path out) throws Exception {
        return SluiceSink.forRowData(ROW)
                .withTarget(target)
                .withPluginsDir(TestDistribution.pluginsDirWithTestPlugins())
                .withPath(out.toString())
                .withFormat(format)
                .withPartitionKeys("bucket")
                .withRollingPolicy(RollingPolicies.onCheckpoint());
    }

    private static List<Long> ids(String format, Path out) {
        return format.equals("csv")
                ? CommittedFiles.lines(out).stream()
                        .map(l -> Long.parseLong(l.split(",")[0]))
                        .collect(Collectors.toList())
                : CommittedFiles.parquet(out, g -> g.getLong("id", 0));
    }

    private static void assertEveryIdOnce(List<Long> ids, long count, Path out) {
        assertThat(ids)
                .as(() -> "visible: " + CommittedFiles.visible(out) + "\nwaiting: " + CommittedFiles.uncompacted(out))
                .hasSize((int) count);
        assertThat(ids.stream().distinct().count()).isEqualTo(count);
        assertThat(ids.stream().mapToLong(Long::longValue).max().getAsLong()).isEqualTo(count);
        assertThat(CommittedFiles.uncompacted(out)).as("inputs left behind").isEmpty();
    }

    private static Map<Path, List<Path>> byBucket(Path out) {
        return CommittedFiles.visible(out).stream().collect(Collectors.groupingBy(Path::getParent));
    }

    @ParameterizedTest(name = "{0} with the default compactor")
    @CsvSource({"csv", "parquet"})
    void smallFilesBecomeFewFilesNearTheTargetSize(String format) throws Exception {
        Path out = tmp.resolve("out");
        long count = 20_000;
        long target = format.equals("csv") ? 16 * 1024 : 48 * 1024;
        StreamExecutionEnvironment env = environment(new Configuration());
        env.fromSource(numbers(count, 8000), WatermarkStrategy.noWatermarks(), "numbers")
                .sinkTo(sink("filesystem", format, out)
                        .enableCompaction(
                                CompactionStrategy.builder()
                                        .withSizeThreshold(new MemorySize(target))
                                        .withCompactionEveryCheckpoints(0) // by size only
                                        .build(),
                                format.equals("csv") ? "concat" : "record-wise")
                        .build());
        env.execute("compaction " + format);

        assertEveryIdOnce(ids(format, out), count, out);
        Map<Path, List<Path>> buckets = byBucket(out);
        assertThat(buckets).hasSize(3);
        for (List<Path> files : buckets.values()) {
            // without compaction each bucket would hold ~2 writers x ~25 checkpoints of files
            assertThat(files).as("files of a bucket").hasSizeLessThanOrEqualTo(format.equals("csv") ? 6 : 4);
            if (format.equals("csv")) {
                // concatenated bytes: every unit but the last of a bucket was filled up to the target
                List<Long> sizes =
                        files.stream().map(CompactionIT::size).sorted().collect(Collectors.toList());
                assertThat(sizes).allSatisfy(s -> assertThat(s).isLessThanOrEqualTo(target));
                assertThat(sizes.subList(1, sizes.size()))
                        .allSatisfy(s -> assertThat(s).isGreaterThan(target / 2));
            }
        }
    }

    @ParameterizedTest(name = "{0}: failure {1}")
    @CsvSource({
        "csv, in-compactor",
        "parquet, in-compactor",
        "csv, commit-before",
        "csv, commit-after",
        "parquet, commit-after",
    })
    void aFailureDuringCompactionLosesAndDuplicatesNothing(String format, String failure) throws Exception {
        Path out = tmp.resolve("out");
        long count = 12_000;
        Map<String, String> chaos = new HashMap<>();
        chaos.put("chaos.marker-dir", tmp.resolve("markers").toString());
        String compactor = format.equals("csv") ? "concat" : "record-wise";
        if (failure.equals("in-compactor")) {
            chaos.put("chaos.compactor.delegate", compactor);
            compactor = "chaos";
        } else {
            chaos.put("chaos.commit.fail", failure.substring("commit-".length()));
        }
        StreamExecutionEnvironment env = environment(new Configuration());
        env.fromSource(numbers(count, 4000), WatermarkStrategy.noWatermarks(), "numbers")
                .sinkTo(sink("chaos-filesystem", format, out)
                        .enableCompaction(
                                CompactionStrategy.builder()
                                        .withSizeThreshold(MemorySize.parse("1mb"))
                                        .withCompactionEveryCheckpoints(2)
                                        .build(),
                                compactor)
                        .withOptions(chaos)
                        .build());
        env.execute("compaction failure " + format + " " + failure);

        assertThat(Files.list(tmp.resolve("markers")).count())
                .as("the failure was injected")
                .isEqualTo(1);
        assertEveryIdOnce(ids(format, out), count, out);
    }

    @Test
    void switchingCompactionOnAndOffAcrossSavepointsPublishesEveryRowOnce() throws Exception {
        Path out = tmp.resolve("out");
        long count = 24_000;
        // off -> on (files wait: large target, no checkpoint trigger) -> off, until the end
        String savepoint = runUntilStopped(out, null, false);
        savepoint = runUntilStopped(out, savepoint, true);
        assertThat(CommittedFiles.visible(out)).isNotEmpty();

        Configuration conf = new Configuration();
        conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        StreamExecutionEnvironment env = environment(conf);
        addJob(env, out, false);
        env.execute("compaction switched off again");

        assertEveryIdOnce(
                CommittedFiles.lines(out).stream()
                        .map(l -> Long.parseLong(l.split(",")[0]))
                        .collect(Collectors.toList()),
                count,
                out);
    }

    private void addJob(StreamExecutionEnvironment env, Path out, boolean compaction) throws Exception {
        SluiceSinkBuilder builder = SluiceSink.forRowData(ROW)
                .withTarget("filesystem")
                .withPluginsDir(TestDistribution.pluginsDirWithTestPlugins())
                .withPath(out.toString())
                .withFormat("csv")
                .withPartitionKeys("bucket")
                // row format, size-rolled: files stay open across checkpoints and savepoints
                .withRollingPolicy(RollingPolicies.defaultPolicy().withMaxPartSize(MemorySize.parse("4kb")));
        if (compaction) {
            builder.enableCompaction(
                    CompactionStrategy.builder()
                            .withSizeThreshold(MemorySize.parse("1gb"))
                            .withCompactionEveryCheckpoints(0)
                            .build(),
                    "concat");
        } else {
            builder.disableCompaction();
        }
        env.fromSource(numbers(24_000, 3000), WatermarkStrategy.noWatermarks(), "numbers")
                .uid("numbers")
                .sinkTo(builder.build())
                .uid("sink");
    }

    /** Runs the job for a while, then stops it with a savepoint, whose path it returns. */
    private String runUntilStopped(Path out, String restoreFrom, boolean compaction) throws Exception {
        Configuration conf = new Configuration();
        if (restoreFrom != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, restoreFrom);
        }
        StreamExecutionEnvironment env = environment(conf);
        addJob(env, out, compaction);
        JobClient job = env.executeAsync("compaction " + (compaction ? "on" : "off"));
        long deadline = System.currentTimeMillis() + 60_000;
        while (job.getJobStatus().get() != JobStatus.RUNNING && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        Thread.sleep(2500);
        return job.stopWithSavepoint(false, tmp.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
                .get();
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
