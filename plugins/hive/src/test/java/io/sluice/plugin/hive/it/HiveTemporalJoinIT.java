package io.sluice.plugin.hive.it;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
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

    private interface Change {
        void run() throws Exception;
    }

    /**
     * Runs a stream of orders (two keys, one order every 100 ms for 14 s) joined with the dimension
     * table; changes the table 4 s in; then checks that every order joined, the old names before
     * the change, the new ones from at most two intervals after it (the cache of a subtask is read
     * again at the latest one interval after the change), and no order after a new name an old one.
     */
    private void joinSeesTheChange(TableEnvironment batch, Change change) throws Exception {
        TableEnvironment streaming = streaming();
        streaming.executeSql("CREATE TEMPORARY TABLE orders (id BIGINT, proc AS PROCTIME()) WITH ("
                + "'connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                + " 'fields.id.end' = '140', 'rows-per-second' = '10')");
        TableResult result =
                streaming.executeSql("SELECT o.id, d.name, CAST(o.proc AS TIMESTAMP_LTZ(3)) FROM orders AS o"
                        + " JOIN h.db.dim FOR SYSTEM_TIME AS OF o.proc AS d ON d.k = o.id % 2 + 1");
        List<Row> rows = new ArrayList<>();
        long changedAt;
        try (CloseableIterator<Row> it = result.collect()) {
            Future<?> reading = THREADS.submit(() -> it.forEachRemaining(r -> {
                synchronized (rows) {
                    rows.add(r);
                }
            }));
            Thread.sleep(4_000);
            long before = System.currentTimeMillis();
            change.run();
            changedAt = System.currentTimeMillis();
            System.out.printf("HiveTemporalJoinIT: the change took %d ms%n", changedAt - before);
            reading.get(90, TimeUnit.SECONDS);
        }
        assertThat(rows).hasSize(140);
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

    private TableEnvironment batch() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "1");
        catalog(tEnv);
        tEnv.executeSql("CREATE DATABASE IF NOT EXISTS h.db");
        return tEnv;
    }

    private TableEnvironment streaming() {
        Configuration conf = new Configuration();
        conf.setString("parallelism.default", "2");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.newInstance()
                .inStreamingMode()
                .withConfiguration(conf)
                .build());
        catalog(tEnv);
        return tEnv;
    }

    private void catalog(TableEnvironment tEnv) {
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + tmp.resolve("metastore") + "')");
    }
}
