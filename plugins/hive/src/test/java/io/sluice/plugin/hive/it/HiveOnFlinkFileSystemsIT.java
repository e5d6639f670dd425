package io.sluice.plugin.hive.it;

import io.sluice.hadoopbridge.testing.LocalObjectStore;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Hive database whose location is on a file system only Flink reaches ({@code bridgetest://},
 * Flink's local file system under another name, mapped to the plugin's Hadoop bridge through the
 * catalog's {@code hadoop-conf-dir}, as the object stores are by default): the embedded metastore
 * creates the table's directories, the target writes and commits Parquet partitions, and the scan
 * source lists and reads them back, all through Flink's file system; the files land on the local
 * disk underneath.
 */
class HiveOnFlinkFileSystemsIT {

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

    @Test
    void aDatabaseOnAFlinkFileSystemIsWrittenAndRead() throws Exception {
        Path hadoopConf = Files.createDirectories(tmp.resolve("hadoop-conf"));
        Files.writeString(
                hadoopConf.resolve("core-site.xml"),
                "<configuration><property><name>fs.bridgetest.impl</name>"
                        + "<value>io.sluice.hadoopbridge.FlinkBackedFileSystem</value></property></configuration>");
        Path lake = tmp.resolve("lake");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'hadoop-conf-dir' = '" + hadoopConf + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + tmp.resolve("metastore") + "')");
        tEnv.executeSql("CREATE DATABASE h.db WITH ('hive.database.location-uri' = '"
                + LocalObjectStore.location(lake.resolve("db.db")) + "')");
        tEnv.executeSql("CREATE TABLE h.db.t (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('hive.storage.file-format' = 'parquet', 'sink.partition-commit.policy.kind' = 'metastore')");
        assertThat(lake.resolve("db.db/t"))
                .as("created by the metastore through the bridge")
                .isDirectory();

        tEnv.executeSql("INSERT INTO h.db.t VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, 'c', 'x')")
                .await();
        assertThat(ParquetFiles.dataFiles(lake.resolve("db.db/t/dt=x"))).isNotEmpty();
        assertThat(ParquetFiles.dataFiles(lake.resolve("db.db/t/dt=y"))).isNotEmpty();

        assertThat(collect(tEnv, "SELECT id, name, dt FROM h.db.t"))
                .containsExactlyInAnyOrder("+I[1, a, x]", "+I[2, b, y]", "+I[3, c, x]");
        assertThat(collect(tEnv, "SELECT id FROM h.db.t WHERE dt = 'y'")).containsExactly("+I[2]");
    }

    private static List<String> collect(TableEnvironment tEnv, String query) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        return rows;
    }
}
