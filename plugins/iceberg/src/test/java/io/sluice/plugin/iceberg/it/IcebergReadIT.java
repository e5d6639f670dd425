package io.sluice.plugin.iceberg.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reading Iceberg tables through {@code 'connector' = 'sluice', 'target' = 'iceberg'}: tables that
 * the upstream connector wrote read back the same, bounded (the current snapshot or a given one,
 * deletes of an upsert table applied) and continuously (each starting strategy, new snapshots as
 * they are committed); misused read options are clear errors. Strategies whose start depends on
 * when the job starts (from the latest snapshot) are covered by the planner's unit tests, where
 * that moment is the test's to choose.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class IcebergReadIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
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
        batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        batch.getConfig().set("parallelism.default", "2");
        upstreamCatalog(batch);
        batch.executeSql("CREATE DATABASE upstream.db");
    }

    /** The upstream connector's catalog on the same warehouse: the independent writer. */
    private void upstreamCatalog(TableEnvironment tEnv) {
        tEnv.executeSql("CREATE CATALOG upstream WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', "
                + "'warehouse' = '" + warehouse.toUri() + "')");
    }

    /** A Sluice table reading {@code db.<table>} of the warehouse. */
    private String sluiceTable(String name, String columns, String table) {
        return "CREATE TABLE " + name + " " + columns
                + " WITH ('connector' = 'sluice', 'target' = 'iceberg', "
                + "'sluice.plugins.dir' = '" + TestPluginsDir.get() + "', "
                + "'catalog-type' = 'hadoop', 'warehouse' = '" + warehouse.toUri() + "', "
                + "'catalog-database' = 'db', 'catalog-table' = '" + table + "')";
    }

    private void upstreamInsert(String table, String values) throws Exception {
        batch.executeSql("INSERT INTO upstream.db." + table + " VALUES " + values)
                .await();
    }

    @Test
    void aBoundedReadReturnsWhatUpstreamWroteInTheColumnsOrderOfTheQuery() throws Exception {
        batch.executeSql("CREATE TABLE upstream.db.events (id BIGINT, name STRING, amount DECIMAL(10, 2), "
                + "ts TIMESTAMP(6), dt STRING) PARTITIONED BY (dt)");
        upstreamInsert(
                "events",
                "(1, 'a', 1.50, TIMESTAMP '2024-01-01 10:00:00.123456', 'd1'), "
                        + "(2, CAST(NULL AS STRING), -2.25, TIMESTAMP '1969-12-31 23:59:59.999999', 'd2')");
        upstreamInsert("events", "(3, 'c', CAST(NULL AS DECIMAL(10, 2)), CAST(NULL AS TIMESTAMP(6)), 'd1')");

        // the Sluice table lists its columns in another order than the Iceberg table, and leaves one out
        batch.executeSql(sluiceTable("events", "(dt STRING, ts TIMESTAMP(6), id BIGINT, name STRING)", "events"));
        assertThat(query(batch, "SELECT * FROM events"))
                .containsExactlyInAnyOrder(
                        "d1|2024-01-01T10:00:00.123456|1|a", "d2|1969-12-31T23:59:59.999999|2|null", "d1|null|3|c");
        assertThat(query(batch, "SELECT id FROM events WHERE dt = 'd1'")).containsExactlyInAnyOrder("1", "3");
        // only the columns the query uses are read, and the filter goes to Iceberg's planning (pruning)
        assertThat(batch.explainSql("SELECT id FROM events WHERE dt = 'd1'"))
                .contains("project=[dt, id]")
                .contains("filter=[=(dt, _UTF-16LE'd1'");
    }

    @Test
    void anUpsertTableReadsTheLastVersionOfEachKeyAndASnapshotIdReadsThePast() throws Exception {
        batch.executeSql("CREATE TABLE upstream.db.accounts (id BIGINT, balance BIGINT, PRIMARY KEY (id) NOT ENFORCED) "
                + "WITH ('format-version' = '2', 'write.upsert.enabled' = 'true')");
        upstreamInsert("accounts", "(1, 10), (2, 20), (3, 30)");
        long first = IcebergTables.load(warehouse, "db", "accounts")
                .currentSnapshot()
                .snapshotId();
        upstreamInsert("accounts", "(1, 11), (3, 33)");
        Table table = IcebergTables.load(warehouse, "db", "accounts");
        assertThat(table.currentSnapshot().summary()).containsKey("added-equality-delete-files");

        batch.executeSql(sluiceTable("accounts", "(id BIGINT, balance BIGINT)", "accounts"));
        assertThat(query(batch, "SELECT * FROM accounts")).containsExactlyInAnyOrder("1|11", "2|20", "3|33");
        assertThat(query(batch, "SELECT * FROM accounts /*+ OPTIONS('snapshot-id' = '" + first + "') */"))
                .containsExactlyInAnyOrder("1|10", "2|20", "3|30");
        // a LIMIT goes to the readers, which stop early; Flink still applies it
        assertThat(batch.explainSql("SELECT * FROM accounts LIMIT 2")).contains("limit=[2]");
        assertThat(query(batch, "SELECT * FROM accounts LIMIT 2")).hasSize(2);
        // the split cost options are upstream's, and only change how the files are grouped
        assertThat(query(
                        batch,
                        "SELECT * FROM accounts /*+ OPTIONS('split-size' = '1', " + "'split-file-open-cost' = '1') */"))
                .containsExactlyInAnyOrder("1|11", "2|20", "3|33");
    }

    @Test
    void aContinuousReadStartsWhereItsStrategySaysAndFollowsNewSnapshots() throws Exception {
        batch.executeSql("CREATE TABLE upstream.db.feed (id BIGINT, note STRING)");
        upstreamInsert("feed", "(1, 's1')");
        upstreamInsert("feed", "(2, 's2'), (3, 's2')");
        List<Snapshot> snapshots = IcebergTables.snapshots(IcebergTables.load(warehouse, "db", "feed"));
        long second = snapshots.get(1).snapshotId();

        TableEnvironment streaming = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        streaming.getConfig().set("parallelism.default", "1");
        streaming.executeSql(sluiceTable("feed", "(id BIGINT, note STRING)", "feed"));
        String hint = "'streaming' = 'true', 'monitor-interval' = '100ms'";
        try (CloseableIterator<Row> all = streaming
                        .executeSql("SELECT * FROM feed /*+ OPTIONS(" + hint
                                + ", 'starting-strategy' = 'TABLE_SCAN_THEN_INCREMENTAL') */")
                        .collect();
                CloseableIterator<Row> fromSecond = streaming
                        .executeSql("SELECT * FROM feed /*+ OPTIONS(" + hint
                                + ", 'starting-strategy' = 'INCREMENTAL_FROM_SNAPSHOT_ID', 'start-snapshot-id' = '"
                                + second
                                + "') */")
                        .collect()) {
            // a table scan reads the table as it is, then what is committed after
            assertThat(take(all, 3)).containsExactlyInAnyOrder("1|s1", "2|s2", "3|s2");
            assertThat(take(fromSecond, 2)).containsExactlyInAnyOrder("2|s2", "3|s2");
            upstreamInsert("feed", "(4, 's3')");
            upstreamInsert("feed", "(5, 's4'), (6, 's4')");
            assertThat(take(all, 3)).containsExactlyInAnyOrder("4|s3", "5|s4", "6|s4");
            assertThat(take(fromSecond, 3)).containsExactlyInAnyOrder("4|s3", "5|s4", "6|s4");
        }
    }

    @Test
    void misusedReadOptionsAreClearErrors() {
        batch.executeSql("CREATE TABLE upstream.db.small (id BIGINT)");
        batch.executeSql(sluiceTable("small", "(id BIGINT)", "small"));
        assertThatThrownBy(() -> query(batch, "SELECT * FROM small /*+ OPTIONS('monitor-intervall' = '1s') */"))
                .hasStackTraceContaining("monitor-intervall")
                .hasStackTraceContaining("monitor-interval");
        assertThatThrownBy(() -> query(
                        batch,
                        "SELECT * FROM small /*+ OPTIONS('streaming' = 'true', "
                                + "'starting-strategy' = 'INCREMENTAL_FROM_SNAPSHOT_ID') */"))
                .hasStackTraceContaining("start-snapshot-id");
        assertThatThrownBy(() -> query(batch, "SELECT * FROM small /*+ OPTIONS('snapshot-id' = '42') */"))
                .hasStackTraceContaining("42");
        batch.executeSql(sluiceTable("wrong", "(id BIGINT, missing STRING)", "small"));
        assertThatThrownBy(() -> query(batch, "SELECT * FROM wrong")).hasStackTraceContaining("missing");
    }

    /** The next {@code n} rows of a continuous query, as {@code v1|v2|...}. */
    private static List<String> take(CloseableIterator<Row> rows, int n) {
        List<String> taken = new ArrayList<>();
        while (taken.size() < n && rows.hasNext()) {
            taken.add(format(rows.next()));
        }
        return taken;
    }

    private static List<String> query(TableEnvironment tEnv, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(sql).collect()) {
            it.forEachRemaining(r -> rows.add(format(r)));
        }
        return rows;
    }

    private static String format(Row r) {
        return IntStream.range(0, r.getArity())
                .mapToObj(i -> Objects.toString(r.getField(i)))
                .collect(Collectors.joining("|"));
    }
}
