package io.sluice.plugin.iceberg.bench;

import io.sluice.plugin.iceberg.it.CountingCatalog;
import io.sluice.plugin.iceberg.it.TestPluginsDir;
import io.sluice.runtime.sink.dynamic.DynamicSink;
import io.sluice.testshared.SideBySide;
import io.sluice.testshared.TimedRun;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.sink.dynamic.DynamicIcebergSink;
import org.apache.iceberg.rest.RESTCatalogServer;
import org.apache.iceberg.rest.RESTServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import static io.sluice.testshared.BenchmarkMachine.cpuModel;
import static io.sluice.testshared.BenchmarkMachine.deleteTree;
import static io.sluice.testshared.BenchmarkMachine.loadAverage;
import static io.sluice.testshared.BenchmarkMachine.rate;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sluice's dynamic sink ({@link DynamicSink} with the iceberg plugin) next to upstream's {@link
 * DynamicIcebergSink} (iceberg-flink-1.20 on the test class path): the same generated rows routed
 * by the same rule (row {@code i} to table {@code i % tables}) to 1, 10 and 100 tables of one REST
 * catalog server in this JVM, on the same MiniCluster, STREAMING with checkpoints every second,
 * runs alternating between the two sides. The server's back end is a {@link CountingCatalog}, so
 * every table load either sink makes, from its routers, writers, updater or committer, through the
 * REST API and across the plugin's class loader, is counted the same way.
 *
 * <p>Per case: throughput (rows over the job's net run time) and its ratio, the whole JVM's CPU
 * time per run and its ratio (upstream over Sluice: > 1 is Sluice needing less), and catalog loads
 * per run and per minute of run time. The tables exist before each run with exactly the records'
 * schema (both sinks then write without evolving anything), in a namespace of the run's own; each
 * run is verified before it counts: every table's current snapshot holds exactly its rows and no
 * delete files. A Sluice run that fails verification fails the benchmark; an upstream run that does
 * is repeated (at most three times per case) and listed.
 *
 * <p>Not a test: profile {@code benchmarks}, {@code -Dit.test=DynamicSinkBenchmark}. Knobs:
 * {@code -Dsluice.bench.dynamic.rows} (2,000,000), {@code -Dsluice.bench.dynamic.tables} (1,10,100),
 * {@code -Dsluice.bench.dynamic.modes} ({@code none}: shuffled round-robin; {@code forward}: no
 * shuffle, writers chained to the generator), {@code -Dsluice.bench.runs} and {@code
 * -Dsluice.bench.warmup}.
 */
class DynamicSinkBenchmark {

    private static final int PARALLELISM = 2;
    private static final long ROWS = Long.getLong("sluice.bench.dynamic.rows", 2_000_000L);
    private static final int WARMUP = Integer.getInteger("sluice.bench.warmup", 1);
    private static final int RUNS = Integer.getInteger("sluice.bench.runs", 5);
    private static final List<Integer> TABLES = Arrays.stream(
                    System.getProperty("sluice.bench.dynamic.tables", "1,10,100")
                            .split(","))
            .map(s -> Integer.parseInt(s.trim()))
            .collect(Collectors.toList());
    private static final List<String> MODES = Arrays.stream(
                    System.getProperty("sluice.bench.dynamic.modes", "none,forward")
                            .split(","))
            .map(String::trim)
            .collect(Collectors.toList());
    private static final long CHECKPOINT_INTERVAL_MS = 1000;
    private static final int MAX_REJECTED_UPSTREAM_RUNS = 3;

    /** The records' schema and every table's: the rows of {@link IcebergBenchmark}. */
    private static final RowType ROW = IcebergBenchmark.ROW;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(PARALLELISM)
                    .build());

    private static final Path WAREHOUSE = warehouse();

    @RegisterExtension
    static final RESTServerExtension REST = new RESTServerExtension(Map.of(
            RESTCatalogServer.REST_PORT, RESTServerExtension.FREE_PORT,
            CatalogProperties.CATALOG_IMPL, CountingCatalog.class.getName(),
            CatalogProperties.WAREHOUSE_LOCATION, WAREHOUSE.toUri().toString()));

    private static Path warehouse() {
        Path dir = Paths.get("target", "dynamic-bench-warehouse").toAbsolutePath();
        try {
            deleteTree(dir);
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void sluiceNextToUpstreamsDynamicSink() throws Exception {
        String loadAtStart = loadAverage();
        List<CaseResult> results = new ArrayList<>();
        for (String mode : MODES) {
            if (!mode.equals("none") && !mode.equals("forward")) {
                throw new IllegalArgumentException("Unknown mode '" + mode + "': none or forward");
            }
            for (int tables : TABLES) {
                results.add(runCase(tables, mode));
            }
        }
        String report = report(results, loadAtStart, loadAverage());
        System.out.println();
        System.out.println(report);
        String results0 = System.getProperty("sluice.bench.results", "target/benchmark-results.md");
        Path file = Paths.get(results0).resolveSibling("dynamic-sink-benchmark-results.md");
        Files.write(file, report.getBytes(StandardCharsets.UTF_8));
        System.out.println("written to " + file.toAbsolutePath());
    }

    private CaseResult runCase(int tables, String mode) throws Exception {
        CaseResult result = new CaseResult(tables + " tables, " + mode);
        log("== " + result.name + ": " + ROWS + " rows, parallelism " + PARALLELISM + ", " + WARMUP + " warm-up + "
                + RUNS + " measured runs per side");
        for (int i = 0; i < WARMUP + RUNS; i++) {
            // ABBA order: neither side always runs first (JIT, GC, page cache drift)
            String[] order = i % 2 == 0 ? new String[] {"sluice", "upstream"} : new String[] {"upstream", "sluice"};
            Run[] pair = new Run[2];
            for (String side : order) {
                Run r = verified(result, side, tables, mode, i);
                pair[side.equals("sluice") ? 0 : 1] = r;
            }
            if (i >= WARMUP) {
                result.sluice.add(pair[0]);
                result.upstream.add(pair[1]);
            }
        }
        log(String.format(
                Locale.ROOT,
                "   %s: Sluice %s rows/s, upstream %s rows/s, ratio %.2f, CPU ratio %.2f, loads/min %.0f / %.0f",
                result.name,
                rate(CaseResult.median(result.sluice, Run::rowsPerSecond)),
                rate(CaseResult.median(result.upstream, Run::rowsPerSecond)),
                result.ratio(),
                result.cpuRatio(),
                CaseResult.median(result.sluice, Run::loadsPerMinute),
                CaseResult.median(result.upstream, Run::loadsPerMinute)));
        return result;
    }

    private Run verified(CaseResult result, String side, int tables, String mode, int index) throws Exception {
        int attempt = 0;
        while (true) {
            String database = side + "_" + tables + "_" + mode + "_" + index + "_" + attempt++;
            try {
                return run(side, database, tables, mode);
            } catch (AssertionError e) {
                if (!side.equals("upstream") || result.rejected.size() >= MAX_REJECTED_UPSTREAM_RUNS) {
                    throw e;
                }
                String why = e.getMessage().replaceAll("\\s+", " ").trim();
                result.rejected.add(why);
                log("   upstream run rejected, repeating it: " + why);
            } finally {
                drop(database, tables);
            }
        }
    }

    private Run run(String side, String database, int tables, String mode) throws Exception {
        Schema schema = FlinkSchemaUtil.convert(FlinkSchemaUtil.toResolvedSchema(ROW));
        REST.client().createNamespace(Namespace.of(database));
        for (int t = 0; t < tables; t++) {
            REST.client().createTable(TableIdentifier.of(database, "t" + t), schema, PartitionSpec.unpartitioned());
        }
        System.gc();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(CHECKPOINT_INTERVAL_MS);
        DataStream<Long> ids = env.fromSource(
                new DataGeneratorSource<>(i -> i, ROWS, Types.LONG), WatermarkStrategy.noWatermarks(), "ids");
        boolean forward = mode.equals("forward");
        if (side.equals("sluice")) {
            DynamicSink.forInput(ids)
                    .generator(new SluiceRecords(database, tables, forward))
                    .target("iceberg")
                    .pluginsDir(TestPluginsDir.get())
                    .catalog(Map.of("catalog-type", "rest", "uri", uri()))
                    .writeParallelism(PARALLELISM)
                    .append();
        } else {
            DynamicIcebergSink.forInput(ids)
                    .generator(new UpstreamRecords(database, tables, forward))
                    .catalogLoader(CatalogLoader.rest(
                            "bench", new org.apache.hadoop.conf.Configuration(), Map.of("uri", uri())))
                    .writeParallelism(PARALLELISM)
                    .append();
        }
        CountingCatalog.reset();
        Run r = new Run(TimedRun.execute(env, side + " dynamic sink " + database, ROWS));
        r.loads = CountingCatalog.totalLoads();
        verify(r, database, tables);
        log(String.format(Locale.ROOT, "   %-9s %-30s %s", side, database, r.describe()));
        return r;
    }

    /** Every table holds exactly its rows (row i in table i % tables), with no deletes. */
    private static void verify(Run r, String database, int tables) {
        for (int t = 0; t < tables; t++) {
            long expected = ROWS / tables + (t < ROWS % tables ? 1 : 0);
            Table table = REST.client().loadTable(TableIdentifier.of(database, "t" + t));
            Snapshot current = table.currentSnapshot();
            assertThat(current).as("snapshot of %s.t%d", database, t).isNotNull();
            Map<String, String> summary = current.summary();
            assertThat(Long.parseLong(summary.get("total-records")))
                    .as("total-records of %s.t%d", database, t)
                    .isEqualTo(expected);
            assertThat(Long.parseLong(summary.get("total-delete-files")))
                    .as("delete files of %s.t%d", database, t)
                    .isZero();
            r.files += Integer.parseInt(summary.get("total-data-files"));
            for (Snapshot ignored : table.snapshots()) {
                r.snapshots++;
            }
        }
    }

    private static void drop(String database, int tables) {
        for (int t = 0; t < tables; t++) {
            REST.client().dropTable(TableIdentifier.of(database, "t" + t), true);
        }
        REST.client().dropNamespace(Namespace.of(database));
        try {
            deleteTree(WAREHOUSE.resolve(database));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String uri() {
        return "http://localhost:" + REST.config().get(RESTCatalogServer.REST_PORT) + "/";
    }

    // ------------------------------------------------------------------ the two generators

    /**
     * Row i of {@link IcebergBenchmark.Rows} to table {@code i % tables}; the same schema instance
     * for every record (what both sinks' schema caches are built for).
     */
    static final class SluiceRecords implements io.sluice.runtime.sink.dynamic.DynamicRecordGenerator<Long> {
        private static final long serialVersionUID = 1L;
        private final String database;
        private final int tables;
        private final boolean forward;
        private transient String[] names;
        private transient IcebergBenchmark.Rows rows;

        SluiceRecords(String database, int tables, boolean forward) {
            this.database = database;
            this.tables = tables;
            this.forward = forward;
        }

        @Override
        public void open(OpenContext context) {
            names = new String[tables];
            for (int t = 0; t < tables; t++) {
                names[t] = database + ".t" + t;
            }
            rows = new IcebergBenchmark.Rows();
        }

        @Override
        public void generate(Long i, Collector<io.sluice.runtime.sink.dynamic.DynamicRecord> out) {
            out.collect(new io.sluice.runtime.sink.dynamic.DynamicRecord(
                    names[(int) (i % tables)],
                    null,
                    ROW,
                    rows.map(i),
                    List.of(),
                    forward ? null : io.sluice.spi.distribution.DistributionMode.NONE,
                    PARALLELISM));
        }
    }

    /** The same records for upstream's sink, with Iceberg's own identifier, schema and spec. */
    static final class UpstreamRecords implements org.apache.iceberg.flink.sink.dynamic.DynamicRecordGenerator<Long> {
        private static final long serialVersionUID = 1L;
        private final String database;
        private final int tables;
        private final boolean forward;
        private transient TableIdentifier[] identifiers;
        private transient Schema schema;
        private transient IcebergBenchmark.Rows rows;

        UpstreamRecords(String database, int tables, boolean forward) {
            this.database = database;
            this.tables = tables;
            this.forward = forward;
        }

        @Override
        public void open(OpenContext context) {
            identifiers = new TableIdentifier[tables];
            for (int t = 0; t < tables; t++) {
                identifiers[t] = TableIdentifier.of(database, "t" + t);
            }
            schema = FlinkSchemaUtil.convert(FlinkSchemaUtil.toResolvedSchema(ROW));
            rows = new IcebergBenchmark.Rows();
        }

        @Override
        public void generate(Long i, Collector<org.apache.iceberg.flink.sink.dynamic.DynamicRecord> out) {
            out.collect(new org.apache.iceberg.flink.sink.dynamic.DynamicRecord(
                    identifiers[(int) (i % tables)],
                    null,
                    schema,
                    rows.map(i),
                    PartitionSpec.unpartitioned(),
                    forward ? null : org.apache.iceberg.DistributionMode.NONE,
                    PARALLELISM));
        }
    }

    // ------------------------------------------------------------------ results

    static final class Run extends TimedRun {
        long loads;
        int files;
        int snapshots;

        Run(TimedRun timing) {
            super(timing);
        }

        double loadsPerMinute() {
            return loads * 60_000.0 / netMs;
        }

        String describe() {
            return timing() + String.format(Locale.ROOT, "  %d loads  %d files, %d snapshots", loads, files, snapshots);
        }
    }

    static final class CaseResult extends SideBySide<Run> {
        CaseResult(String name) {
            super(name);
        }
    }

    private static String report(List<CaseResult> results, String loadAtStart, String loadAtEnd) {
        StringBuilder s = new StringBuilder();
        s.append("## DynamicSinkBenchmark: Sluice's dynamic sink vs upstream's DynamicIcebergSink\n\n");
        s.append(String.format(
                Locale.ROOT,
                "%s, %d cores (%s), Java %s, max heap %d MB; Iceberg %s; %,d rows (id BIGINT, name STRING(16), "
                        + "amount DOUBLE, ts TIMESTAMP(6)), row i to table i %% tables; parallelism %d (generators and "
                        + "writers), STREAMING, checkpoints every %d ms; REST catalog server in the same JVM; "
                        + "%d warm-up + %d measured runs per side, alternating; medians.\n\n",
                LocalDate.now(),
                Runtime.getRuntime().availableProcessors(),
                cpuModel(),
                System.getProperty("java.version"),
                Runtime.getRuntime().maxMemory() / 1024 / 1024,
                org.apache.iceberg.IcebergBuild.version(),
                ROWS,
                PARALLELISM,
                CHECKPOINT_INTERVAL_MS,
                WARMUP,
                RUNS));
        s.append("| tables, distribution | Sluice rows/s | upstream rows/s | **ratio** | CPU s/run Sluice / upstream"
                + " | CPU ratio | catalog loads/run Sluice / upstream | loads/min Sluice / upstream"
                + " | data files Sluice / upstream | upstream runs rejected |\n");
        s.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (CaseResult r : results) {
            s.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | **%.2f** | %.2f / %.2f | %.2f | %.0f / %.0f | %.0f / %.0f | %.0f / %.0f | %d |\n",
                    r.name,
                    rate(CaseResult.median(r.sluice, Run::rowsPerSecond)),
                    rate(CaseResult.median(r.upstream, Run::rowsPerSecond)),
                    r.ratio(),
                    CaseResult.median(r.sluice, Run::cpuSeconds),
                    CaseResult.median(r.upstream, Run::cpuSeconds),
                    r.cpuRatio(),
                    CaseResult.median(r.sluice, run -> run.loads),
                    CaseResult.median(r.upstream, run -> run.loads),
                    CaseResult.median(r.sluice, Run::loadsPerMinute),
                    CaseResult.median(r.upstream, Run::loadsPerMinute),
                    CaseResult.median(r.sluice, run -> run.files),
                    CaseResult.median(r.upstream, run -> run.files),
                    r.rejected.size()));
        }
        s.append("\nratio: median throughput (rows / the job's net run time) of Sluice over upstream's (> 1: Sluice"
                + " is faster). CPU ratio: upstream's median CPU time of the whole JVM per run over Sluice's (> 1:"
                + " Sluice needs less), steadier than throughput when other processes compete for the cores (load"
                + " average at start / end: " + loadAtStart + " / " + loadAtEnd + "). Catalog loads: every loadTable"
                + " the REST server's back end saw during the run, from either sink's routers, writers, updater and"
                + " committer. none: DistributionMode.NONE (round-robin over the writers); forward: no distribution"
                + " mode, the writers chained to the generator. Every run was verified (each table's total-records"
                + " exactly its rows, no delete files).\n");
        for (CaseResult r : results) {
            for (String why : r.rejected) {
                s.append("\n- ")
                        .append(r.name)
                        .append(", upstream run rejected: ")
                        .append(why);
            }
        }
        s.append('\n');
        return s.toString();
    }

    private static void log(String line) {
        System.out.println(line);
    }
}
