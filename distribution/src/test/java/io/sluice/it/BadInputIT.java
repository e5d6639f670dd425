package io.sluice.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Every kind of bad input is a clear error that names the thing at fault: the target, the option,
 * the value, the directory or the path; and nothing is written for a rejected statement.
 */
class BadInputIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    private String insertError(String extraOptions) {
        return insertError(
                "'target' = 'filesystem', 'path' = '" + tmp.resolve("t") + "', 'format' = 'csv', "
                        + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "'",
                extraOptions);
    }

    private static String insertError(String baseOptions, String extraOptions) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE TABLE t (id INT, dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'sluice', "
                + baseOptions + (extraOptions.isEmpty() ? "" : ", " + extraOptions) + ")");
        Throwable t = catchThrowable(
                () -> tEnv.executeSql("INSERT INTO t VALUES (1, 'a')").await());
        assertThat(t).as("the statement must fail").isNotNull();
        // only Sluice's own messages: Flink's wrapper echoes every table option, which would make
        // any assertion on an option's name or value pass
        StringBuilder messages = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            String m = String.valueOf(c.getMessage());
            if (!m.startsWith("Unable to create a sink")) {
                messages.append(m).append('\n');
            }
        }
        return messages.toString();
    }

    @Test
    void unknownTargetListsAvailableOnesAndTheDirectory() {
        String error =
                insertError("'target' = 'nope', 'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "'", "");
        assertThat(error)
                .contains("No TargetFactory named 'nope'")
                .contains("filesystem")
                .contains(TestDistribution.pluginsDir().toString());
    }

    @Test
    void missingPluginsDirIsNamed() {
        String error =
                insertError("'target' = 'filesystem', 'sluice.plugins.dir' = '" + tmp.resolve("no-such-dir") + "'", "");
        assertThat(error)
                .contains(tmp.resolve("no-such-dir").toString())
                .contains("does not exist")
                .contains("sluice.plugins.dir");
    }

    @Test
    void unknownOptionListsTheValidOnes() {
        String error = insertError("'sink.rolling-policy.file-sise' = '1mb'");
        assertThat(error)
                .contains("Unsupported options")
                .contains("sink.rolling-policy.file-sise")
                .contains("sink.rolling-policy.file-size")
                .contains("csv.field-delimiter");
    }

    @Test
    void invalidSizeDurationZoneAndPattern() {
        assertThat(insertError("'sink.rolling-policy.file-size' = '10 parsecs'"))
                .contains("sink.rolling-policy.file-size")
                .contains("10 parsecs");
        assertThat(insertError("'sink.partition-commit.delay' = 'soon'"))
                .contains("sink.partition-commit.delay")
                .contains("soon");
        assertThat(insertError("'sink.partition-commit.policy.kind' = 'success-file', "
                        + "'sink.partition-commit.watermark-time-zone' = 'Mars/Olympus'"))
                .contains("sink.partition-commit.watermark-time-zone")
                .contains("Mars/Olympus");
        assertThat(insertError("'sink.partition-commit.policy.kind' = 'success-file', "
                        + "'sink.partition-commit.trigger' = 'partition-time', "
                        + "'partition.time-extractor.timestamp-formatter' = 'yyyy-MM-dd bbbb'"))
                .contains("partition.time-extractor.timestamp-formatter")
                .contains("yyyy-MM-dd bbbb");
        assertThat(insertError("'sink.partition-commit.policy.kind' = 'nope'"))
                .contains("sink.partition-commit.policy.kind")
                .contains("nope")
                .contains("success-file");
        assertThat(insertError("'csv.field-delimiter' = ';;'"))
                .contains("field-delimiter")
                .contains(";;");
    }

    @Test
    void unwritablePathIsNamedInTheJobFailure() {
        String error = insertError(
                "'target' = 'filesystem', 'path' = '/proc/sluice-cannot-write/t', 'format' = 'csv', "
                        + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "'",
                "");
        assertThat(error).contains("/proc/sluice-cannot-write/t");
    }

    @Test
    void insertOverwriteOfATargetThatCannotIsRejectedAndWritesNothing() throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        Path out = tmp.resolve("o");
        // the test plugin's target passes writes on to 'filesystem' but does not declare overwrite
        tEnv.executeSql(
                "CREATE TABLE o (id INT) WITH ('connector' = 'sluice', 'target' = 'chaos-filesystem', 'path' = '" + out
                        + "', 'format' = 'csv', 'sluice.plugins.dir' = '" + TestDistribution.pluginsDirWithTestPlugins()
                        + "')");
        tEnv.executeSql("INSERT INTO o VALUES (1)").await();
        Throwable t = catchThrowable(
                () -> tEnv.executeSql("INSERT OVERWRITE o VALUES (2)").await());
        assertThat(rootCause(t)).contains("Target 'chaos-filesystem' does not support INSERT OVERWRITE");
        assertThat(CommittedFiles.lines(out)).containsExactly("1");
    }

    static String rootCause(Throwable t) {
        return ExceptionUtils.stringifyException(t);
    }
}
