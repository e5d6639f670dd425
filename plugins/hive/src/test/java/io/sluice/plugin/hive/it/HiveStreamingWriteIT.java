package io.sluice.plugin.hive.it;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A STREAMING job with checkpoints into a partitioned Parquet Hive table: files become visible at
 * checkpoints through the framework's committer, and the partition commit runs both the plugin's
 * {@code metastore} policy and the filesystem plugin's {@code success-file} policy on the
 * metastore's partition locations. Every row comes back exactly once.
 */
class HiveStreamingWriteIT {

    private static final int ROWS = 300;

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

    /** {@code distribution-mode} 'hash': every partition's files come from one writer. */
    @Test
    void hashDistributionPutsEachPartitionOnOneWriter() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "300 ms");
        conf.setString("restart-strategy.type", "none");
        conf.setString("parallelism.default", "2");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.newInstance()
                .inStreamingMode()
                .withConfiguration(conf)
                .build());
        Path metastore = tmp.resolve("metastore-hash");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.logs");
        tEnv.executeSql("CREATE TABLE h.logs.events (id BIGINT, msg STRING, bucket STRING) PARTITIONED BY (bucket)"
                + " WITH ('hive.storage.file-format' = 'parquet')");
        tEnv.executeSql("CREATE TEMPORARY TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" + ROWS + "', "
                + "'rows-per-second' = '300')");
        tEnv.executeSql("INSERT INTO h.logs.events /*+ OPTIONS('distribution-mode' = 'hash') */"
                        + " SELECT id, CONCAT('m', CAST(id AS STRING)), CAST(id % 3 AS STRING) FROM numbers")
                .await();

        Path table = metastore.resolve("warehouse").resolve("logs.db").resolve("events");
        List<Long> ids = new ArrayList<>();
        for (String partition : List.of("bucket=0", "bucket=1", "bucket=2")) {
            java.util.Set<String> writers = new java.util.TreeSet<>();
            for (Path file : ParquetFiles.dataFiles(table.resolve(partition))) {
                String name = file.getFileName().toString();
                assertThat(name).as("part file %s", file).startsWith("part-");
                writers.add(name.substring("part-".length(), "part-".length() + 36));
            }
            assertThat(writers).as("writers of %s", partition).hasSize(1);
            for (String id : ParquetFiles.rows(table.resolve(partition), g -> String.valueOf(g.getLong("id", 0)))) {
                ids.add(Long.parseLong(id));
            }
        }
        assertThat(ids)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, ROWS).boxed().collect(Collectors.toList()));
    }

    @Test
    void checkpointedWritesCommitPartitionsToTheMetastoreWithSuccessFiles() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "300 ms");
        conf.setString("restart-strategy.type", "none"); // a failure must fail the test, not repeat quietly
        conf.setString("parallelism.default", "2");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.newInstance()
                .inStreamingMode()
                .withConfiguration(conf)
                .build());
        Path metastore = tmp.resolve("metastore");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.logs");
        tEnv.executeSql("CREATE TABLE h.logs.events (id BIGINT, msg STRING, bucket STRING) PARTITIONED BY (bucket)"
                + " WITH ('hive.storage.file-format' = 'parquet')");
        // a paced source: the job spans several checkpoints
        tEnv.executeSql("CREATE TEMPORARY TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" + ROWS + "', "
                + "'rows-per-second' = '200')");
        tEnv.executeSql("INSERT INTO h.logs.events /*+ OPTIONS("
                        + "'sink.partition-commit.policy.kind' = 'metastore,success-file') */"
                        + " SELECT id, CONCAT('m', CAST(id AS STRING)), CAST(id % 3 AS STRING) FROM numbers")
                .await();

        Path table = metastore.resolve("warehouse").resolve("logs.db").resolve("events");
        List<String> rows = new ArrayList<>();
        int files = 0;
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.partitionNames("logs", "events"))
                    .containsExactlyInAnyOrder("bucket=0", "bucket=1", "bucket=2");
            for (String partition : probe.partitionNames("logs", "events")) {
                Path dir = Paths.get(URI.create(probe.partitionLocation("logs", "events", partition)));
                assertThat(dir).isEqualTo(table.resolve(partition));
                assertThat(dir.resolve("_SUCCESS")).isRegularFile();
                files += ParquetFiles.dataFiles(dir).size();
                String bucket = partition.substring("bucket=".length());
                for (String row : ParquetFiles.rows(dir, g -> g.getLong("id", 0) + "|" + g.getString("msg", 0))) {
                    assertThat(Long.parseLong(row.substring(0, row.indexOf('|'))) % 3)
                            .hasToString(bucket);
                    rows.add(row);
                }
            }
        }
        // Parquet files roll at every checkpoint: more than one per writer and partition (2 x 3)
        // shows the rows were committed over several checkpoints, not only at the end
        assertThat(files).isGreaterThan(6);
        assertThat(rows)
                .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, ROWS)
                        .mapToObj(i -> i + "|m" + i)
                        .collect(Collectors.toList()));
    }
}
