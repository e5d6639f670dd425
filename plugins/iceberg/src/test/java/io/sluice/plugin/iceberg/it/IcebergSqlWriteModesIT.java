package io.sluice.plugin.iceberg.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The write modes through Flink SQL ({@code 'connector' = 'sluice', 'target' = 'iceberg'}, Hadoop
 * catalog), read back by Iceberg's Java API and the upstream connector: {@code INSERT OVERWRITE}
 * in BATCH of an unpartitioned table (replaced whole), of the partitions a query writes (dynamic)
 * and of a {@code PARTITION(...)} clause naming every partition column (static), rejected in
 * STREAMING; upserts by primary key through the {@code upsert-enabled} hint, from a changelog
 * query; the misuses of upsert as clear errors that leave the table unchanged; and a branch write
 * that lands on the branch only.
 */
class IcebergSqlWriteModesIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    private Path warehouse;
    private TableEnvironment batch;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    @BeforeEach
    void setUp() {
        warehouse = tmp.resolve("warehouse");
        batch = environment(EnvironmentSettings.inBatchMode());
    }

    private TableEnvironment environment(EnvironmentSettings settings) {
        TableEnvironment tEnv = TableEnvironment.create(settings);
        tEnv.getConfig().set("parallelism.default", "2");
        tEnv.executeSql("CREATE CATALOG upstream WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', "
                + "'warehouse' = '" + warehouse.toUri() + "')");
        return tEnv;
    }

    /** A Sluice table {@code name} on Iceberg table {@code db.<name>} of the warehouse. */
    private String sluiceTable(String name, String columns, String partitionedBy, String extraOptions) {
        return "CREATE TABLE " + name + " " + columns
                + (partitionedBy == null ? "" : " PARTITIONED BY (" + partitionedBy + ")")
                + " WITH ('connector' = 'sluice', 'target' = 'iceberg', "
                + "'sluice.plugins.dir' = '" + TestPluginsDir.get() + "', "
                + "'catalog-type' = 'hadoop', 'warehouse' = '" + warehouse.toUri() + "', "
                + "'catalog-database' = 'db', 'catalog-table' = '" + name + "'" + extraOptions + ")";
    }

    @Test
    void insertOverwriteReplacesAnUnpartitionedTableWhole() throws Exception {
        batch.executeSql(sluiceTable("u", "(id INT, data STRING)", null, ""));
        await(batch.executeSql("INSERT INTO u VALUES (1, 'a'), (2, 'b')"));
        String jobId = await(batch.executeSql("INSERT OVERWRITE u VALUES (3, 'c')"));

        Table table = IcebergTables.load(warehouse, "db", "u");
        assertThat(IcebergTables.rows(table)).containsExactly("3|c");
        assertThat(upstreamRows("SELECT * FROM upstream.db.u")).containsExactly("3|c");
        Snapshot head = table.currentSnapshot();
        assertThat(head.operation()).isEqualTo("overwrite");
        assertThat(head.summary())
                .containsEntry("flink.job-id", jobId)
                .containsKey("flink.max-committed-checkpoint-id");
    }

    @Test
    void insertOverwriteReplacesThePartitionsTheQueryWritesOrThePartitionItNames() throws Exception {
        batch.executeSql(sluiceTable("p", "(id INT, data STRING)", "data", ""));
        await(batch.executeSql("INSERT INTO p VALUES (1, 'a'), (2, 'b'), (3, 'c')"));

        // dynamic: partitions a and d come from the query; b and c stay
        await(batch.executeSql("INSERT OVERWRITE p VALUES (4, 'a'), (5, 'd')"));
        Table table = IcebergTables.load(warehouse, "db", "p");
        assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrder("4|a", "2|b", "3|c", "5|d");

        // static: every partition column given, only partition b is replaced
        await(batch.executeSql("INSERT OVERWRITE p PARTITION (data = 'b') SELECT 6"));
        assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrder("4|a", "6|b", "3|c", "5|d");
        assertThat(upstreamRows("SELECT * FROM upstream.db.p")).containsExactlyInAnyOrder("4|a", "6|b", "3|c", "5|d");
    }

    @Test
    void insertOverwriteInStreamingIsAClearErrorAndWritesNothing() throws Exception {
        batch.executeSql(sluiceTable("s", "(id INT, data STRING)", null, ""));
        await(batch.executeSql("INSERT INTO s VALUES (1, 'a')"));
        TableEnvironment streaming = environment(EnvironmentSettings.inStreamingMode());
        streaming.executeSql(sluiceTable("s", "(id INT, data STRING)", null, ""));

        assertThatThrownBy(() -> await(streaming.executeSql("INSERT OVERWRITE s VALUES (2, 'b')")))
                .hasStackTraceContaining("INSERT OVERWRITE")
                .hasStackTraceContaining("STREAMING");
        Table table = IcebergTables.load(warehouse, "db", "s");
        assertThat(IcebergTables.rows(table)).containsExactly("1|a");
        assertThat(IcebergTables.snapshots(table)).hasSize(1);
    }

    @Test
    void upsertHintTakesAChangelogByPrimaryKey() throws Exception {
        TableEnvironment streaming = environment(EnvironmentSettings.inStreamingMode());
        streaming.executeSql(sluiceTable(
                "k",
                "(id INT NOT NULL, name STRING, PRIMARY KEY (id) NOT ENFORCED)",
                null,
                ", 'format-version' = '2'"));
        // an aggregate updates its result per key: a changelog of inserts and updates
        String jobId = await(streaming.executeSql("INSERT INTO k /*+ OPTIONS('upsert-enabled' = 'true') */ "
                + "SELECT id, MAX(name) FROM (VALUES (1, 'a'), (2, 'a'), (1, 'b'), (3, 'a'), (1, 'c'), (2, 'b')) AS v(id, name) "
                + "GROUP BY id"));

        Table table = IcebergTables.load(warehouse, "db", "k");
        assertThat(table.schema().identifierFieldNames()).containsExactly("id");
        assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrder("1|c", "2|b", "3|a");
        assertThat(upstreamRows("SELECT * FROM upstream.db.k")).containsExactlyInAnyOrder("1|c", "2|b", "3|a");
        assertThat(table.currentSnapshot().summary()).containsEntry("flink.job-id", jobId);
    }

    @Test
    void upsertMisuseIsAClearErrorAndLeavesTheTableUnchanged() throws Exception {
        String keyed = "(id INT NOT NULL, name STRING, PRIMARY KEY (id) NOT ENFORCED)";
        batch.executeSql(sluiceTable("v1", keyed, null, ", 'format-version' = '1'"));
        batch.executeSql(sluiceTable("v2", keyed, null, ", 'format-version' = '2'"));
        batch.executeSql(sluiceTable("nokey", "(id INT NOT NULL, name STRING)", null, ", 'format-version' = '2'"));
        batch.executeSql(sluiceTable("parted", keyed, "name", ", 'format-version' = '2'"));
        // one row in each, in one job
        org.apache.flink.table.api.StatementSet first = batch.createStatementSet();
        for (String name : List.of("v1", "v2", "nokey", "parted")) {
            first.addInsertSql("INSERT INTO " + name + " VALUES (1, 'a')");
        }
        await(first.execute());

        assertThatThrownBy(() -> await(batch.executeSql(
                        "INSERT INTO v1 /*+ OPTIONS('upsert-enabled' = 'true') */ " + "VALUES (1, 'b')")))
                .hasStackTraceContaining("format version 2")
                .hasStackTraceContaining("is format version 1");
        assertThatThrownBy(() -> await(batch.executeSql(
                        "INSERT OVERWRITE v2 /*+ OPTIONS('upsert-enabled' = 'true') */ " + "VALUES (1, 'b')")))
                .hasStackTraceContaining("exclude each other");
        assertThatThrownBy(() -> await(batch.executeSql(
                        "INSERT INTO nokey /*+ OPTIONS('upsert-enabled' = 'true') */ " + "VALUES (1, 'b')")))
                .hasStackTraceContaining("needs equality fields");
        assertThatThrownBy(() -> await(batch.executeSql(
                        "INSERT INTO parted /*+ OPTIONS('upsert-enabled' = 'true') */ " + "VALUES (1, 'b')")))
                .hasStackTraceContaining("source column 'name' of partition field 'name'");

        for (String name : List.of("v1", "v2", "nokey", "parted")) {
            Table table = IcebergTables.load(warehouse, "db", name);
            assertThat(IcebergTables.rows(table)).as(name).containsExactly("1|a");
            assertThat(IcebergTables.snapshots(table)).as(name).hasSize(1);
        }
    }

    @Test
    void aBranchWriteLandsOnTheBranchOnly() throws Exception {
        batch.executeSql(sluiceTable(
                "b", "(id INT, data STRING)", null, ", 'snapshot-properties' = 'written-by:sluice-it,purpose:audit'"));
        await(batch.executeSql("INSERT INTO b VALUES (1, 'main')"));
        Table table = IcebergTables.load(warehouse, "db", "b");
        long mainHead = table.currentSnapshot().snapshotId();
        table.manageSnapshots().createBranch("audit", mainHead).commit();

        String jobId = await(batch.executeSql("INSERT INTO b /*+ OPTIONS('branch' = 'audit') */ VALUES (2, 'audit')"));

        table.refresh();
        assertThat(table.currentSnapshot().snapshotId()).as("main is unchanged").isEqualTo(mainHead);
        assertThat(IcebergTables.rows(table)).containsExactly("1|main");
        Snapshot branchHead = table.snapshot("audit");
        assertThat(branchHead.parentId()).isEqualTo(mainHead);
        assertThat(branchHead.summary())
                .containsEntry("flink.job-id", jobId)
                .containsEntry("written-by", "sluice-it")
                .containsEntry("purpose", "audit");
        List<String> onBranch = new ArrayList<>();
        try (CloseableIterable<Record> records =
                IcebergGenerics.read(table).useSnapshot(branchHead.snapshotId()).build()) {
            records.forEach(r -> onBranch.add(r.getField("id") + "|" + r.getField("data")));
        }
        assertThat(onBranch).containsExactlyInAnyOrder("1|main", "2|audit");
        assertThat(upstreamRows("SELECT * FROM upstream.db.b /*+ OPTIONS('branch' = 'audit') */"))
                .containsExactlyInAnyOrder("1|main", "2|audit");
    }

    private List<String> upstreamRows(String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = batch.executeSql(sql).collect()) {
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
