package io.sluice.plugin.hive.it;

import io.sluice.runtime.source.lookup.HandFedSource;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page's temporal joins, processing time: a stream of orders joins a Hive dimension table
 * {@code FOR SYSTEM_TIME AS OF o.proctime}. The latest partition (a streaming table with {@code
 * streaming-source.partition.include = latest}, in each of the three orders of the page's DDL
 * variants) is replaced in the join by a newer one within two monitor intervals; a bounded table is
 * read again after {@code lookup.join.cache.ttl} and the join sees an overwrite. Every order is
 * joined, to the old value before the change and to the new one after it, never back.
 */
class HiveTemporalJoinIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    private static final long INTERVAL_MS = 2_000;
    private static final ExecutorService THREADS = Executors.newCachedThreadPool();

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        HivePluginDir.assumeIntegrationTestPhase();
    }

    @Test
    void theLatestPartitionByNameIsJoined() throws Exception {
        latestPartition("partition-name", "");
    }

    @Test
    void theLatestPartitionByCreateTimeIsJoined() throws Exception {
        latestPartition("create-time", "");
    }

    @Test
    void theLatestPartitionByPartitionTimeIsJoined() throws Exception {
        latestPartition("partition-time", ", 'partition.time-extractor.timestamp-pattern' = '$dt 00:00:00'");
    }

    private void latestPartition(String order, String extra) throws Exception {
        TableEnvironment batch = batch();
        // the page's dimension table: TBLPROPERTIES of a streaming source of the latest partition
        batch.executeSql("CREATE TABLE h.db.dim (k BIGINT, name STRING, dt STRING) PARTITIONED BY (dt) WITH ("
                + "'hive.storage.file-format' = 'orc', 'sink.partition-commit.policy.kind' = 'metastore', "
                + "'streaming-source.enable' = 'true', 'streaming-source.partition.include' = 'latest', "
                + "'streaming-source.monitor-interval' = '" + INTERVAL_MS + " ms', "
                + "'streaming-source.partition-order' = '" + order + "'" + extra + ")");
        batch.executeSql("INSERT INTO h.db.dim VALUES (1, 'old-1', '2026-11-30'), (2, 'old-2', '2026-11-30')")
                .await();
        // an older partition created later: never the latest by name or partition time
        if (!order.equals("create-time")) {
            batch.executeSql("INSERT INTO h.db.dim VALUES (1, 'older-1', '2026-11-01'), (2, 'older-2', '2026-11-01')")
                    .await();
        }
        joinSeesTheChange(batch, () -> {
            if (order.equals("create-time")) {
                Thread.sleep(1100); // the metastore's creation times are in seconds
            }
            batch.executeSql("INSERT INTO h.db.dim VALUES (1, 'new-1', '2026-12-01'), (2, 'new-2', '2026-12-01')")
                    .await();
        });
    }

    @Test
    void aBoundedTableIsReadAgainAfterTheCacheTtl() throws Exception {
        TableEnvironment batch = batch();
        batch.executeSql("CREATE TABLE h.db.dim (k BIGINT, name STRING) WITH ("
                + "'hive.storage.file-format' = 'parquet', 'lookup.join.cache.ttl' = '" + INTERVAL_MS + " ms')");
        batch.executeSql("INSERT INTO h.db.dim VALUES (1, 'old-1'), (2, 'old-2')")
                .await();
        joinSeesTheChange(
                batch,
                () -> batch.executeSql("INSERT OVERWRITE h.db.dim VALUES (1, 'new-1'), (2, 'new-2')")
                        .await());
    }

    /**
     * The defaults of {@code streaming-source.monitor-interval}, seen without waiting them out: a
     * streaming read of a table that sets none plans every minute, a temporal join of the latest
     * partition looks for a newer one every hour. They are what the plugin answers the framework
     * for the tables of the catalog (the interval the source is built with, the reload interval of
     * the lookup); a table's own interval replaces both.
     */
    @Test
    void theMonitorIntervalDefaultsToAMinuteForAReadAndAnHourForAJoin() throws Exception {
        TableEnvironment batch = batch();
        batch.executeSql("CREATE TABLE h.db.events (k BIGINT, dt STRING) PARTITIONED BY (dt) WITH ("
                + "'hive.storage.file-format' = 'orc', 'streaming-source.enable' = 'true')");
        batch.executeSql("CREATE TABLE h.db.dim (k BIGINT, dt STRING) PARTITIONED BY (dt) WITH ("
                + "'hive.storage.file-format' = 'orc', 'streaming-source.enable' = 'true',"
                + " 'streaming-source.partition.include' = 'latest')");
        org.apache.flink.table.types.logical.RowType rowType = org.apache.flink.table.types.logical.RowType.of(
                new org.apache.flink.table.types.logical.LogicalType[] {
                    new org.apache.flink.table.types.logical.BigIntType(),
                    new org.apache.flink.table.types.logical.VarCharType(
                            org.apache.flink.table.types.logical.VarCharType.MAX_LENGTH)
                },
                new String[] {"k", "dt"});

        java.util.Map<String, String> events = tableOptions(batch, "events");
        assertThat(io.sluice.runtime.source.scan.ScanSourcePlanner.plan(
                                events, rowType, List.of("dt"), java.util.Map.of())
                        .monitorIntervalMillis())
                .as("a streaming read's interval")
                .isEqualTo(60_000L);
        java.util.Map<String, String> dim = tableOptions(batch, "dim");
        assertThat(io.sluice.runtime.source.scan.ScanSourcePlanner.lookupReloadInterval(
                        io.sluice.runtime.source.scan.ScanSourcePlanner.plan(
                                dim, rowType, List.of("dt"), java.util.Map.of())))
                .as("a temporal join's interval")
                .contains(java.time.Duration.ofHours(1));

        events.put("streaming-source.monitor-interval", "7 s");
        dim.put("streaming-source.monitor-interval", "7 s");
        assertThat(io.sluice.runtime.source.scan.ScanSourcePlanner.plan(
                                events, rowType, List.of("dt"), java.util.Map.of())
                        .monitorIntervalMillis())
                .isEqualTo(7_000L);
        assertThat(io.sluice.runtime.source.scan.ScanSourcePlanner.lookupReloadInterval(
                        io.sluice.runtime.source.scan.ScanSourcePlanner.plan(
                                dim, rowType, List.of("dt"), java.util.Map.of())))
                .contains(java.time.Duration.ofSeconds(7));
    }

    /** A table's options as the catalog hands them to the table factory ({@code connector} aside). */
    private static java.util.Map<String, String> tableOptions(TableEnvironment tEnv, String table) throws Exception {
        java.util.Map<String, String> options = new java.util.HashMap<>(tEnv.getCatalog("h")
                .orElseThrow()
                .getTable(new org.apache.flink.table.catalog.ObjectPath("db", table))
                .getOptions());
        options.remove("connector");
        return options;
    }

    private interface Change {
        void run() throws Exception;
    }

    /**
     * Runs a stream of orders (two keys, one order every 100 ms, handed to the job by a feeder
     * thread) joined with the dimension table; changes the table 2 s in; keeps ordering for three
     * intervals after the change is committed; then checks that every order joined, the old names
     * before the change, the new ones from at most two intervals after it (a subtask's cache is
     * read again at the latest one interval after the change, and the read takes time), and no
     * order after a new name an old one.
     */
    private void joinSeesTheChange(TableEnvironment batch, Change change) throws Exception {
        String feed = "orders-" + System.nanoTime();
        StreamTableEnvironment streaming = streamingWithOrders(feed);
        TableResult result =
                streaming.executeSql("SELECT o.id, d.name, CAST(o.proc AS TIMESTAMP_LTZ(3)) FROM orders AS o"
                        + " JOIN h.db.dim FOR SYSTEM_TIME AS OF o.proc AS d ON d.k = o.id % 2 + 1");
        List<Row> rows = new ArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean ordering = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicLong ordered = new java.util.concurrent.atomic.AtomicLong();
        long changedAt;
        try (CloseableIterator<Row> it = result.collect()) {
            Future<?> feeding = THREADS.submit(() -> {
                while (ordering.get()) {
                    HandFedSource.emit(feed, Row.of(ordered.incrementAndGet()));
                    Thread.sleep(100);
                }
                return null;
            });
            Thread.sleep(2_000);
            long before = System.currentTimeMillis();
            change.run();
            changedAt = System.currentTimeMillis();
            System.out.printf("HiveTemporalJoinIT: the change took %d ms%n", changedAt - before);
            Thread.sleep(3 * INTERVAL_MS);
            ordering.set(false);
            feeding.get(10, TimeUnit.SECONDS);
            Future<?> reading = THREADS.submit(() -> {
                while (rows.size() < ordered.get() && it.hasNext()) {
                    Row row = it.next();
                    synchronized (rows) {
                        rows.add(row);
                    }
                }
            });
            reading.get(60, TimeUnit.SECONDS);
            result.getJobClient().orElseThrow().cancel().get(30, TimeUnit.SECONDS);
        }
        assertThat(rows).hasSize((int) ordered.get());
        rows.sort(java.util.Comparator.comparing(r -> (Long) r.getField(0)));
        boolean seenNew = false;
        for (Row row : rows) {
            long id = (Long) row.getField(0);
            String name = (String) row.getField(1);
            long at = ((Instant) row.getField(2)).toEpochMilli();
            String key = String.valueOf(id % 2 + 1);
            assertThat(name)
                    .as("order %d at %d (change done at %d)", id, at, changedAt)
                    .isIn("old-" + key, "new-" + key);
            if (name.startsWith("new")) {
                seenNew = true;
            } else {
                assertThat(seenNew)
                        .as("order %d joined an old name after a new one: %s", id, rows)
                        .isFalse();
                assertThat(at)
                        .as("order %d joined the old name too long after the change: %s", id, rows)
                        .isLessThanOrEqualTo(changedAt + 2 * INTERVAL_MS);
            }
        }
        assertThat(seenNew).as("the join saw the change: %s", rows).isTrue();
        assertThat(rows.get(0).getField(1)).asString().startsWith("old-");
    }

    /** A streaming table environment with table {@code orders} (id, proc) fed by the test, and the catalog. */
    private StreamTableEnvironment streamingWithOrders(String feed) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        DataStream<Row> orders = env.fromSource(
                        HandFedSource.feed(feed, Types.ROW_NAMED(new String[] {"id"}, Types.LONG)),
                        WatermarkStrategy.noWatermarks(),
                        "orders")
                .setParallelism(1);
        tEnv.createTemporaryView(
                "orders",
                orders,
                Schema.newBuilder()
                        .column("id", "BIGINT")
                        .columnByExpression("proc", "PROCTIME()")
                        .build());
        catalog(tEnv);
        return tEnv;
    }

    private TableEnvironment batch() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "1");
        catalog(tEnv);
        tEnv.executeSql("CREATE DATABASE IF NOT EXISTS h.db");
        return tEnv;
    }

    private void catalog(TableEnvironment tEnv) {
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + tmp.resolve("metastore") + "')");
    }
}
