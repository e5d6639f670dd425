package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.SinkValidation;
import io.sluice.runtime.sink.SluiceSink;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Distribution mode {@code range} into Iceberg tables, read back with Iceberg's own API: each
 * writer's share of rows is taken from the data files every snapshot added (upstream's file names
 * start with the writer's subtask) and their record counts.
 *
 * <ul>
 *   <li>100 partition values with Zipf-like traffic, parallelism 4: once the statistics apply,
 *       every writer's share is within 20% of even; NONE and HASH on the same input are measured
 *       beside it and printed;
 *   <li>a table sorted by a high-cardinality column: Auto statistics switch from Map to Sketch
 *       (the shuffle's gauge says so) and the writers stay balanced;
 *   <li>stop with a savepoint and restore with parallelism 3: the restored statistics partition
 *       the first checkpoint of the new job already, and every row is there once;
 *   <li>bad input: an unknown statistics type and a base weight outside [0, 1) name the option; an
 *       unpartitioned, unsorted table is refused in upstream's words.
 * </ul>
 */
class IcebergRangeDistributionIT {

    private static final int PARALLELISM = 4;
    private static final int KEYS = 100;
    private static final long SEED = Long.getLong("sluice.it.seed", 20261201L);

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setConfiguration(METRICS.addToConfiguration(new Configuration()))
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(PARALLELISM)
                    .build());

    private static final RowType ROW =
            RowType.of(new LogicalType[] {new BigIntType(false), new VarCharType(false, 10)}, new String[] {"id", "p"});

    private static final Schema SCHEMA = new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.required(2, "p", Types.StringType.get()));

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
        System.out.println("IcebergRangeDistributionIT seed " + SEED + " (-Dsluice.it.seed=" + SEED + ")");
    }

    @Test
    void rangeGivesEveryWriterAnEvenShareOfSkewedPartitions() throws Exception {
        long rows = 12_000;
        Map<String, Table> tables = new TreeMap<>();
        // the same rows (the same seed) for each mode, one job each, 1,500 rows per checkpoint; a
        // second between checkpoints, or none's writers (each with every partition) write a file
        // for nearly every row
        for (String mode : List.of("none", "hash", "range")) {
            long start = System.nanoTime();
            Table table = createTable(
                    tmp.resolve(mode),
                    PartitionSpec.builderFor(SCHEMA).identity("p").build(),
                    null);
            run(table, mode, Map.of(), rows, 1_500, 1_000, PARALLELISM);
            assertEveryRowOnce(table, rows);
            System.out.printf(
                    "%s: %d ms, snapshots (checkpoint:rows:files) %s%n",
                    mode,
                    (System.nanoTime() - start) / 1_000_000,
                    IcebergTables.snapshots(table).stream()
                            .map(s -> checkpointOf(s) + ":" + s.summary().get("added-records") + ":"
                                    + s.summary().get("added-data-files"))
                            .collect(Collectors.joining(" ")));
            tables.put(mode, table);
        }
        StringBuilder report = new StringBuilder("writer shares of " + rows + " rows, " + KEYS
                + " Zipf-like partitions, parallelism " + PARALLELISM + " (seed " + SEED + "):\n");
        for (Map.Entry<String, Table> e : tables.entrySet()) {
            report.append(String.format(
                    "  %-5s all checkpoints %s, writers per partition %.2f%n",
                    e.getKey(), format(shares(writerRows(e.getValue(), 0))), writersPerPartition(e.getValue(), 0)));
        }
        Map<Integer, Long> applied = writerRows(tables.get("range"), 3);
        report.append("  range from checkpoint 3 on (statistics applied): " + format(shares(applied)) + ", writers per"
                + " partition " + String.format("%.2f", writersPerPartition(tables.get("range"), 3)));
        System.out.println(report);

        assertThat(applied).as(report.toString()).hasSize(PARALLELISM);
        assertThat(shares(applied).values())
                .as(report.toString())
                .allSatisfy(share -> assertThat(share).isBetween(0.8 / PARALLELISM, 1.2 / PARALLELISM));
        // and narrow ranges: a partition meets about one writer, fewer than with none
        assertThat(writersPerPartition(tables.get("range"), 3))
                .isLessThan(1.5)
                .isLessThan(writersPerPartition(tables.get("none"), 0));
    }

    @Test
    void autoStatisticsSwitchToASketchAboveTenThousandKeysAndKeepBalancing() throws Exception {
        // sorted by a hash of id, unpartitioned: nearly every row is a key of its own (ids grow
        // through the run, so ranges of id itself would put each new cycle on the last writer)
        Table table = createTable(
                tmp.resolve("sorted"),
                PartitionSpec.unpartitioned(),
                SortOrder.builderFor(SCHEMA)
                        .asc(org.apache.iceberg.expressions.Expressions.bucket("id", 1_000_000))
                        .build());
        long rows = 60_000;
        JobID job = run(table, "range", Map.of(), rows, 15_000, 200, PARALLELISM);
        assertEveryRowOnce(table, rows);

        List<String> types = gauges(job, "rangeStatisticsType");
        List<String> keys = gauges(job, "rangeStatisticsKeys");
        System.out.println("statistics type per subtask " + types + ", keys " + keys);
        assertThat(types).hasSize(PARALLELISM).containsOnly("Sketch");
        Map<Integer, Long> applied = writerRows(table, 3);
        System.out.println("sorted by id, Auto: writer shares from checkpoint 3 on " + format(shares(applied)));
        assertThat(shares(applied).values())
                .hasSize(PARALLELISM)
                .allSatisfy(share -> assertThat(share).isBetween(0.8 / PARALLELISM, 1.2 / PARALLELISM));
    }

    @Test
    void restoredWithAnotherParallelismTheStatisticsStillBalance() throws Exception {
        Table table = createTable(
                tmp.resolve("rescaled"),
                PartitionSpec.builderFor(SCHEMA).identity("p").build(),
                null);
        long rows = 30_000;
        Path savepoints = tmp.resolve("savepoints");

        StreamExecutionEnvironment first = environment(PARALLELISM, 250, new Configuration());
        pipeline(first, table, "range", Map.of(), rows, 2_000);
        JobClient client = first.executeAsync("range, parallelism 4");
        awaitSnapshots(table, 2);
        String savepoint = client.stopWithSavepoint(false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                .get();
        client.getJobExecutionResult().get();
        int before = IcebergTables.snapshots(table).size();
        assertThat(IcebergTables.records(table))
                .as("rows left for the restored job")
                .hasSizeLessThan((int) rows);

        Configuration restore = new Configuration();
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        StreamExecutionEnvironment second = environment(3, 250, restore);
        pipelineAtRate(second, table, rows, 5_000);
        JobID restored = second.execute("range, restored with parallelism 3").getJobID();

        assertEveryRowOnce(table, rows);
        List<Snapshot> after = IcebergTables.snapshots(table)
                .subList(before, IcebergTables.snapshots(table).size());
        assertThat(after).isNotEmpty();
        Snapshot firstOfRestored = after.get(0);
        assertThat(firstOfRestored.summary()).containsEntry("flink.job-id", restored.toHexString());
        Map<String, Set<Integer>> writers = new TreeMap<>();
        Map<Integer, Long> shares = new TreeMap<>();
        for (DataFile file : firstOfRestored.addedDataFiles(table.io())) {
            writers.computeIfAbsent(table.spec().partitionToPath(file.partition()), k -> new TreeSet<>())
                    .add(writerOf(file));
            shares.merge(writerOf(file), file.recordCount(), Long::sum);
        }
        double perPartition =
                writers.values().stream().mapToInt(Set::size).average().orElse(0);
        System.out.println("restored with parallelism 3, first checkpoint: writer shares " + format(shares(shares))
                + ", writers per partition " + perPartition);
        // round-robin (no statistics) would put every partition on all 3 writers
        assertThat(perPartition).isLessThan(1.5);
        Map<Integer, Long> all = new TreeMap<>();
        for (Snapshot s : after) {
            for (DataFile file : s.addedDataFiles(table.io())) {
                all.merge(writerOf(file), file.recordCount(), Long::sum);
            }
        }
        assertThat(shares(all).values())
                .hasSize(3)
                .allSatisfy(share -> assertThat(share).isBetween(0.8 / 3, 1.2 / 3));
    }

    @Test
    void badRangeOptionsAndATableWithoutSortKeyAreErrors() {
        Table partitioned = createTable(
                tmp.resolve("bad"),
                PartitionSpec.builderFor(SCHEMA).identity("p").build(),
                null);
        assertThatThrownBy(() -> descriptor(partitioned, "range", Map.of("range-distribution-statistics-type", "Hist")))
                .hasMessageContaining("Invalid 'range-distribution-statistics-type' 'Hist': one of Map, Sketch, Auto");
        assertThatThrownBy(
                        () -> descriptor(partitioned, "range", Map.of("range-distribution-sort-key-base-weight", "1")))
                .hasMessageContaining("'range-distribution-sort-key-base-weight' '1.0': must be in [0, 1)");
        assertThatThrownBy(() ->
                        descriptor(partitioned, "range", Map.of("range-distribution-sort-key-base-weight", "-0.1")))
                .hasMessageContaining("must be in [0, 1)");
        assertThatThrownBy(() -> descriptor(partitioned, "sorted", Map.of()))
                .hasMessageContaining("Invalid 'distribution-mode' 'sorted': one of none, hash, range");

        Table plain = createTable(tmp.resolve("plain"), PartitionSpec.unpartitioned(), null);
        assertThatThrownBy(() -> run(plain, "range", Map.of(), 10, 10, 250, 1))
                .hasStackTraceContaining("Invalid distribution mode 'range' for target 'iceberg'")
                .hasStackTraceContaining("Need to define sort order or partition spec");
        assertThat(IcebergTables.snapshots(plain)).isEmpty();
    }

    private static Table createTable(Path warehouse, PartitionSpec spec, SortOrder order) {
        try (HadoopCatalog catalog = IcebergTables.catalog(warehouse)) {
            org.apache.iceberg.catalog.Catalog.TableBuilder builder = catalog.buildTable(
                            TableIdentifier.of(Namespace.of("db"), "t"), SCHEMA)
                    .withPartitionSpec(spec);
            if (order != null) {
                builder = builder.withSortOrder(order);
            }
            // Avro data files: a hundred partitions times four writers per checkpoint stay cheap
            builder = builder.withProperty(org.apache.iceberg.TableProperties.DEFAULT_FILE_FORMAT, "avro");
            return builder.create();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static SinkDescriptor descriptor(Table table, String mode, Map<String, String> more) {
        Map<String, String> options = new HashMap<>();
        options.put("sluice.plugins.dir", TestPluginsDir.get().toString());
        options.put("target", "iceberg");
        options.put("catalog-type", "hadoop");
        options.put("warehouse", warehouseOf(table).toUri().toString());
        options.put("catalog-database", "db");
        options.put("catalog-table", "t");
        options.put("distribution-mode", mode);
        options.putAll(more);
        SinkDescriptor descriptor = SinkDescriptor.resolve(options, ROW, List.of());
        SinkValidation.validate(descriptor);
        return descriptor;
    }

    /** The Hadoop catalog's warehouse: the table is at {@code <warehouse>/db/t}. */
    private static Path warehouseOf(Table table) {
        String location = table.location();
        Path dir = location.contains(":") ? Path.of(java.net.URI.create(location)) : Path.of(location);
        return dir.getParent().getParent();
    }

    private static StreamExecutionEnvironment environment(int parallelism, long checkpointMillis, Configuration conf) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        env.enableCheckpointing(checkpointMillis);
        return env;
    }

    private static void pipeline(
            StreamExecutionEnvironment env,
            Table table,
            String mode,
            Map<String, String> more,
            long rows,
            int rowsPerCheckpoint) {
        DataGeneratorSource<RowData> source = new DataGeneratorSource<>(
                new SkewedRows(SEED, KEYS),
                rows,
                RateLimiterStrategy.perCheckpoint(rowsPerCheckpoint),
                InternalTypeInfo.of(ROW));
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "skewed")
                .uid("skewed")
                .sinkTo(SluiceSink.of(descriptor(table, mode, more)))
                .uid("sink");
    }

    /**
     * As {@link #pipeline}, paced by time: a restored job whose source has fewer readers than
     * splits never finished when paced by checkpoints (Flink 1.20's per-checkpoint rate limiter).
     */
    private static void pipelineAtRate(StreamExecutionEnvironment env, Table table, long rows, double perSecond) {
        DataGeneratorSource<RowData> source = new DataGeneratorSource<>(
                new SkewedRows(SEED, KEYS), rows, RateLimiterStrategy.perSecond(perSecond), InternalTypeInfo.of(ROW));
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "skewed")
                .uid("skewed")
                .sinkTo(SluiceSink.of(descriptor(table, "range", Map.of())))
                .uid("sink");
    }

    private static JobID run(
            Table table,
            String mode,
            Map<String, String> more,
            long rows,
            int rowsPerCheckpoint,
            long checkpointMillis,
            int parallelism)
            throws Exception {
        StreamExecutionEnvironment env = environment(parallelism, checkpointMillis, new Configuration());
        pipeline(env, table, mode, more, rows, rowsPerCheckpoint);
        return env.execute("distribution " + mode).getJobID();
    }

    private static void awaitSnapshots(Table table, int count) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (IcebergTables.snapshots(table).size() < count && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        assertThat(IcebergTables.snapshots(table)).hasSizeGreaterThanOrEqualTo(count);
    }

    private static void assertEveryRowOnce(Table table, long rows) {
        List<Long> ids = IcebergTables.records(table).stream()
                .map(r -> (Long) r.getField("id"))
                .collect(Collectors.toList());
        assertThat(ids)
                .as("every row once")
                .hasSize((int) rows)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, rows).boxed().collect(Collectors.toList()));
    }

    /** Rows per writer subtask in the data files of snapshots of checkpoint {@code fromCheckpoint} on. */
    private static Map<Integer, Long> writerRows(Table table, long fromCheckpoint) {
        Map<Integer, Long> rows = new TreeMap<>();
        for (Snapshot snapshot : IcebergTables.snapshots(table)) {
            if (checkpointOf(snapshot) < fromCheckpoint) {
                continue;
            }
            for (DataFile file : snapshot.addedDataFiles(table.io())) {
                rows.merge(writerOf(file), file.recordCount(), Long::sum);
            }
        }
        return rows;
    }

    /** The mean number of writers a partition's files of one snapshot come from. */
    private static double writersPerPartition(Table table, long fromCheckpoint) {
        List<Integer> counts = new ArrayList<>();
        for (Snapshot snapshot : IcebergTables.snapshots(table)) {
            if (checkpointOf(snapshot) < fromCheckpoint) {
                continue;
            }
            Map<String, Set<Integer>> writers = new HashMap<>();
            for (DataFile file : snapshot.addedDataFiles(table.io())) {
                writers.computeIfAbsent(table.spec().partitionToPath(file.partition()), k -> new TreeSet<>())
                        .add(writerOf(file));
            }
            writers.values().forEach(w -> counts.add(w.size()));
        }
        return counts.stream().mapToInt(Integer::intValue).average().orElse(0);
    }

    private static long checkpointOf(Snapshot snapshot) {
        return Long.parseLong(snapshot.summary().getOrDefault("flink.max-committed-checkpoint-id", "-1"));
    }

    /** Upstream's data file names start with the writer's subtask index ({@code 00002-0-<operation>-00001.parquet}). */
    private static int writerOf(DataFile file) {
        String name = Path.of(file.path().toString()).getFileName().toString();
        return Integer.parseInt(name.substring(0, name.indexOf('-')));
    }

    private static Map<Integer, Double> shares(Map<Integer, Long> rows) {
        long total = rows.values().stream().mapToLong(Long::longValue).sum();
        Map<Integer, Double> shares = new TreeMap<>();
        rows.forEach((writer, n) -> shares.put(writer, (double) n / total));
        return shares;
    }

    private static String format(Map<Integer, Double> shares) {
        double max =
                shares.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        double min = shares.size() < PARALLELISM
                ? 0
                : shares.values().stream()
                        .mapToDouble(Double::doubleValue)
                        .min()
                        .orElse(0);
        return shares.entrySet().stream()
                        .map(e -> e.getKey() + "=" + String.format("%.3f", e.getValue()))
                        .collect(Collectors.joining(" ", "[", "]"))
                + String.format(" max/min %.2f", min == 0 ? Double.POSITIVE_INFINITY : max / min);
    }

    /** The values of a gauge of the range shuffle, one per subtask, of a job. */
    private static List<String> gauges(JobID job, String name) {
        List<String> values = new ArrayList<>();
        for (Map.Entry<org.apache.flink.metrics.MetricGroup, Map<String, Metric>> e :
                METRICS.getMetricsByGroup().entrySet()) {
            if (!job.toString().equals(e.getKey().getAllVariables().get("<job_id>"))) {
                continue;
            }
            Metric metric = e.getValue().get(name);
            if (metric instanceof Gauge) {
                values.add(String.valueOf(((Gauge<?>) metric).getValue()));
            }
        }
        return values;
    }
}
