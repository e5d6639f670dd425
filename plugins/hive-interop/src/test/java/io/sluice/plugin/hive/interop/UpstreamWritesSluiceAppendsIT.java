package io.sluice.plugin.hive.interop;

import io.sluice.testservers.hive.StandaloneMetastore;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's {@code HiveCatalog} creates a partitioned Hive table and inserts rows (its own Hive
 * sink); Sluice's hive catalog appends to the same table, to a partition upstream made and to a
 * new one; upstream reads every row back, Sluice's scan source too (vectorized and mapred), and
 * Hive's metastore client lists each partition once, at its directory under the table's location.
 */
class UpstreamWritesSluiceAppendsIT {

    @RegisterExtension
    static final StandaloneMetastore METASTORE = new StandaloneMetastore();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @BeforeAll
    static void onlyAfterPackaging() {
        Interop.assumeIntegrationTestPhase();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"parquet", "textfile"})
    void sluiceAppendsToATableUpstreamCreatedAndFilled(String format) throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        Interop.upstreamCatalog(tEnv, "u", METASTORE);
        Interop.sluiceCatalog(tEnv, "h", METASTORE);
        String table = "t_" + format;
        tEnv.executeSql("CREATE DATABASE IF NOT EXISTS u.shared");
        // upstream's catalog makes a Hive table only with 'connector' = 'hive' in Flink's dialect
        tEnv.executeSql("CREATE TABLE u.shared." + table + " (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('connector' = 'hive', 'hive.storage.file-format' = '" + format + "')");
        tEnv.executeSql("INSERT INTO u.shared." + table + " VALUES (1, 'up-a', 'd1'), (2, 'up-b', 'd2')")
                .await();

        // Sluice appends: d1 exists (upstream's partition), d3 is new
        tEnv.executeSql("INSERT INTO h.shared." + table
                        + " /*+ OPTIONS('sink.partition-commit.policy.kind' = 'metastore') */"
                        + " VALUES (3, 'sl-c', 'd1'), (4, CAST(NULL AS STRING), 'd3')")
                .await();

        assertThat(Interop.rows(tEnv, "SELECT id, name, dt FROM u.shared." + table))
                .containsExactlyInAnyOrder(
                        Row.of(1L, "up-a", "d1"),
                        Row.of(2L, "up-b", "d2"),
                        Row.of(3L, "sl-c", "d1"),
                        Row.of(4L, null, "d3"));
        assertThat(Interop.rows(tEnv, "SELECT id FROM u.shared." + table + " WHERE dt = 'd1'"))
                .containsExactlyInAnyOrder(Row.of(1L), Row.of(3L));

        // and Sluice's own reads see the same rows, upstream's files and its own, with either reader
        for (String mapred : List.of("false", "true")) {
            tEnv.getConfig().set("table.exec.hive.fallback-mapred-reader", mapred);
            assertThat(Interop.rows(tEnv, "SELECT id, name, dt FROM h.shared." + table))
                    .as("Sluice's read, fallback-mapred-reader " + mapred)
                    .containsExactlyInAnyOrder(
                            Row.of(1L, "up-a", "d1"),
                            Row.of(2L, "up-b", "d2"),
                            Row.of(3L, "sl-c", "d1"),
                            Row.of(4L, null, "d3"));
        }
        assertThat(Interop.rows(tEnv, "SELECT id FROM h.shared." + table + " WHERE dt = 'd1'"))
                .containsExactlyInAnyOrder(Row.of(1L), Row.of(3L));

        HiveMetaStoreClient client = Interop.client(METASTORE);
        try {
            Path location = Paths.get(
                    URI.create(client.getTable("shared", table).getSd().getLocation()));
            assertThat(location)
                    .isEqualTo(METASTORE.warehouse().resolve("shared.db").resolve(table));
            List<String> names = client.listPartitionNames("shared", table, (short) -1);
            assertThat(names).containsExactlyInAnyOrder("dt=d1", "dt=d2", "dt=d3");
            List<Partition> partitions = client.listPartitions("shared", table, (short) -1);
            assertThat(partitions).hasSize(3);
            for (Partition p : partitions) {
                assertThat(Paths.get(URI.create(p.getSd().getLocation())))
                        .isEqualTo(location.resolve("dt=" + p.getValues().get(0)));
            }
        } finally {
            client.close();
        }
    }
}
