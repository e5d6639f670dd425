package io.sluice.plugin.hive.it;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code auto-compaction} of a STREAMING write with checkpoints into a partitioned Hive table, in
 * every format the target writes: two writers' files wait hidden and are compacted every two
 * checkpoints ({@code compaction.checkpoints}), with two units at a time ({@code
 * compaction.parallelism}). Every row comes back exactly once through a reader independent of the
 * writers (parquet-java, ORC's reader, Hive's SerDe); a partition's files hold rows of both writers
 * (only compaction puts them into one file); no hidden file is left; the {@code metastore} and
 * {@code success-file} policies committed every partition, after its files were visible (the
 * success file, written at every commit of the partition, is not older than any of its files).
 */
class HiveStreamingCompactionIT {

    /** ids 1..ROWS, by id % 3 into three partitions. */
    private static final int ROWS = 600;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        HivePluginDir.assumeIntegrationTestPhase();
    }

    @ParameterizedTest(name = "{0}, mapred writer {1}")
    @CsvSource({"parquet, true", "parquet, false", "orc, true", "orc, false", "textfile, false", "sequencefile, false"})
    void checkpointedFilesAreCompactedBeforeThePartitionsAreCommitted(String format, boolean mapred) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "300 ms");
        conf.setString("restart-strategy.type", "none"); // a failure must fail the test, not repeat quietly
        conf.setString("parallelism.default", "2");
        conf.setString("table.exec.hive.fallback-mapred-writer", String.valueOf(mapred));
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.newInstance()
                .inStreamingMode()
                .withConfiguration(conf)
                .build());
        Path metastore = tmp.resolve("metastore");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.logs");
        tEnv.executeSql("CREATE TABLE h.logs.events (id BIGINT, msg STRING, p STRING) PARTITIONED BY (p)"
                + " WITH ('hive.storage.file-format' = '" + format + "')");
        // a paced source: the job spans several checkpoints
        tEnv.executeSql("CREATE TEMPORARY TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" + ROWS + "', "
                + "'rows-per-second' = '300')");
        tEnv.executeSql("INSERT INTO h.logs.events /*+ OPTIONS('auto-compaction' = 'true',"
                        + " 'compaction.checkpoints' = '2', 'compaction.parallelism' = '2',"
                        + " 'sink.partition-commit.policy.kind' = 'metastore,success-file') */"
                        + " SELECT id, " + HiveBatchCompactionIT.msg("id") + ", CAST(MOD(id, 3) AS STRING)"
                        + " FROM numbers")
                .await();

        Path table = metastore.resolve("warehouse").resolve("logs.db").resolve("events");
        assertThat(HiveFiles.hiddenFiles(table)).as("hidden files left").isEmpty();
        List<String> rows = new ArrayList<>();
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.partitionNames("logs", "events")).containsExactlyInAnyOrder("p=0", "p=1", "p=2");
            for (String partition : probe.partitionNames("logs", "events")) {
                Path dir = Paths.get(URI.create(probe.partitionLocation("logs", "events", partition)));
                assertThat(dir).isEqualTo(table.resolve(partition));
                Path success = dir.resolve("_SUCCESS");
                assertThat(success).isRegularFile();
                boolean bothWriters = false;
                for (Path file : ParquetFiles.dataFiles(dir)) {
                    assertThat(Files.getLastModifiedTime(file))
                            .as("%s visible before the partition's last commit", file)
                            .isLessThanOrEqualTo(Files.getLastModifiedTime(success));
                    List<String> fileRows = HiveFiles.rowsOf(format, file, probe, "logs", "events");
                    // datagen's sequence gives each of its two subtasks every other id, and each
                    // subtask feeds its own writer (forward): odd and even ids are two writers' rows
                    boolean odd = fileRows.stream().anyMatch(r -> id(r) % 2 == 1);
                    boolean even = fileRows.stream().anyMatch(r -> id(r) % 2 == 0);
                    bothWriters |= odd && even;
                    for (String row : fileRows) {
                        assertThat(Long.toString(id(row) % 3)).isEqualTo(partition.substring("p=".length()));
                    }
                    rows.addAll(fileRows);
                }
                assertThat(bothWriters)
                        .as("a file of %s holds rows of both writers", partition)
                        .isTrue();
            }
        }
        List<String> expected = new ArrayList<>();
        for (long id = 1; id <= ROWS; id++) {
            expected.add(id + "|" + HiveBatchCompactionIT.expectedMsg(id));
        }
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
    }

    private static long id(String row) {
        return Long.parseLong(row.substring(0, row.indexOf('|')));
    }
}
