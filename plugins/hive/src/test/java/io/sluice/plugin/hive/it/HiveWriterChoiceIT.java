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
 * {@code table.exec.hive.fallback-mapred-writer}: the hive target has only native writers, so
 * {@code true} (the default) and {@code false} write the same Parquet files (read back by
 * parquet-java), and a value that is no boolean fails the statement before a job starts, naming the
 * option, with nothing written.
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

    @Test
    void bothValuesWriteParquetWithTheNativeWriterAndAnInvalidOneIsRefused() throws Exception {
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
        for (String[] expected : new String[][] {{"default", "1|a"}, {"true", "2|b"}, {"false", "3|c"}}) {
            Path partition = table.resolve("dt=" + expected[0]);
            assertThat(ParquetFiles.rows(partition, g -> g.getLong("id", 0) + "|" + g.getString("name", 0)))
                    .containsExactly(expected[1]);
            assertThat(ParquetFiles.columns(ParquetFiles.dataFiles(partition).get(0)))
                    .containsExactly("id", "name");
        }

        tEnv.getConfig().set("table.exec.hive.fallback-mapred-writer", "maybe");
        Throwable invalid = catchThrowable(() ->
                tEnv.executeSql("INSERT INTO h.db.t VALUES (4, 'd', 'maybe')").await());
        assertThat(invalid).hasStackTraceContaining("Invalid 'table.exec.hive.fallback-mapred-writer'");
        assertThat(table.resolve("dt=maybe")).doesNotExist();
    }
}
