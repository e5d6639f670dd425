package io.sluice.plugin.iceberg.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Flink SQL through {@code 'connector' = 'sluice', 'target' = 'iceberg'} on a Hadoop catalog:
 * what Sluice writes, Iceberg's Java API and the upstream Iceberg connector read back equally
 * (every common type, nulls, a partitioned table; Parquet, ORC and Avro files), and Sluice
 * appends to a table that upstream created and wrote.
 */
class IcebergSqlIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    private Path warehouse;
    private TableEnvironment tEnv;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    @BeforeEach
    void setUp() {
        warehouse = tmp.resolve("warehouse");
        tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        // the upstream connector's catalog on the same warehouse: the independent reader (and writer)
        tEnv.executeSql("CREATE CATALOG upstream WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', "
                + "'warehouse' = '" + warehouse.toUri() + "')");
    }

    /** A Sluice table on table {@code database.table} of the warehouse, writing {@code format}. */
    private String sluiceTable(
            String name, String columns, String partitionedBy, String database, String table, String format) {
        return "CREATE TABLE " + name + " " + columns
                + (partitionedBy == null ? "" : " PARTITIONED BY (" + partitionedBy + ")")
                + " WITH ('connector' = 'sluice', 'target' = 'iceberg', 'write-format' = '" + format + "', "
                + "'sluice.plugins.dir' = '" + TestPluginsDir.get() + "', "
                + "'catalog-type' = 'hadoop', 'warehouse' = '" + warehouse.toUri() + "', "
                + "'catalog-database' = '" + database + "', 'catalog-table' = '" + table + "')";
    }

    @Test
    void everyCommonTypeAndNullsReadTheSameThroughIcebergAndUpstream() throws Exception {
        tEnv.executeSql(sluiceTable(
                "t",
                "(i INT, b BIGINT, s STRING, d DECIMAL(10, 2), dt DATE, ts TIMESTAMP(6), " + "ok BOOLEAN, x DOUBLE)",
                null,
                "db",
                "types",
                "parquet"));
        String jobId = await(tEnv.executeSql("INSERT INTO t VALUES "
                + "(1, 10000000000, 'a', 1.50, DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00.123456', TRUE, 1.25), "
                + "(2, -2, 'ü ß', -2.25, DATE '1970-01-01', TIMESTAMP '1969-12-31 23:59:59.999999', FALSE, -0.5), "
                + "(3, CAST(NULL AS BIGINT), CAST(NULL AS STRING), CAST(NULL AS DECIMAL(10, 2)), CAST(NULL AS DATE), "
                + "CAST(NULL AS TIMESTAMP(6)), CAST(NULL AS BOOLEAN), CAST(NULL AS DOUBLE))"));

        List<String> expected = List.of(
                "1|10000000000|a|1.50|2024-01-01|2024-01-01T10:00:00.123456|true|1.25",
                "2|-2|ü ß|-2.25|1970-01-01|1969-12-31T23:59:59.999999|false|-0.5",
                "3|null|null|null|null|null|null|null");
        Table table = IcebergTables.load(warehouse, "db", "types");
        assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(upstreamRows("db", "types")).containsExactlyInAnyOrderElementsOf(expected);

        List<Snapshot> snapshots = IcebergTables.snapshots(table);
        assertThat(snapshots).hasSize(1);
        assertThat(snapshots.get(0).summary())
                .containsEntry("flink.job-id", jobId)
                .containsEntry("flink.max-committed-checkpoint-id", String.valueOf(Long.MAX_VALUE))
                .containsKey("flink.operator-id");
    }

    @Test
    void partitionedOrcTableHasOneIdentityPartitionPerValue() throws Exception {
        tEnv.executeSql(sluiceTable("p", "(id BIGINT, name STRING, dt STRING)", "dt", "db", "parted", "orc"));
        StringBuilder values = new StringBuilder();
        for (int i = 1; i <= 60; i++) {
            values.append(i == 1 ? "" : ", ")
                    .append("(")
                    .append(i)
                    .append(", 'n")
                    .append(i)
                    .append("', '2024-01-0")
                    .append(i % 3 + 1)
                    .append("')");
        }
        await(tEnv.executeSql("INSERT INTO p VALUES " + values));

        Table table = IcebergTables.load(warehouse, "db", "parted");
        assertThat(table.spec().fields())
                .extracting(f -> f.name() + ":" + f.transform())
                .containsExactly("dt:identity");
        List<String> expected = IntStream.rangeClosed(1, 60)
                .mapToObj(i -> i + "|n" + i + "|2024-01-0" + (i % 3 + 1))
                .collect(Collectors.toList());
        assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(upstreamRows("db", "parted")).containsExactlyInAnyOrderElementsOf(expected);
        List<String> partitions = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                DataFile file = task.file();
                partitions.add(Objects.toString(file.partition().get(0, String.class)));
                assertThat(file.location()).contains("/dt=" + file.partition().get(0, String.class) + "/");
                assertThat(file.format().name()).isEqualTo("ORC");
            }
        }
        assertThat(partitions).contains("2024-01-01", "2024-01-02", "2024-01-03");
        // only the partition pruned by the filter is read
        assertThat(upstreamQuery("SELECT id FROM upstream.db.parted WHERE dt = '2024-01-02'"))
                .hasSize(20);
    }

    @Test
    void appendsAvroFilesToATableThatUpstreamCreatedAndWrote() throws Exception {
        tEnv.executeSql("CREATE DATABASE upstream.shop");
        tEnv.executeSql(
                "CREATE TABLE upstream.shop.orders (id BIGINT, kind STRING, amount DOUBLE) PARTITIONED BY (kind)");
        await(tEnv.executeSql("INSERT INTO upstream.shop.orders VALUES (1, 'a', 1.0), (2, 'b', 2.0)"));

        tEnv.executeSql(
                sluiceTable("orders", "(id BIGINT, kind STRING, amount DOUBLE)", null, "shop", "orders", "avro"));
        String jobId =
                await(tEnv.executeSql("INSERT INTO orders VALUES (3, 'a', 3.0), (4, 'c', CAST(NULL AS DOUBLE))"));

        List<String> expected = List.of("1|a|1.0", "2|b|2.0", "3|a|3.0", "4|c|null");
        Table table = IcebergTables.load(warehouse, "shop", "orders");
        assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(upstreamRows("shop", "orders")).containsExactlyInAnyOrderElementsOf(expected);
        List<Snapshot> snapshots = IcebergTables.snapshots(table);
        assertThat(snapshots).hasSize(2);
        assertThat(snapshots.get(1).summary()).containsEntry("flink.job-id", jobId);
        assertThat(snapshots.get(1).parentId()).isEqualTo(snapshots.get(0).snapshotId());
    }

    private List<String> upstreamRows(String database, String table) throws Exception {
        return upstreamQuery("SELECT * FROM upstream." + database + "." + table);
    }

    private List<String> upstreamQuery(String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(sql).collect()) {
            while (it.hasNext()) {
                Row r = it.next();
                rows.add(IntStream.range(0, r.getArity())
                        .mapToObj(i -> Objects.toString(r.getField(i)))
                        .collect(Collectors.joining("|")));
            }
        }
        return rows;
    }

    private static String await(TableResult result) throws Exception {
        result.await();
        return result.getJobClient().orElseThrow().getJobID().toHexString();
    }
}
