package io.sluice.plugin.hive.interop.bench;

import io.sluice.runtime.source.scan.ScanDescriptor;
import io.sluice.runtime.source.scan.ScanEnumeratorState;
import io.sluice.runtime.source.scan.ScanSource;
import io.sluice.runtime.source.scan.ScanSourcePlanner;
import io.sluice.runtime.source.scan.ScanSourceSplit;
import io.sluice.testkit.TestSplitEnumeratorContext;
import io.sluice.testservers.hive.StandaloneMetastore;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one poll of a streaming Hive read costs as the table grows: tables of 1,000, 10,000 and
 * 100,000 partitions on a standalone metastore (its own JVM), and the framework's real scan
 * enumerator with the isolated hive plugin polling each in every order, from the newest partition
 * on, when nothing is new (the steady state of a monitor) and when one partition is. Reports the median wall time per poll, the
 * CPU time this JVM spends on it (the metastore's is its own process's), and the checkpoint's size.
 * Not a test: profile {@code benchmarks} of {@code plugins/hive-interop}; results in its section of
 * {@code target/benchmark-results.md} ({@link BenchmarkResults}). Knobs: {@code -Dsluice.bench.partitions=1000,10000,100000}, {@code
 * -Dsluice.bench.polls=5}.
 */
class HiveMonitorBenchmark {

    @RegisterExtension
    static final StandaloneMetastore METASTORE = new StandaloneMetastore();

    private static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(), VarCharType.STRING_TYPE, VarCharType.STRING_TYPE},
            new String[] {"id", "dt", "hr"});

    @Test
    void monitorCostPerPoll() throws Exception {
        int[] sizes = Arrays.stream(System.getProperty("sluice.bench.partitions", "1000,10000,100000")
                        .split(","))
                .mapToInt(s -> Integer.parseInt(s.trim()))
                .toArray();
        int polls = Integer.getInteger("sluice.bench.polls", 5);
        StringBuilder table = new StringBuilder();
        table.append(
                "| partitions | order | idle poll ms (median) | idle poll CPU ms | poll with one new partition ms |"
                        + " checkpoint bytes |\n|---:|---|---:|---:|---:|---:|\n");
        try (HiveMetaStoreClient client = client()) {
            if (!client.getAllDatabases().contains("bench")) {
                Database db = new Database();
                db.setName("bench");
                db.setLocationUri(
                        METASTORE.warehouse().resolve("bench.db").toUri().toString());
                db.setParameters(new HashMap<>());
                client.createDatabase(db);
            }
            for (int size : sizes) {
                String name = "t" + size;
                long started = System.nanoTime();
                createTable(client, name);
                addPartitions(client, name, 0, size);
                System.out.printf(
                        "HiveMonitorBenchmark: %d partitions added in %d s%n",
                        size, (System.nanoTime() - started) / 1_000_000_000L);
                int added = size;
                for (String order : List.of("partition-name", "partition-time", "create-time")) {
                    Map<String, String> options = new HashMap<>();
                    options.put("target", "hive");
                    options.put("sluice.plugins.dir", pluginsDir().toString());
                    options.put("hive-conf-dir", METASTORE.hiveConfDir().toString());
                    options.put("catalog-database", "bench");
                    options.put("catalog-table", name);
                    options.put("streaming-source.enable", "true");
                    options.put("streaming-source.partition-order", order);
                    options.put("partition.time-extractor.timestamp-pattern", "$dt $hr:00:00");
                    // from the newest partition on: what a monitor pays per poll does not depend on
                    // its first plan, which would list every partition's folder
                    int last = added - 1;
                    String lastDay =
                            LocalDate.of(2000, 1, 1).plusDays(last / 24).toString();
                    String lastHour = String.format("%02d", last % 24);
                    options.put(
                            "streaming-source.consume-start-offset",
                            order.equals("partition-name")
                                    ? "dt=" + lastDay + "/hr=" + lastHour
                                    : order.equals("partition-time")
                                            ? lastDay + " " + lastHour + ":00:00"
                                            : java.time.LocalDateTime.now()
                                                    .withNano(0)
                                                    .toString()
                                                    .replace('T', ' '));
                    ScanDescriptor descriptor = ScanSourcePlanner.plan(options, ROW, List.of("dt", "hr"), Map.of());
                    ScanSource source = ScanSource.of(descriptor);
                    TestSplitEnumeratorContext<ScanSourceSplit> context = new TestSplitEnumeratorContext<>(1);
                    try (SplitEnumerator<ScanSourceSplit, ScanEnumeratorState> enumerator =
                            source.createEnumerator(context)) {
                        enumerator.start();
                        context.runPeriodicCalls(); // the first plan: everything
                        long[] wall = new long[polls];
                        long[] cpu = new long[polls];
                        for (int i = 0; i < polls; i++) {
                            long c = cpuNanos();
                            long w = System.nanoTime();
                            context.runPeriodicCalls();
                            wall[i] = System.nanoTime() - w;
                            cpu[i] = cpuNanos() - c;
                        }
                        addPartitions(client, name, added, 1);
                        added++;
                        long w = System.nanoTime();
                        context.runPeriodicCalls();
                        long withNew = System.nanoTime() - w;
                        int bytes = source.getEnumeratorCheckpointSerializer()
                                .serialize(enumerator.snapshotState(1))
                                .length;
                        String line = String.format(
                                "| %,d | %s | %.1f | %.1f | %.1f | %,d |%n",
                                size, order, median(wall) / 1e6, median(cpu) / 1e6, withNew / 1e6, bytes);
                        System.out.print("HiveMonitorBenchmark " + line);
                        table.append(line);
                    }
                }
            }
        }
        String load = Files.readString(Paths.get("/proc/loadavg")).trim();
        String report = java.time.LocalDate.now() + ", " + Runtime.getRuntime().availableProcessors()
                + " cores, load average " + load + "\n\n" + table;
        System.out.println("Hive streaming monitor, cost per poll\n" + report);
        System.out.println("written to "
                + BenchmarkResults.writeSection(
                        HiveMonitorBenchmark.class, "Hive streaming monitor, cost per poll", report));
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static Path pluginsDir() {
        return Paths.get(System.getProperty("sluice.test.plugins-dir", ""));
    }

    private static HiveMetaStoreClient client() throws Exception {
        HiveConf conf = new HiveConf();
        conf.addResource(new org.apache.hadoop.fs.Path(
                METASTORE.hiveConfDir().resolve("hive-site.xml").toUri()));
        return new HiveMetaStoreClient(conf);
    }

    private static void createTable(HiveMetaStoreClient client, String name) throws Exception {
        StorageDescriptor sd = new StorageDescriptor();
        sd.setCols(List.of(new FieldSchema("id", "bigint", null)));
        sd.setLocation(
                METASTORE.warehouse().resolve("bench.db").resolve(name).toUri().toString());
        sd.setInputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat");
        sd.setOutputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat");
        SerDeInfo serde = new SerDeInfo();
        serde.setSerializationLib("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe");
        serde.setParameters(new HashMap<>());
        sd.setSerdeInfo(serde);
        Table table = new Table();
        table.setDbName("bench");
        table.setTableName(name);
        table.setTableType("MANAGED_TABLE");
        table.setSd(sd);
        table.setPartitionKeys(List.of(new FieldSchema("dt", "string", null), new FieldSchema("hr", "string", null)));
        table.setParameters(new HashMap<>());
        client.createTable(table);
    }

    /** Adds partitions {@code from .. from + n - 1} (one day of 24 hours after the other) in batches of 1,000. */
    private static void addPartitions(HiveMetaStoreClient client, String tableName, int from, int n) throws Exception {
        Table table = client.getTable("bench", tableName);
        List<Partition> batch = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
            String dt = LocalDate.of(2000, 1, 1).plusDays(i / 24).toString();
            String hr = String.format("%02d", i % 24);
            StorageDescriptor sd = new StorageDescriptor(table.getSd());
            sd.setLocation(table.getSd().getLocation() + "/dt=" + dt + "/hr=" + hr);
            Partition partition = new Partition();
            partition.setDbName("bench");
            partition.setTableName(tableName);
            partition.setValues(List.of(dt, hr));
            partition.setSd(sd);
            partition.setParameters(new HashMap<>());
            batch.add(partition);
            if (batch.size() == 1000 || i == from + n - 1) {
                client.add_partitions(batch, false, false);
                batch.clear();
            }
        }
    }
}
