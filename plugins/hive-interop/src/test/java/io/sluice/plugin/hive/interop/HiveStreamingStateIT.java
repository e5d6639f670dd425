package io.sluice.plugin.hive.interop;

import io.sluice.runtime.source.scan.ScanDescriptor;
import io.sluice.runtime.source.scan.ScanEnumeratorState;
import io.sluice.runtime.source.scan.ScanSource;
import io.sluice.runtime.source.scan.ScanSourcePlanner;
import io.sluice.runtime.source.scan.ScanSourceSplit;
import io.sluice.testkit.TestSplitEnumeratorContext;
import io.sluice.testservers.hive.StandaloneMetastore;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A streaming read's enumerator state stays bounded however many partitions the table has: the
 * framework's real scan enumerator (run alone, with the test kit's context) with the isolated hive
 * plugin plans a table of 20,000 partitions on a standalone metastore, and its checkpoint, as
 * Flink serializes it, stays under 64 KB. Restored from those bytes it plans nothing again; a new
 * partition is planned once.
 */
class HiveStreamingStateIT {

    static final int PARTITIONS = 20_000;
    static final int STATE_LIMIT = 64 * 1024;

    @RegisterExtension
    static final StandaloneMetastore METASTORE = new StandaloneMetastore();

    private static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(), VarCharType.STRING_TYPE, VarCharType.STRING_TYPE},
            new String[] {"id", "dt", "hr"});

    @BeforeAll
    static void onlyAfterPackaging() {
        Interop.assumeIntegrationTestPhase();
    }

    /** One table of 20,000 partitions, followed in name order and in partition-time order. */
    @Test
    void theEnumeratorStateOfTwentyThousandPartitionsStaysSmall() throws Exception {
        String table = "wide";
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        Interop.sluiceCatalog(tEnv, "h", METASTORE);
        tEnv.executeSql("CREATE DATABASE IF NOT EXISTS h.db");
        tEnv.executeSql("CREATE TABLE h.db." + table + " (id BIGINT, dt STRING, hr STRING) PARTITIONED BY (dt, hr)"
                + " WITH ('hive.storage.file-format' = 'parquet', 'sink.partition-commit.policy.kind' = 'metastore')");
        try (HiveMetaStoreClient client = Interop.client(METASTORE)) {
            addPartitions(client, "db", table, PARTITIONS);
            assertThat(client.listPartitionNames("db", table, (short) -1)).hasSize(PARTITIONS);
        }
        int nextDay = PARTITIONS / 24 + 1;
        int inserts = 0;
        for (String order : List.of("partition-name", "partition-time")) {
            follows(tEnv, table, order, day(nextDay++), inserts++);
        }
    }

    /** Plans the whole table in the order, checkpoints, adds a partition of {@code newDay}, restores, plans it alone. */
    private void follows(TableEnvironment tEnv, String table, String order, String newDay, int earlierInserts)
            throws Exception {
        Map<String, String> options = new HashMap<>();
        options.put("target", "hive");
        options.put("sluice.plugins.dir", Interop.pluginsDir().toString());
        options.put("hive-conf-dir", METASTORE.hiveConfDir().toString());
        options.put("catalog-database", "db");
        options.put("catalog-table", table);
        options.put("streaming-source.enable", "true");
        options.put("streaming-source.partition-order", order);
        options.put("partition.time-extractor.timestamp-pattern", "$dt $hr:00:00");
        ScanDescriptor descriptor = ScanSourcePlanner.plan(options, ROW, List.of("dt", "hr"), Map.of());
        ScanSource source = ScanSource.of(descriptor);

        TestSplitEnumeratorContext<ScanSourceSplit> context = new TestSplitEnumeratorContext<>(2);
        byte[] checkpoint;
        try (SplitEnumerator<ScanSourceSplit, ScanEnumeratorState> enumerator = source.createEnumerator(context)) {
            enumerator.start();
            long started = System.nanoTime();
            context.runPeriodicCalls();
            System.out.printf(
                    "HiveStreamingStateIT %s: the first plan of %d partitions took %d ms%n",
                    order, PARTITIONS, (System.nanoTime() - started) / 1_000_000);
            // the readers take what was planned (the partitions with files: those added by an
            // earlier round), so the checkpoint holds the position alone
            enumerator.handleSplitRequest(0, "localhost");
            enumerator.handleSplitRequest(1, "localhost");
            assertThat(context.assignedSplits()).hasSize(earlierInserts);
            checkpoint = source.getEnumeratorCheckpointSerializer().serialize(enumerator.snapshotState(1));
        }
        System.out.printf("HiveStreamingStateIT %s: enumerator state of %d bytes%n", order, checkpoint.length);
        assertThat(checkpoint.length).isLessThan(STATE_LIMIT);

        // one new partition, with a row, after all of them in either order
        tEnv.executeSql("INSERT INTO h.db." + table + " VALUES (1, '" + newDay + "', '00')")
                .await();
        TestSplitEnumeratorContext<ScanSourceSplit> restoredContext = new TestSplitEnumeratorContext<>(2);
        ScanEnumeratorState restoredState = source.getEnumeratorCheckpointSerializer()
                .deserialize(source.getEnumeratorCheckpointSerializer().getVersion(), checkpoint);
        try (SplitEnumerator<ScanSourceSplit, ScanEnumeratorState> restored =
                source.restoreEnumerator(restoredContext, restoredState)) {
            restored.start();
            restoredContext.runPeriodicCalls();
            restored.handleSplitRequest(0, "localhost");
            restored.handleSplitRequest(1, "localhost");
            restoredContext.runPeriodicCalls();
            restored.handleSplitRequest(0, "localhost");
            restored.handleSplitRequest(1, "localhost");
            List<String> planned = new ArrayList<>();
            for (ScanSourceSplit split : restoredContext.assignedSplits()) {
                planned.add(split.description());
            }
            assertThat(planned).hasSize(1);
            assertThat(planned.get(0)).contains("dt=" + newDay + "/hr=00");
            byte[] after = source.getEnumeratorCheckpointSerializer().serialize(restored.snapshotState(2));
            assertThat(after.length).isLessThan(STATE_LIMIT);
        }
    }

    /** Adds {@code n} empty partitions (one day of 24 hours after the other) in batches, as Hive's own clients do. */
    static void addPartitions(HiveMetaStoreClient client, String db, String tableName, int n) throws Exception {
        Table table = client.getTable(db, tableName);
        List<Partition> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String dt = day(i / 24);
            String hr = String.format("%02d", i % 24);
            StorageDescriptor sd = new StorageDescriptor(table.getSd());
            sd.setLocation(table.getSd().getLocation() + "/dt=" + dt + "/hr=" + hr);
            Partition partition = new Partition();
            partition.setDbName(db);
            partition.setTableName(tableName);
            partition.setValues(List.of(dt, hr));
            partition.setSd(sd);
            partition.setParameters(new HashMap<>());
            batch.add(partition);
            if (batch.size() == 1000 || i == n - 1) {
                client.add_partitions(batch, false, false);
                batch.clear();
            }
        }
    }

    static String day(int i) {
        return LocalDate.of(2000, 1, 1).plusDays(i).toString();
    }
}
