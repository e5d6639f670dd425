package io.sluice.it;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * An error a plugin declares non-recoverable ends the job at once, wherever it is thrown on the
 * task side, not only in the writer's write: when the writer is created, and in the commit. A
 * STREAMING job with 10,000 restart attempts fails within seconds with the plugin's message, and
 * what was committed before stays as it was.
 */
class NonRecoverableErrorsIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "'chaos.writer.create-fail' = 'yes', the writer cannot be created",
        "'chaos.commit.fail' = 'non-recoverable', this commit fails on every attempt",
    })
    void failsTheJobAtOnce(String option, String message) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10_000);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        conf.setString("execution.checkpointing.interval", "100 ms");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.newInstance()
                .inStreamingMode()
                .withConfiguration(conf)
                .build());
        Path out = tmp.resolve("t");
        String table = "CREATE TABLE %s (id BIGINT) WITH ('connector' = 'sluice', 'target' = 'chaos-filesystem', "
                + "'path' = '" + out + "', 'format' = 'csv', 'chaos.marker-dir' = '" + tmp.resolve("markers") + "', "
                + "'sink.rolling-policy.file-size' = '100b', "
                + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDirWithTestPlugins() + "'%s)";
        tEnv.executeSql(String.format(table, "t", ""));
        tEnv.executeSql("INSERT INTO t VALUES (1)").await();
        tEnv.executeSql(String.format(table, "bad", ", " + option));
        // slow enough for two commits (small part files roll often): the chaos commit fails the second non-empty one
        tEnv.executeSql("CREATE TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '600', "
                + "'rows-per-second' = '200', 'fields.id.kind' = 'sequence', 'fields.id.start' = '2', "
                + "'fields.id.end' = '601')");

        long start = System.nanoTime();
        Throwable t = catchThrowable(
                () -> tEnv.executeSql("INSERT INTO bad SELECT id FROM numbers").await());
        long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();

        assertThat(t).as("the job must fail").isNotNull();
        assertThat(ExceptionUtils.stringifyException(t)).contains(message).contains("SuppressRestartsException");
        // 10,000 attempts 100 ms apart would take over 16 minutes
        assertThat(seconds).as("seconds until the job failed").isLessThan(60);
        List<Long> ids = CommittedFiles.lines(out).stream().map(Long::parseLong).collect(Collectors.toList());
        assertThat(ids).as("no row twice").doesNotHaveDuplicates();
        assertThat(ids).as("the first statement's row").contains(1L);
    }

    /** Issue 31: a BATCH job's failed commit was "checkpoint 9223372036854775807" (Flink's end-of-input id). */
    @Test
    void aBatchJobsFailedCommitIsNamedTheFinalCommit() throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.newInstance()
                .inBatchMode()
                .withConfiguration(conf)
                .build());
        Path out = tmp.resolve("t");
        tEnv.executeSql("CREATE TABLE t (id BIGINT) WITH ('connector' = 'sluice', 'target' = 'chaos-filesystem', "
                + "'path' = '" + out + "', 'format' = 'csv', 'chaos.marker-dir' = '" + tmp.resolve("markers") + "', "
                + "'chaos.commit.fail' = 'every', "
                + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDirWithTestPlugins() + "')");

        Throwable t = catchThrowable(
                () -> tEnv.executeSql("INSERT INTO t VALUES (1), (2)").await());

        assertThat(t).as("the job must fail").isNotNull();
        String stack = ExceptionUtils.stringifyException(t);
        assertThat(stack)
                .contains("The final commit, at the end of input, failed")
                .contains("chaos: every commit fails")
                .doesNotContain(String.valueOf(Long.MAX_VALUE));
        assertThat(CommittedFiles.lines(out)).as("nothing committed").isEmpty();
    }
}
