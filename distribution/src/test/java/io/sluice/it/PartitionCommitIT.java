package io.sluice.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Partition commit in a STREAMING SQL job: the {@code partition-time} trigger with a third party's
 * time extractor commits a day's partition once the watermark has passed the day (while the job
 * still runs), and runs a third party's policy chosen by class name next to {@code success-file};
 * dynamic options given as hints reach the sink.
 */
class PartitionCommitIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    @Test
    void partitionTimeTriggerWithThirdPartyExtractorAndPolicy() throws Exception {
        Path out = tmp.resolve("events");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("execution.checkpointing.interval", "200 ms");
        tEnv.getConfig().set("parallelism.default", "2");
        // ids 1..3000 at 1000/s; each 1000 ids are one day, and the watermark follows the data
        tEnv.executeSql("CREATE TABLE src (id BIGINT, "
                + "ts AS TIMESTAMPADD(DAY, CAST((id - 1) / 1000 AS INT), TIMESTAMP '2024-01-01 00:00:00'), "
                + "WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'rows-per-second' = '1000', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '3000')");
        tEnv.executeSql("CREATE TABLE events (id BIGINT, event_day STRING) PARTITIONED BY (event_day) WITH ("
                + "'connector' = 'sluice', 'target' = 'filesystem', "
                + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDirWithTestPlugins() + "', "
                + "'path' = '" + out + "', 'format' = 'csv', 'sink.rolling-policy.kind' = 'on-checkpoint', "
                + "'sink.partition-commit.trigger' = 'partition-time', 'sink.partition-commit.delay' = '1 d', "
                + "'partition.time-extractor.kind' = 'custom', 'partition.time-extractor.class' = 'acme-day', "
                + "'sink.partition-commit.policy.kind' = 'success-file,custom', "
                + "'sink.partition-commit.policy.class' = 'com.acme.sluice.MarkerCommitPolicyFactory')");
        tEnv.executeSql("INSERT INTO events SELECT id, DATE_FORMAT(ts, '''day-''yyyyMMdd') FROM src")
                .await();

        assertThat(CommittedFiles.lines(out)).hasSize(3000);
        Map<String, String> markers = new TreeMap<>();
        for (Path marker : CommittedFiles.named(out, "_ACME")) {
            markers.put(
                    marker.getParent().getFileName().toString(),
                    new String(Files.readAllBytes(marker), StandardCharsets.UTF_8));
        }
        assertThat(markers.keySet())
                .containsExactly("event_day=day-20240101", "event_day=day-20240102", "event_day=day-20240103");
        assertThat(CommittedFiles.named(out, "_SUCCESS")).hasSize(3);
        // the first day was committed by the trigger while the job ran, after a real checkpoint,
        // not by the end of input (whose committables carry checkpoint id Long.MAX_VALUE)
        assertThat(markers.get("event_day=day-20240101"))
                .contains("{event_day=day-20240101}")
                .doesNotContain("checkpoint=" + Long.MAX_VALUE);
    }

    /**
     * Regression: with default rolling a row-format file stays open until the end of the input,
     * so its partition becomes visible only with the final checkpoint; it must still get its
     * success file (Flink does not deliver what a committer emits after the final checkpoint).
     */
    @Test
    void partitionsFirstVisibleAtTheFinalCheckpointAreCommitted() throws Exception {
        Path out = tmp.resolve("late");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("execution.checkpointing.interval", "200 ms");
        tEnv.getConfig().set("parallelism.default", "2");
        tEnv.executeSql("CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '2000')");
        tEnv.executeSql("CREATE TABLE t (id BIGINT, part STRING) PARTITIONED BY (part) WITH ("
                + "'connector' = 'sluice', 'target' = 'filesystem', "
                + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "', "
                + "'path' = '" + out + "', 'format' = 'csv', 'sink.partition-commit.policy.kind' = 'success-file')");
        tEnv.executeSql("INSERT INTO t SELECT id, CONCAT('p', CAST(MOD(id, 4) AS STRING)) FROM src")
                .await();

        assertThat(CommittedFiles.lines(out)).hasSize(2000);
        assertThat(CommittedFiles.named(out, "_SUCCESS"))
                .extracting(p -> p.getParent().getFileName().toString())
                .containsExactlyInAnyOrder("part=p0", "part=p1", "part=p2", "part=p3");
    }

    @Test
    void hintsReachTheSink() throws Exception {
        Path out = tmp.resolve("hinted");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE TABLE t (id INT, name STRING) WITH ('connector' = 'sluice', 'target' = 'filesystem', "
                + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "', 'path' = '" + out
                + "', 'format' = 'csv')");
        tEnv.executeSql("INSERT INTO t /*+ OPTIONS('sink.part-file.prefix' = 'hinted', 'format' = 'json') */ "
                        + "VALUES (1, 'a'), (2, 'b')")
                .await();
        List<String> names = CommittedFiles.visible(out).stream()
                .map(p -> p.getFileName().toString())
                .collect(Collectors.toList());
        assertThat(names).isNotEmpty().allSatisfy(n -> assertThat(n).startsWith("hinted-"));
        assertThat(CommittedFiles.lines(out))
                .containsExactlyInAnyOrder("{\"id\":1,\"name\":\"a\"}", "{\"id\":2,\"name\":\"b\"}");
    }
}
