package io.sluice.plugin.hive.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code table.exec.hive.fallback-mapred-writer}: {@code true} (the default) writes Parquet with
 * Hive's own record writer (the footer's {@code created_by} is the Parquet of Hive 3.1.3's bundle,
 * 1.10), {@code false} with the formats plugin's native writer (Parquet 1.13); both read back by
 * parquet-java with the same rows and columns. A value that is no boolean fails the statement before
 * a job starts, naming the option, with nothing written.
 */
class HiveWriterChoiceIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(1)
                    .build());

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        HivePluginDir.assumeIntegrationTestPhase();
    }

    private static String createdBy(Path file) throws java.io.IOException {
        try (org.apache.parquet.hadoop.ParquetFileReader reader = org.apache.parquet.hadoop.ParquetFileReader.open(
                org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(
                        new org.apache.hadoop.fs.Path(file.toUri()), new org.apache.hadoop.conf.Configuration()))) {
            return reader.getFooter().getFileMetaData().getCreatedBy();
        }
    }

    @Test
    void trueWritesWithHivesRecordWriterFalseWithTheNativeOneAndAnInvalidValueIsRefused() throws Exception {
        Path metastore = tmp.resolve("metastore");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
        tEnv.executeSql("CREATE TABLE h.db.t (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('hive.storage.file-format' = 'parquet')");
        Path table = metastore.resolve("warehouse").resolve("db.db").resolve("t");

        tEnv.executeSql("INSERT INTO h.db.t VALUES (1, 'a', 'default')").await();
        tEnv.getConfig().set("table.exec.hive.fallback-mapred-writer", "true");
        tEnv.executeSql("INSERT INTO h.db.t VALUES (2, 'b', 'true')").await();
        tEnv.getConfig().set("table.exec.hive.fallback-mapred-writer", "false");
        tEnv.executeSql("INSERT INTO h.db.t VALUES (3, 'c', 'false')").await();
        String[][] cases = {
            {"default", "1|a", "parquet-mr version 1.10."},
            {"true", "2|b", "parquet-mr version 1.10."},
            {"false", "3|c", "parquet-mr version 1.13."}
        };
        for (String[] expected : cases) {
            Path partition = table.resolve("dt=" + expected[0]);
            assertThat(ParquetFiles.rows(partition, g -> g.getLong("id", 0) + "|" + g.getString("name", 0)))
                    .containsExactly(expected[1]);
            Path file = ParquetFiles.dataFiles(partition).get(0);
            assertThat(ParquetFiles.columns(file)).containsExactly("id", "name");
            assertThat(createdBy(file)).as("writer of %s", expected[0]).startsWith(expected[2]);
        }

        tEnv.getConfig().set("table.exec.hive.fallback-mapred-writer", "maybe");
        Throwable invalid = catchThrowable(() ->
                tEnv.executeSql("INSERT INTO h.db.t VALUES (4, 'd', 'maybe')").await());
        assertThat(invalid).hasStackTraceContaining("Invalid 'table.exec.hive.fallback-mapred-writer'");
        assertThat(table.resolve("dt=maybe")).doesNotExist();
    }
}
