package io.sluice.plugin.iceberg.bench;

import io.sluice.plugin.iceberg.it.IcebergTables;
import io.sluice.plugin.iceberg.it.SkewedRows;
import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.SluiceSink;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
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
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.FlinkSink;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.sluice.testshared.BenchmarkMachine.cpuModel;
import static io.sluice.testshared.BenchmarkMachine.loadAverage;
import static io.sluice.testshared.BenchmarkMachine.processCpuNanos;
import static io.sluice.testshared.BenchmarkMachine.rate;

/**
 * Distribution modes side by side, one MiniCluster: the same skewed rows (100 Zipf-like partition
 * values, {@link SkewedRows}) written STREAMING at parallelism 4 by Sluice with {@code none},
 * {@code hash} and {@code range}, and by upstream's {@link FlinkSink} (iceberg-flink-1.20, on the
 * test class path) with {@code HASH} and {@code RANGE}. Per case: throughput (and its ratio to
 * Sluice {@code none}, and Sluice's to upstream's in the same mode), data files per checkpoint,
 * the largest writer share over the smallest (from each snapshot's data files, named by writer
 * subtask), and the process CPU time over that of Sluice {@code none} (the shuffle's overhead,
 * with statistics for range). Not a test: run with {@code -Pbenchmarks}; rows with {@code
 * -Dsluice.bench.distribution.rows} (default 2,000,000).
 */
class DistributionBenchmark {

    private static final int PARALLELISM = 4;
    private static final long ROWS = Long.getLong("sluice.bench.distribution.rows", 2_000_000L);
    private static final long CHECKPOINT_MS = 1_000;
    /** A case that takes longer is cancelled and reported as such (upstream's RANGE hung once here). */
    private static final long TIMEOUT_SECONDS = Long.getLong("sluice.bench.distribution.timeout", 300L);

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
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

    @Test
    void distributionModes() throws Exception {
        List<String[]> rows = new ArrayList<>();
        Map<String, double[]> measured = new TreeMap<>();
        for (String side : new String[] {"sluice", "upstream"}) {
            for (String mode : new String[] {"none", "hash", "range"}) {
                if (side.equals("upstream") && mode.equals("none")) {
                    continue; // upstream's none is Sluice's none: no shuffle to compare
                }
                String name = side + "-" + mode;
                Table table = createTable(name);
                StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
                env.setParallelism(PARALLELISM);
                env.enableCheckpointing(CHECKPOINT_MS);
                DataStream<RowData> input = env.fromSource(
                        new DataGeneratorSource<>(new SkewedRows(7, 100), ROWS, InternalTypeInfo.of(ROW)),
                        WatermarkStrategy.noWatermarks(),
                        "skewed");
                if (side.equals("sluice")) {
                    input.sinkTo(SluiceSink.of(SinkDescriptor.resolve(sluiceOptions(name, mode), ROW, List.of())));
                } else {
                    FlinkSink.forRowData(input)
                            .tableLoader(tableLoader(name))
                            .distributionMode(org.apache.iceberg.DistributionMode.fromName(mode))
                            .append();
                }
                long cpu = processCpuNanos();
                long wall = System.nanoTime();
                org.apache.flink.core.execution.JobClient job = env.executeAsync(name);
                try {
                    job.getJobExecutionResult().get(TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    job.cancel().get();
                    System.out.println(name + ": did not finish within " + TIMEOUT_SECONDS + " s; cancelled, "
                            + IcebergTables.snapshots(table).size() + " snapshots");
                    continue;
                }
                double seconds = (System.nanoTime() - wall) / 1e9;
                double cpuSeconds = (processCpuNanos() - cpu) / 1e9;
                table.refresh();
                double[] m = {ROWS / seconds, filesPerCheckpoint(table), maxOverMin(table), cpuSeconds};
                System.out.printf(
                        "%s: %s rows/s, %.1f files per checkpoint, max/min writer share %.2f, CPU %.1f s%n",
                        name, rate(m[0]), m[1], m[2], m[3]);
                measured.put(name, m);
            }
        }
        double[] none = measured.get("sluice-none");
        StringBuilder report = new StringBuilder("# Distribution modes, " + ROWS + " rows, 100 Zipf-like partitions,"
                + " parallelism " + PARALLELISM + ", checkpoints every " + CHECKPOINT_MS + " ms\n\n"
                + "CPU: " + cpuModel() + ", load average before: " + loadAverage() + "\n\n"
                + "| case | rows/s | vs sluice-none | vs upstream, same mode | files per checkpoint |"
                + " max/min writer share | CPU s | CPU over sluice-none |\n|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<String, double[]> e : measured.entrySet()) {
            double[] m = e.getValue();
            String mode = e.getKey().substring(e.getKey().indexOf('-') + 1);
            double[] upstream = measured.get("upstream-" + mode);
            if (none == null) {
                break;
            }
            report.append(String.format(
                    "| %s | %s | %.2f | %s | %.1f | %.2f | %.1f | %+.1f |%n",
                    e.getKey(),
                    rate(m[0]),
                    m[0] / none[0],
                    e.getKey().startsWith("sluice") && upstream != null
                            ? String.format("%.2f", m[0] / upstream[0])
                            : "",
                    m[1],
                    m[2],
                    m[3],
                    m[3] - none[3]));
        }
        System.out.println(report);
        String results = System.getProperty("sluice.bench.results");
        if (results != null) {
            Path file = Path.of(results).resolveSibling("distribution-benchmark-results.md");
            Files.writeString(file, report.toString(), StandardCharsets.UTF_8);
        }
    }

    private Table createTable(String name) throws IOException {
        try (HadoopCatalog catalog = IcebergTables.catalog(tmp)) {
            return catalog.createTable(
                    TableIdentifier.of(Namespace.of("db"), name),
                    SCHEMA,
                    PartitionSpec.builderFor(SCHEMA).identity("p").build());
        }
    }

    private Map<String, String> sluiceOptions(String table, String mode) {
        Map<String, String> options = new HashMap<>();
        options.put(
                "sluice.plugins.dir",
                io.sluice.plugin.iceberg.it.TestPluginsDir.get().toString());
        options.put("target", "iceberg");
        options.put("catalog-type", "hadoop");
        options.put("warehouse", tmp.toUri().toString());
        options.put("catalog-database", "db");
        options.put("catalog-table", table);
        options.put("distribution-mode", mode);
        return options;
    }

    private TableLoader tableLoader(String table) {
        return TableLoader.fromCatalog(
                CatalogLoader.hadoop(
                        "bench",
                        new org.apache.hadoop.conf.Configuration(),
                        Map.of("warehouse", tmp.toUri().toString())),
                TableIdentifier.of("db", table));
    }

    private static double filesPerCheckpoint(Table table) {
        List<Snapshot> snapshots = IcebergTables.snapshots(table);
        long files = 0;
        for (Snapshot s : snapshots) {
            files += Long.parseLong(s.summary().getOrDefault("added-data-files", "0"));
        }
        return snapshots.isEmpty() ? 0 : (double) files / snapshots.size();
    }

    /** The largest writer's rows over the smallest's, from the data files (named by writer subtask). */
    private static double maxOverMin(Table table) {
        Map<Integer, Long> rows = new TreeMap<>();
        for (Snapshot s : IcebergTables.snapshots(table)) {
            for (DataFile file : s.addedDataFiles(table.io())) {
                String name = Path.of(file.path().toString()).getFileName().toString();
                rows.merge(Integer.parseInt(name.substring(0, name.indexOf('-'))), file.recordCount(), Long::sum);
            }
        }
        if (rows.size() < PARALLELISM) {
            return Double.POSITIVE_INFINITY;
        }
        long max = rows.values().stream().mapToLong(Long::longValue).max().getAsLong();
        long min = rows.values().stream().mapToLong(Long::longValue).min().getAsLong();
        return (double) max / min;
    }
}
