package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.sink.TableSinkBuilder;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptionsInternal;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job with a fixed job id (as in application mode) is restored from an older retained checkpoint
 * than the last one it committed. Its new checkpoints are numbered from the old one again: the
 * commits must not take them for the earlier run's commits of the same numbers (the loss upstream
 * users met), so every row written after the restore reaches the table. Rows the earlier run
 * committed after that checkpoint are written again (restoring from an older checkpoint replays
 * them, for every sink); none is lost.
 */
class IcebergOlderCheckpointIT {

    private static final long COUNT = 4000;

    /**
     * A cluster of its own for each run: a cluster remembers the job ids it ran and refuses the
     * same id again, as a new application-mode cluster would not.
     */
    private static MiniCluster startCluster() throws Exception {
        Configuration conf = new Configuration();
        conf.set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, 100); // the older checkpoints to restore from
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(2)
                .build());
        cluster.start();
        TestStreamEnvironment.setAsContext(cluster, 1);
        return cluster;
    }

    private static void stopCluster(MiniCluster cluster) throws Exception {
        TestStreamEnvironment.unsetAsContext();
        cluster.close();
    }

    private static final RowType ROW = RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"id"});

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    private StreamExecutionEnvironment environment(JobID jobId, String restoreFrom, String checkpoints) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID, jobId.toHexString());
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        // each run its own: the restored run numbers its checkpoints as the first did
        conf.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                tmp.resolve(checkpoints).toUri().toString());
        // an option, not CheckpointConfig's setter, which Flink 2 removed
        conf.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                org.apache.flink.configuration.ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        if (restoreFrom != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, restoreFrom);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.enableCheckpointing(100);
        return env;
    }

    private void addJob(StreamExecutionEnvironment env, Path warehouse, int rowsPerSecond) {
        DataGeneratorSource<RowData> source = new DataGeneratorSource<>(
                i -> GenericRowData.of(i + 1),
                COUNT,
                RateLimiterStrategy.perSecond(rowsPerSecond),
                InternalTypeInfo.of(ROW));
        TableSinkBuilder.forRowData(env.fromSource(source, WatermarkStrategy.noWatermarks(), "numbers")
                        .uid("numbers"))
                .target("iceberg")
                .catalog(Map.of(
                        "catalog-type", "hadoop", "warehouse", warehouse.toUri().toString()))
                .table("db", "numbers")
                .uidPrefix("numbers")
                .pluginsDir(TestPluginsDir.get())
                .append();
    }

    @Test
    void restoringFromAnOlderCheckpointWithTheSameJobIdLosesNoRow() throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        JobID jobId = JobID.generate();

        // run 1: slow, until several checkpoints are committed; then cancelled, its checkpoints kept
        MiniCluster cluster = startCluster();
        StreamExecutionEnvironment first = environment(jobId, null, "checkpoints-1");
        addJob(first, warehouse, 400);
        JobClient job = first.executeAsync("first run");
        Table table = null;
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
            if (Files.exists(warehouse.resolve("db/numbers/metadata"))) {
                table = IcebergTables.load(warehouse, "db", "numbers");
                if (IcebergTables.snapshots(table).size() >= 6) {
                    break;
                }
            }
        }
        assertThat(table).as("the first run committed").isNotNull();
        job.cancel().get();
        while (!job.getJobStatus().get().isGloballyTerminalState()) {
            Thread.sleep(50);
        }
        long lastCommitted = IcebergTables.snapshots(table).stream()
                .mapToLong(s -> Long.parseLong(s.summary().get("flink.max-committed-checkpoint-id")))
                .max()
                .getAsLong();
        Path older = olderCheckpoint(tmp.resolve("checkpoints-1").resolve(jobId.toHexString()), lastCommitted - 3);

        // run 2: the same job id, from the older checkpoint, fast, to the end of the input
        stopCluster(cluster);
        cluster = startCluster();
        try {
            StreamExecutionEnvironment second = environment(jobId, older.toUri().toString(), "checkpoints-2");
            addJob(second, warehouse, 20_000);
            second.execute("second run");
        } finally {
            stopCluster(cluster);
        }

        Table written = IcebergTables.load(warehouse, "db", "numbers");
        List<Long> ids = IcebergTables.records(written).stream()
                .map(r -> (Long) r.getField("id"))
                .collect(Collectors.toList());
        assertThat(ids.stream().distinct().count())
                .as(() -> "distinct ids; restored from " + older + ", last committed " + lastCommitted + ", snapshots "
                        + IcebergTables.snapshots(written).stream()
                                .map(s -> s.summary().get("flink.max-committed-checkpoint-id"))
                                .collect(Collectors.toList()))
                .isEqualTo(COUNT);
    }

    /** The newest retained checkpoint {@code chk-n} with n at most {@code atMost}. */
    private static Path olderCheckpoint(Path jobDir, long atMost) throws Exception {
        try (Stream<Path> dirs = Files.list(jobDir)) {
            return dirs.filter(d -> d.getFileName().toString().startsWith("chk-"))
                    .filter(d -> Files.exists(d.resolve("_metadata")))
                    .filter(d -> Long.parseLong(d.getFileName().toString().substring(4)) <= atMost)
                    .max(Comparator.comparingLong(
                            d -> Long.parseLong(d.getFileName().toString().substring(4))))
                    .orElseThrow(
                            () -> new AssertionError("no retained checkpoint at or below " + atMost + " in " + jobDir));
        }
    }
}
