package io.sluice.plugin.hive.it;

import io.sluice.runtime.sink.TableSinkBuilder;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
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
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A Hive table written without a hive catalog in the statement: a {@code 'connector' = 'sluice',
 * 'target' = 'hive'} table of Flink's default catalog that names the metastore, database and table
 * in its options, and a DataStream job's {@link TableSinkBuilder}. Both reach the same table a hive
 * catalog created; read back with parquet-java and Hive's metastore client.
 */
class HiveTableApiIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    private static final RowType ORDERS = RowType.of(
            new LogicalType[] {
                new BigIntType(),
                new VarCharType(VarCharType.MAX_LENGTH),
                new DoubleType(),
                new VarCharType(VarCharType.MAX_LENGTH)
            },
            new String[] {"id", "name", "amount", "dt"});

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        HivePluginDir.assumeIntegrationTestPhase();
    }

    @Test
    void aConnectorTableAndTheDataStreamBuilderWriteAHiveCatalogsTable() throws Exception {
        Path metastore = tmp.resolve("metastore");
        String metastoreOptions = "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "'";
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', " + "'sluice.plugins.dir' = '"
                + HivePluginDir.get() + "', " + metastoreOptions + ")");
        tEnv.executeSql("CREATE DATABASE h.sales");
        tEnv.executeSql("CREATE TABLE h.sales.orders (id BIGINT, name STRING, amount DOUBLE, dt STRING)"
                + " PARTITIONED BY (dt) WITH ('hive.storage.file-format' = 'parquet')");

        // 1. SQL, through a table of the default catalog
        tEnv.executeSql("CREATE TABLE orders_sink (id BIGINT, name STRING, amount DOUBLE, dt STRING)"
                + " PARTITIONED BY (dt) WITH ('connector' = 'sluice', 'target' = 'hive',"
                + " 'sluice.plugins.dir' = '" + HivePluginDir.get() + "', " + metastoreOptions + ","
                + " 'catalog-database' = 'sales', 'catalog-table' = 'orders',"
                + " 'sink.partition-commit.policy.kind' = 'metastore')");
        tEnv.executeSql("INSERT INTO orders_sink VALUES (1, 'a', 1.5, 'x'), (2, 'b', 2.5, 'y')")
                .await();

        // 2. DataStream, STREAMING with checkpoints: the builder takes the partition columns from the table
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(200);
        List<RowData> rows = new ArrayList<>();
        for (long id = 3; id <= 40; id++) {
            rows.add(GenericRowData.of(
                    id, StringData.fromString("n" + id), id + 0.5, StringData.fromString(id % 2 == 0 ? "y" : "z")));
        }
        TableSinkBuilder.forRowData(env.fromData(rows, InternalTypeInfo.of(ORDERS)))
                .target("hive")
                .catalog(Map.of("metastore", "embedded", "metastore.dir", metastore.toString()))
                .table("sales", "orders")
                .set("sink.partition-commit.policy.kind", "metastore")
                .pluginsDir(HivePluginDir.get())
                .append();
        env.execute("hive table sink builder");

        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.partitionNames("sales", "orders")).containsExactlyInAnyOrder("dt=x", "dt=y", "dt=z");
            List<String> expectedY = new ArrayList<>(List.of("2|b|2.5"));
            List<String> expectedZ = new ArrayList<>();
            for (long id = 3; id <= 40; id++) {
                (id % 2 == 0 ? expectedY : expectedZ).add(id + "|n" + id + "|" + (id + 0.5));
            }
            assertThat(rows(probe, "dt=x")).containsExactly("1|a|1.5");
            assertThat(rows(probe, "dt=y")).containsExactlyInAnyOrderElementsOf(expectedY);
            assertThat(rows(probe, "dt=z")).containsExactlyInAnyOrderElementsOf(expectedZ);
        }
    }

    @Test
    void aConnectorTablePartitionedOtherwiseThanTheHiveTableIsRefusedNamingBoth() throws Exception {
        Path metastore = tmp.resolve("mismatch-metastore");
        String metastoreOptions = "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "'";
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', " + "'sluice.plugins.dir' = '"
                + HivePluginDir.get() + "', " + metastoreOptions + ")");
        tEnv.executeSql("CREATE DATABASE h.sales");
        tEnv.executeSql("CREATE TABLE h.sales.orders (id BIGINT, name STRING, amount DOUBLE, dt STRING)"
                + " PARTITIONED BY (dt) WITH ('hive.storage.file-format' = 'parquet')");
        tEnv.executeSql("CREATE TABLE wrong_sink (id BIGINT, name STRING, amount DOUBLE, dt STRING)"
                + " PARTITIONED BY (name) WITH ('connector' = 'sluice', 'target' = 'hive',"
                + " 'sluice.plugins.dir' = '" + HivePluginDir.get() + "', " + metastoreOptions + ","
                + " 'catalog-database' = 'sales', 'catalog-table' = 'orders')");

        Throwable error = catchThrowable(() -> tEnv.executeSql("INSERT INTO wrong_sink VALUES (1, 'a', 1.5, 'x')")
                .await());
        assertThat(error)
                .hasStackTraceContaining("sales.orders")
                .hasStackTraceContaining("[dt]")
                .hasStackTraceContaining("[name]");
        Path table = metastore.resolve("warehouse").resolve("sales.db").resolve("orders");
        assertThat(table.toFile().list()).isNullOrEmpty();
    }

    private static List<String> rows(MetastoreProbe probe, String partition) throws Exception {
        Path dir = Paths.get(URI.create(probe.partitionLocation("sales", "orders", partition)));
        return ParquetFiles.rows(
                dir, g -> g.getLong("id", 0) + "|" + g.getString("name", 0) + "|" + g.getDouble("amount", 0));
    }
}
