package io.sluice.it;

import io.sluice.runtime.sink.RollingPolicies;
import io.sluice.runtime.sink.SluiceSink;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
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
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A file sink restored from a savepoint older than the checkpoint that published the file it had
 * open: a row-format file open at the savepoint rolls a second later and a checkpoint publishes it;
 * the job is cancelled and started again from that savepoint. The file cannot be resumed (it is
 * published) and a file sink never overwrites committed files, so the job ends at once, whatever
 * its restart strategy, with an error naming the file and what to restore from; what was published
 * stays as it was. (Upstream's FileSink refuses the same restore, with the file system's "file not
 * found", and restarts.)
 */
class FileSinkOlderCheckpointIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    private static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(false, 10)}, new String[] {"id", "bucket"});

    @TempDir
    Path tmp;

    @Test
    void aSavepointOlderThanTheCommitOfItsOpenFileEndsTheJobNamingTheFile() throws Exception {
        Path out = tmp.resolve("out");
        JobClient first = start(out, new Configuration());
        awaitRunning(first);
        Thread.sleep(500);
        String older = savepoint(first);
        // the file open at the savepoint rolls after 1 s; checkpoints every 100 ms publish it
        Thread.sleep(2500);
        first.cancel().get(60, TimeUnit.SECONDS);
        Map<Path, String> published = contents(out);
        assertThat(published).isNotEmpty();
        assertThat(CommittedFiles.inProgress(out))
                .as("files left open by the cancelled job")
                .isNotEmpty();

        Configuration restore = new Configuration();
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, older);
        JobClient second = start(out, restore);
        Throwable failure = catchThrowable(() -> second.getJobExecutionResult().get(60, TimeUnit.SECONDS));

        assertThat(failure).as("the restored job's end").isNotNull();
        String message = ExceptionUtils.stringifyException(failure);
        assertThat(message)
                .contains("a later checkpoint than the one this job restores from already published it")
                .contains("restore from the latest checkpoint");
        assertThat(published.keySet())
                .as("the file the error names is one the first job published")
                .anySatisfy(f -> assertThat(message).contains(f.getFileName().toString()));
        assertThat(contents(out))
                .as("published files after the refused restore")
                .isEqualTo(published);
    }

    private static JobClient start(Path out, Configuration conf) throws Exception {
        // a restart cannot cure the error: many attempts must not keep the job going
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10_000);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.enableCheckpointing(100);
        env.fromSource(
                        new DataGeneratorSource<>(
                                i -> (RowData) GenericRowData.of(i + 1, StringData.fromString("b" + (i % 2))),
                                1_000_000,
                                RateLimiterStrategy.perSecond(200),
                                InternalTypeInfo.of(ROW)),
                        WatermarkStrategy.noWatermarks(),
                        "numbers")
                .uid("numbers")
                .sinkTo(SluiceSink.forRowData(ROW)
                        .withTarget("filesystem")
                        .withPluginsDir(TestDistribution.pluginsDir())
                        .withPath(out.toString())
                        .withFormat("csv")
                        .withPartitionKeys("bucket")
                        // a row format keeps its files open across checkpoints until they roll
                        .withRollingPolicy(RollingPolicies.defaultPolicy()
                                .withRolloverInterval(Duration.ofSeconds(1))
                                .withCheckInterval(Duration.ofMillis(100)))
                        .build())
                .uid("sink");
        return env.executeAsync("file sink");
    }

    /** A savepoint of the running job, tried again while its tasks are still starting. */
    private String savepoint(JobClient job) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                return job.triggerSavepoint(tmp.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
                        .get(60, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                if (System.nanoTime() > deadline
                        || !ExceptionUtils.stringifyException(e)
                                .contains("Not all required tasks are currently running")) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    private static void awaitRunning(JobClient job) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (job.getJobStatus().get() != JobStatus.RUNNING) {
            assertThat(System.nanoTime()).as("job running within 60 s").isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static Map<Path, String> contents(Path out) throws Exception {
        Map<Path, String> contents = new TreeMap<>();
        for (Path f : CommittedFiles.visible(out)) {
            contents.put(f, Files.readString(f));
        }
        return contents;
    }
}
