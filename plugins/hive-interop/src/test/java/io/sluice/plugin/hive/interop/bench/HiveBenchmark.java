package io.sluice.plugin.hive.interop.bench;

import io.sluice.plugin.hive.interop.Interop;
import io.sluice.testservers.hive.StandaloneMetastore;
import io.sluice.testshared.BenchmarkRows;
import io.sluice.testshared.SideBySide;
import io.sluice.testshared.TimedRun;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.sluice.testshared.BenchmarkMachine.cpuModel;
import static io.sluice.testshared.BenchmarkMachine.deleteTree;
import static io.sluice.testshared.BenchmarkMachine.loadAverage;
import static io.sluice.testshared.BenchmarkMachine.mb;
import static io.sluice.testshared.BenchmarkMachine.processCpuNanos;
import static io.sluice.testshared.BenchmarkMachine.rate;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Throughput of Sluice's {@code hive} target and scan source next to Flink's own Hive connector
 * ({@code flink-connector-hive_2.12} 3.0.0-1.20 with hive-exec 3.1.3, flat on this module's class
 * path; the plugin bundles the same versions in its own class loader): the same Flink SQL, the same
 * rows, the same Hive tables on one standalone metastore (its own JVM), the same job shape
 * (parallelism 2, BATCH), on one MiniCluster in this JVM, runs alternating between the two,
 * reported as a ratio. Upstream's side is a {@code HiveCatalog} ({@code 'type' = 'hive'}), Sluice's
 * its catalog with {@code 'target' = 'hive'}, as in {@link Interop}. Not a test: it only runs in the
 * {@code benchmarks} profile of {@code plugins/hive-interop}, in the integration-test phase, after
 * the plugin zips are unpacked.
 *
 * <p>What is compared, per case:
 *
 * <ul>
 *   <li>{@code write-batch-parquet}: {@code INSERT INTO} an empty, unpartitioned Parquet table from
 *       a view of generated rows ({@code DataGeneratorSource});
 *   <li>{@code write-batch-partitioned}: the same into a table partitioned by {@code dt}, one of
 *       {@code sluice.bench.partition-values} (16) days per row, spread by a hash: both sides sort
 *       the rows by {@code dt} before their writers (upstream's {@code
 *       table.exec.hive.sink.sort-by-dynamic-partition.enable}, default true, which the hive target
 *       follows), so each writer has one file open at a time;
 *   <li>{@code read-batch-parquet}: {@code SELECT} every column of a Parquet table of the same rows,
 *       written once by upstream before the runs, into a counting and checksumming sink.
 * </ul>
 *
 * <p>Both sides write with their defaults, and so with the same writer: Hive's own mapred Parquet
 * writer ({@code MapredParquetOutputFormat} of hive-exec 3.1.3, parquet-mr 1.10.0, uncompressed).
 * Sluice's target follows {@code table.exec.hive.fallback-mapred-writer} (default true); upstream's
 * BATCH sink without compaction writes through Hive's record writer whatever it says (the option
 * only picks the writer of its STREAMING and compacting sinks), so {@code
 * -Dsluice.bench.fallback-mapred-writer=false} compares the formats plugin's native writer with
 * Hive's. The footers the verification reads name each side's writer in the report. The tables
 * are created the same way for both, through upstream's catalog, before every run.
 *
 * <p>The commit: both sides' BATCH sinks commit a partitioned table with the Hive default of
 * {@code sink.partition-commit.policy.kind}, {@code metastore,success-file} (each partition added
 * to the metastore, a {@code _SUCCESS} file in it), and both end with the same partitions and
 * files. (An unpartitioned table: upstream writes a {@code _SUCCESS} file into it, Sluice's
 * policies run for partitions only.)
 *
 * <p>Every run is verified before it counts: a written table's Parquet files (every visible file
 * under the table's location, read by parquet-hadoop's footer reader, not by either side) hold N
 * rows; a partitioned table's metastore has exactly the expected partitions, and the files in each
 * partition's location hold that partition's rows; a read's rows are counted and checksummed
 * (every field of every row, in any order) by the job and must match the generated rows. A Sluice
 * run that fails verification fails the benchmark; an upstream one is left out of the numbers,
 * repeated and listed in the report.
 *
 * <p>Timing is the job's net run time on the cluster ({@link JobExecutionResult#getNetRuntime()}):
 * planning the statement and submitting it are left out; scheduling, reading or writing, and the
 * commit (files moved, partitions added) are in. CPU time is the whole JVM's from before the
 * statement is planned to the job's end; the metastore's is its own process's.
 */
class HiveBenchmark {

    private static final int PARALLELISM = 2;
    private static final long ROWS = Long.getLong("sluice.bench.rows", 5_000_000L);
    private static final int WARMUP = Integer.getInteger("sluice.bench.warmup", 1);
    private static final int RUNS = Integer.getInteger("sluice.bench.runs", 5);
    private static final int PARTITION_VALUES = Integer.getInteger("sluice.bench.partition-values", 16);
    private static final List<String> CASES = Arrays.asList(
            System.getProperty("sluice.bench.cases", "write-batch-parquet,write-batch-partitioned,read-batch-parquet")
                    .split(","));
    /**
     * {@code table.exec.hive.fallback-mapred-writer} for both sides, {@code true} (Hive's mapred
     * writers) or {@code false} (the native ones); unset, each side's default.
     */
    private static final String MAPRED_WRITER = System.getProperty("sluice.bench.fallback-mapred-writer", "");

    /** Upstream's default of {@code sink.partition-commit.policy.kind} for Hive tables ({@code HiveOptions}). */
    private static final String UPSTREAM_POLICIES = "metastore,success-file";
    /** Upstream runs per case that may fail verification before the benchmark gives up. */
    private static final int MAX_REJECTED_UPSTREAM_RUNS = 3;

    private static final String DB = "bench";
    private static final String READ_TABLE = "read_source";
    /** Hive's TIMESTAMP is upstream's TIMESTAMP(9): the rows carry it, so no cast is planned on either side. */
    private static final String COLUMNS = "id BIGINT, name STRING, amount DOUBLE, ts TIMESTAMP(9)";

    @RegisterExtension
    static final StandaloneMetastore METASTORE = new StandaloneMetastore();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(PARALLELISM)
                    .setConfiguration(fixedParallelism())
                    .build());

    static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(), VarCharType.STRING_TYPE, new DoubleType(), new TimestampType(9)},
            new String[] {"id", "name", "amount", "ts"});
    static final RowType PARTITIONED_ROW = RowType.of(
            new LogicalType[] {
                new BigIntType(),
                VarCharType.STRING_TYPE,
                new DoubleType(),
                new TimestampType(9),
                VarCharType.STRING_TYPE
            },
            new String[] {"id", "name", "amount", "ts", "dt"});
    /** The rows a read hands to the job, as Flink's internal RowData: no conversion into {@code Row}s. */
    private static final DataType READ_TYPE = DataTypes.ROW(
                    DataTypes.FIELD("id", DataTypes.BIGINT()),
                    DataTypes.FIELD("name", DataTypes.STRING()),
                    DataTypes.FIELD("amount", DataTypes.DOUBLE()),
                    DataTypes.FIELD("ts", DataTypes.TIMESTAMP(9)))
            .bridgedTo(RowData.class);

    /**
     * Every vertex at the parallelism the job sets: Flink's adaptive batch scheduler would otherwise
     * choose the parallelism of some vertices by data volume, and not necessarily alike for both.
     */
    private static Configuration fixedParallelism() {
        Configuration conf = new Configuration();
        conf.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, false);
        return conf;
    }

    @BeforeAll
    static void onlyAfterPackaging() {
        Interop.assumeIntegrationTestPhase();
    }

    @Test
    void sluiceNextToFlinksHiveConnector() throws Exception {
        String loadAtStart = loadAverage();
        try (CatalogEnvironment admin = new CatalogEnvironment("upstream")) {
            admin.tEnv.executeSql("CREATE DATABASE IF NOT EXISTS c." + DB);
        }
        List<CaseResult> results = new ArrayList<>();
        for (String c : CASES) {
            String name = c.trim();
            switch (name) {
                case "write-batch-parquet":
                    results.add(writeCase(name, false));
                    break;
                case "write-batch-partitioned":
                    results.add(writeCase(name, true));
                    break;
                case "read-batch-parquet":
                    results.add(readCase(name));
                    break;
                default:
                    throw new IllegalArgumentException("Unknown case '" + name
                            + "': write-batch-parquet, write-batch-partitioned or read-batch-parquet");
            }
        }
        String report = report(results, loadAtStart, loadAverage());
        System.out.println();
        System.out.println(report);
        System.out.println("written to "
                + BenchmarkResults.writeSection(HiveBenchmark.class, "Sluice vs Flink's Hive connector", report));
    }

    // ------------------------------------------------------------------ writing

    private CaseResult writeCase(String name, boolean partitioned) throws Exception {
        CaseResult result = new CaseResult(name);
        log("== " + name + ": " + ROWS + " rows, parallelism " + PARALLELISM + ", " + WARMUP + " warm-up + " + RUNS
                + " measured runs per side");
        // the generator alone (counted, not written): what making the rows costs, for reading the numbers
        for (int i = 0; i < WARMUP + RUNS; i++) {
            Run r = generateOnly(partitioned, i);
            if (i >= WARMUP) {
                result.baseline.add(r);
            }
        }
        for (int i = 0; i < WARMUP + RUNS; i++) {
            // ABBA order: neither side always runs first (JIT, GC, page cache drift)
            String[] order = i % 2 == 0 ? new String[] {"sluice", "upstream"} : new String[] {"upstream", "sluice"};
            Map<String, Run> pair = new LinkedHashMap<>();
            for (String side : order) {
                int index = i;
                pair.put(side, verified(result, side, () -> write(side, partitioned, index)));
            }
            if (i >= WARMUP) {
                result.sluice.add(pair.get("sluice"));
                result.upstream.add(pair.get("upstream"));
            }
        }
        logSummary(result);
        return result;
    }

    private Run generateOnly(boolean partitioned, int index) throws Exception {
        StreamExecutionEnvironment env = environment();
        count(generated(env, partitioned));
        long cpuStart = processCpuNanos();
        long wallStart = System.nanoTime();
        JobExecutionResult job = env.execute("generator only #" + index);
        Run r = new Run(job, wallStart, cpuStart);
        Checksum.verify(job, "generated rows");
        log(String.format(Locale.ROOT, "   %-9s #%d  %s", "generator", index, r.describe()));
        return r;
    }

    private Run write(String side, boolean partitioned, int index) throws Exception {
        String table = (partitioned ? "wp_" : "wb_") + side + "_" + index;
        createTable(table, partitioned);
        System.gc();
        try (CatalogEnvironment run = new CatalogEnvironment(side)) {
            run.tEnv.createTemporaryView("generated", generated(run.env, partitioned));
            // no policy named: both sides' BATCH default is 'metastore,success-file' (the partitions
            // into the metastore, a _SUCCESS file into each), which verifyWritten checks
            long cpuStart = processCpuNanos();
            long wallStart = System.nanoTime();
            TableResult inserted =
                    run.tEnv.executeSql("INSERT INTO c." + DB + "." + table + " SELECT * FROM generated");
            JobExecutionResult job = inserted.getJobClient()
                    .orElseThrow()
                    .getJobExecutionResult()
                    .get();
            Run r = new Run(job, wallStart, cpuStart);
            verifyWritten(r, table, partitioned);
            log(String.format(
                    Locale.ROOT, "   %-9s %-9s #%d  %s", partitioned ? "write-p" : "write", side, index, r.describe()));
            return r;
        } finally {
            dropTable(table);
        }
    }

    /**
     * Runs {@code attempt} until its output verifies. A Sluice run that lost or duplicated rows
     * fails the benchmark: that is a bug to fix, never a number. An upstream run that did is
     * recorded and repeated, up to {@link #MAX_REJECTED_UPSTREAM_RUNS} times per case.
     */
    private static Run verified(CaseResult result, String side, Attempt attempt) throws Exception {
        while (true) {
            try {
                return attempt.run();
            } catch (AssertionError e) {
                if (!side.equals("upstream") || result.rejected.size() >= MAX_REJECTED_UPSTREAM_RUNS) {
                    throw e;
                }
                String why = e.getMessage().replaceAll("\\s+", " ").trim();
                result.rejected.add(why);
                log("   upstream run rejected, repeating it: " + why);
            }
        }
    }

    /** One run of one side, verified: throws {@link AssertionError} when its output is wrong. */
    @FunctionalInterface
    interface Attempt {
        Run run() throws Exception;
    }

    /**
     * The table holds exactly the rows once: the footers of its visible files add up to N rows, and
     * a partitioned table's metastore lists exactly the expected partitions, each location's files
     * holding that partition's rows. Records the files, their bytes and their writer on the run.
     */
    private static void verifyWritten(Run r, String table, boolean partitioned) throws Exception {
        try (HiveMetaStoreClient client = Interop.client(METASTORE)) {
            Path location =
                    Paths.get(URI.create(client.getTable(DB, table).getSd().getLocation()));
            Footers all = Footers.under(location);
            assertThat(all.rows)
                    .as("rows in the footers of the files of " + table)
                    .isEqualTo(ROWS);
            r.files = all.files;
            r.bytes = all.bytes;
            r.writers = all.writers;
            r.successFiles = all.successFiles;
            List<Partition> partitions = client.listPartitions(DB, table, (short) -1);
            if (!partitioned) {
                assertThat(partitions).as("partitions of " + table).isEmpty();
                return;
            }
            Map<String, Long> expected = Checksum.expectedPartitions();
            Map<String, Long> found = new TreeMap<>();
            for (Partition p : partitions) {
                Footers files = Footers.under(Paths.get(URI.create(p.getSd().getLocation())));
                found.put("dt=" + p.getValues().get(0), files.rows);
            }
            assertThat(found)
                    .as("the metastore's partitions of " + table + " and the rows in their locations")
                    .isEqualTo(expected);
            r.partitions = partitions.size();
        }
    }

    // ------------------------------------------------------------------ reading

    private CaseResult readCase(String name) throws Exception {
        CaseResult result = new CaseResult(name);
        log("== " + name + ": " + ROWS + " rows, parallelism " + PARALLELISM + ", " + WARMUP + " warm-up + " + RUNS
                + " measured runs per side");
        createTable(READ_TABLE, false);
        Run written;
        try (CatalogEnvironment up = new CatalogEnvironment("upstream")) {
            up.tEnv.createTemporaryView("generated", generated(up.env, false));
            long cpuStart = processCpuNanos();
            long wallStart = System.nanoTime();
            JobExecutionResult job = up.tEnv
                    .executeSql("INSERT INTO c." + DB + "." + READ_TABLE + " SELECT * FROM generated")
                    .getJobClient()
                    .orElseThrow()
                    .getJobExecutionResult()
                    .get();
            written = new Run(job, wallStart, cpuStart);
        }
        verifyWritten(written, READ_TABLE, false);
        log(String.format(Locale.ROOT, "   table to read: %s in %d files", mb(written.bytes), written.files));

        for (int i = 0; i < WARMUP + RUNS; i++) {
            String[] order = i % 2 == 0 ? new String[] {"sluice", "upstream"} : new String[] {"upstream", "sluice"};
            Map<String, Run> pair = new LinkedHashMap<>();
            for (String side : order) {
                int index = i;
                pair.put(side, verified(result, side, () -> read(side, index)));
            }
            if (i >= WARMUP) {
                result.sluice.add(pair.get("sluice"));
                result.upstream.add(pair.get("upstream"));
            }
        }
        for (Run r : result.sluice) {
            r.bytes = written.bytes;
            r.files = written.files;
            r.writers = written.writers;
        }
        for (Run r : result.upstream) {
            r.bytes = written.bytes;
            r.files = written.files;
            r.writers = written.writers;
        }
        logSummary(result);
        dropTable(READ_TABLE);
        return result;
    }

    private Run read(String side, int index) throws Exception {
        System.gc();
        try (CatalogEnvironment run = new CatalogEnvironment(side)) {
            long cpuStart = processCpuNanos();
            long wallStart = System.nanoTime();
            DataStream<RowData> rows = run.tEnv.toDataStream(
                    run.tEnv.sqlQuery("SELECT id, name, amount, ts FROM c." + DB + "." + READ_TABLE), READ_TYPE);
            count(rows);
            JobExecutionResult job = run.env.execute("read " + side + " #" + index);
            Run r = new Run(job, wallStart, cpuStart);
            Checksum.verify(job, "rows read by " + side);
            log(String.format(Locale.ROOT, "   %-9s %-9s #%d  %s", "read", side, index, r.describe()));
            return r;
        }
    }

    // ------------------------------------------------------------------ jobs and tables

    /**
     * A BATCH job's environments with one catalog, {@code c}: upstream's {@code HiveCatalog} or
     * Sluice's hive catalog, on the same metastore, so that both sides run the same SQL text.
     */
    private static final class CatalogEnvironment implements AutoCloseable {
        final StreamExecutionEnvironment env;
        final StreamTableEnvironment tEnv;

        CatalogEnvironment(String side) {
            env = environment();
            tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inBatchMode());
            tEnv.getConfig().set("table.exec.resource.default-parallelism", String.valueOf(PARALLELISM));
            // the configured parallelism for both sources: upstream's default infers it from the
            // splits (Sluice's too), and the two would then not read with the same number of tasks
            tEnv.getConfig().set("table.exec.hive.infer-source-parallelism.mode", "none");
            if (!MAPRED_WRITER.isBlank()) {
                tEnv.getConfig().set("table.exec.hive.fallback-mapred-writer", MAPRED_WRITER.trim());
            }
            if (side.equals("sluice")) {
                Interop.sluiceCatalog(tEnv, "c", METASTORE);
            } else {
                Interop.upstreamCatalog(tEnv, "c", METASTORE);
            }
        }

        @Override
        public void close() {
            tEnv.executeSql("DROP CATALOG IF EXISTS c");
        }
    }

    private static StreamExecutionEnvironment environment() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(PARALLELISM);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        return env;
    }

    private static DataStream<RowData> generated(StreamExecutionEnvironment env, boolean partitioned) {
        RowType type = partitioned ? PARTITIONED_ROW : ROW;
        return env.fromSource(
                new DataGeneratorSource<>(new Rows(partitioned), ROWS, InternalTypeInfo.of(type)),
                WatermarkStrategy.noWatermarks(),
                "rows");
    }

    /** Counts and checksums the rows into accumulators (chained, the same cost for both sides). */
    private static void count(DataStream<RowData> rows) {
        rows.process(new Checksum())
                .returns(Types.VOID)
                .name("checksum")
                .sinkTo(new DiscardingSink<>())
                .name("discard");
    }

    /**
     * An empty Parquet Hive table, made by upstream's catalog the same way for both sides (so the
     * metastore holds the same table whoever writes it), after dropping one of the same name that
     * a failed run may have left.
     */
    private static void createTable(String table, boolean partitioned) throws Exception {
        dropTable(table);
        try (CatalogEnvironment admin = new CatalogEnvironment("upstream")) {
            admin.tEnv.executeSql("CREATE TABLE c." + DB + "." + table + " (" + COLUMNS
                    + (partitioned ? ", dt STRING) PARTITIONED BY (dt)" : ")")
                    + " WITH ('connector' = 'hive', 'hive.storage.file-format' = 'parquet')");
        }
    }

    /** Drops the table (a managed one: the metastore deletes its directory) and what may be left of it. */
    private static void dropTable(String table) throws Exception {
        try (HiveMetaStoreClient client = Interop.client(METASTORE)) {
            if (client.tableExists(DB, table)) {
                client.dropTable(DB, table, true, true);
            }
        }
        deleteTree(METASTORE.warehouse().resolve(DB + ".db").resolve(table));
    }

    /**
     * The row counts, sizes and writers in the Parquet footers of the visible files below a
     * directory: what Hive's readers read, hidden files ({@code .} or {@code _} first, a staging
     * directory or a success file) left out.
     */
    static final class Footers {
        long rows;
        int files;
        long bytes;
        /** Success files ({@code _SUCCESS}, of the {@code success-file} commit policy). */
        int successFiles;
        /** The footer's {@code created_by} and its key-value metadata's keys, per distinct value. */
        final TreeSet<String> writers = new TreeSet<>();

        static Footers under(Path dir) throws IOException {
            Footers footers = new Footers();
            org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
            List<Path> files;
            try (Stream<Path> walk = Files.walk(dir)) {
                footers.successFiles =
                        (int) walk.filter(p -> p.getFileName().toString().equals("_SUCCESS"))
                                .count();
            }
            try (Stream<Path> walk = Files.walk(dir)) {
                files = walk.filter(Files::isRegularFile)
                        .filter(p -> visible(dir.relativize(p)))
                        .sorted()
                        .collect(Collectors.toList());
            }
            for (Path file : files) {
                try (ParquetFileReader reader = ParquetFileReader.open(
                        HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), conf))) {
                    footers.rows += reader.getRecordCount();
                    FileMetaData meta = reader.getFooter().getFileMetaData();
                    footers.writers.add(meta.getCreatedBy() + " "
                            + new TreeSet<>(meta.getKeyValueMetaData().keySet()));
                }
                footers.files++;
                footers.bytes += Files.size(file);
            }
            return footers;
        }

        private static boolean visible(Path relative) {
            for (Path part : relative) {
                String name = part.toString();
                if (name.startsWith(".") || name.startsWith("_")) {
                    return false;
                }
            }
            return true;
        }
    }

    // ------------------------------------------------------------------ rows

    /**
     * Row i: (i, 16 letters derived from a hash of i, an amount with cents, a timestamp 1001 µs per
     * row apart, so that the microseconds vary), as the other benchmarks' rows; partitioned, also
     * {@code dt}, one of {@link #PARTITION_VALUES} days picked by the hash, so that consecutive
     * rows go to different partitions.
     */
    static final class Rows implements GeneratorFunction<Long, RowData> {
        private static final long serialVersionUID = 1L;
        private static final long EPOCH_2025_MICROS = 1_735_689_600_000_000L;

        private final boolean partitioned;

        Rows(boolean partitioned) {
            this.partitioned = partitioned;
        }

        @Override
        public RowData map(Long i) {
            long h = BenchmarkRows.hash(i);
            long micros = EPOCH_2025_MICROS + i * 1001;
            TimestampData ts = TimestampData.fromEpochMillis(
                    Math.floorDiv(micros, 1000), (int) Math.floorMod(micros, 1000) * 1000);
            StringData name = StringData.fromString(BenchmarkRows.name(h));
            double amount = BenchmarkRows.amount(h);
            if (!partitioned) {
                return GenericRowData.of(i, name, amount, ts);
            }
            return GenericRowData.of(i, name, amount, ts, StringData.fromString(partition(h)));
        }

        static String partition(long hash) {
            return LocalDate.of(2025, 1, 1)
                    .plusDays(Math.floorMod(hash >>> 40, PARTITION_VALUES))
                    .toString();
        }
    }

    /**
     * Counts rows and sums a hash of every field of each into accumulators: the same sum for the
     * same rows in any order, so a read that lost, duplicated or garbled a row cannot match the
     * generated rows' sum.
     */
    static final class Checksum extends ProcessFunction<RowData, Void> {
        private static final long serialVersionUID = 1L;
        private static final String ROWS_SEEN = "rows";
        private static final String SUM = "checksum";
        /** Count and checksum of the generated rows, computed in this JVM once. */
        private static long[] expected;
        /** Rows per partition of the generated rows, by partition name ({@code dt=...}). */
        private static Map<String, Long> expectedPartitions;

        private transient LongCounter rows;
        private transient LongCounter sum;

        @Override
        public void open(org.apache.flink.api.common.functions.OpenContext context) {
            rows = new LongCounter();
            sum = new LongCounter();
            getRuntimeContext().addAccumulator(ROWS_SEEN, rows);
            getRuntimeContext().addAccumulator(SUM, sum);
        }

        @Override
        public void processElement(RowData row, Context context, Collector<Void> out) {
            rows.add(1L);
            sum.add(hash(row));
        }

        /** The first four fields: a partitioned row's {@code dt} is checked by the write's verification. */
        static long hash(RowData row) {
            TimestampData ts = row.getTimestamp(3, 9);
            long h = BenchmarkRows.hash(row.getLong(0));
            // the hash of the UTF-8 bytes: no decoding into a String, which would cost more than the rest
            h = BenchmarkRows.hash(h ^ row.getString(1).hashCode());
            h = BenchmarkRows.hash(h ^ Double.doubleToLongBits(row.getDouble(2)));
            return BenchmarkRows.hash(h ^ (ts.getMillisecond() * 1_000_000 + ts.getNanoOfMillisecond()));
        }

        static synchronized long[] expected() {
            if (expected == null) {
                Rows generator = new Rows(false);
                long s = 0;
                for (long i = 0; i < ROWS; i++) {
                    s += hash(generator.map(i));
                }
                expected = new long[] {ROWS, s};
            }
            return expected;
        }

        static synchronized Map<String, Long> expectedPartitions() {
            if (expectedPartitions == null) {
                Map<String, Long> counts = new TreeMap<>();
                for (long i = 0; i < ROWS; i++) {
                    counts.merge("dt=" + Rows.partition(BenchmarkRows.hash(i)), 1L, Long::sum);
                }
                expectedPartitions = counts;
            }
            return expectedPartitions;
        }

        static void verify(JobExecutionResult job, String what) {
            Long seen = job.getAccumulatorResult(ROWS_SEEN);
            Long s = job.getAccumulatorResult(SUM);
            assertThat(seen).as(what + ": count").isEqualTo(expected()[0]);
            assertThat(s).as(what + ": checksum of all fields").isEqualTo(expected()[1]);
        }
    }

    // ------------------------------------------------------------------ results

    static final class Run extends TimedRun {
        long bytes;
        int files;
        int partitions;
        int successFiles;
        TreeSet<String> writers = new TreeSet<>();

        /** The finished job, timed from {@code wallStart} and {@code cpuStart} (nanoseconds) to now. */
        Run(JobExecutionResult job, long wallStart, long cpuStart) {
            super(job, ROWS, wallStart, cpuStart);
        }

        String describe() {
            String out = files == 0
                    ? ""
                    : String.format(Locale.ROOT, "  %s in %d files", mb(bytes), files)
                            + (partitions == 0 ? "" : ", " + partitions + " partitions")
                            + ", " + successFiles + " success files";
            return timing() + out;
        }
    }

    static final class CaseResult extends SideBySide<Run> {
        CaseResult(String name) {
            super(name);
        }

        String data() {
            Run s = sluice.get(0);
            Run u = upstream.get(0);
            if (name.startsWith("read")) {
                return String.format(Locale.ROOT, "%s in %d files (written by upstream)", mb(s.bytes), s.files);
            }
            return String.format(Locale.ROOT, "%s / %s in %d / %d files", mb(s.bytes), mb(u.bytes), s.files, u.files)
                    + (s.partitions == 0 ? "" : String.format(", %d / %d partitions", s.partitions, u.partitions))
                    + String.format(", %d / %d success files", s.successFiles, u.successFiles);
        }

        /** The Parquet writers the footers name: the same for both sides, or each side's. */
        String writers() {
            String s = String.join("; ", sluice.get(0).writers);
            String u = String.join("; ", upstream.get(0).writers);
            return name.startsWith("read") || s.equals(u) ? s : s + " / " + u;
        }
    }

    private static void logSummary(CaseResult r) {
        log(String.format(
                Locale.ROOT,
                "   %s: Sluice %s rows/s, upstream %s rows/s, ratio %.2f, CPU ratio %.2f; files by %s",
                r.name,
                rate(SideBySide.medianRate(r.sluice)),
                rate(SideBySide.medianRate(r.upstream)),
                r.ratio(),
                r.cpuRatio(),
                r.writers()));
    }

    private static String report(List<CaseResult> results, String loadAtStart, String loadAtEnd) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(
                Locale.ROOT,
                "%s, %d cores (%s), %s %s, Java %s, max heap %s; flink-connector-hive 3.0.0-1.20, hive-exec 3.1.3; "
                        + "%,d rows (id BIGINT, name STRING(16), amount DOUBLE, ts TIMESTAMP(9)%s), parallelism %d, "
                        + "BATCH, MiniCluster, standalone metastore; %d warm-up + %d measured runs per side, "
                        + "alternating; median of the job's net run time.\n\n",
                LocalDate.now(),
                Runtime.getRuntime().availableProcessors(),
                cpuModel(),
                System.getProperty("os.name"),
                System.getProperty("os.arch"),
                System.getProperty("java.version"),
                mb(Runtime.getRuntime().maxMemory()),
                ROWS,
                CASES.stream().anyMatch(c -> c.trim().equals("write-batch-partitioned"))
                        ? "; partitioned: dt STRING, " + PARTITION_VALUES + " values"
                        : "",
                PARALLELISM,
                WARMUP,
                RUNS));
        s.append("| case | Sluice rows/s | upstream rows/s | **ratio** | CPU s/run Sluice / upstream | CPU ratio "
                + "| Sluice runs (s) | upstream runs (s) | data Sluice / upstream | generator alone rows/s "
                + "| upstream runs rejected |\n");
        s.append("|---|---:|---:|---:|---:|---:|---|---|---|---:|---:|\n");
        for (CaseResult r : results) {
            s.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | **%.2f** | %.2f / %.2f | %.2f | %s | %s | %s | %s | %d |\n",
                    r.name,
                    rate(SideBySide.medianRate(r.sluice)),
                    rate(SideBySide.medianRate(r.upstream)),
                    r.ratio(),
                    SideBySide.medianCpuSeconds(r.sluice),
                    SideBySide.medianCpuSeconds(r.upstream),
                    r.cpuRatio(),
                    TimedRun.seconds(r.sluice),
                    TimedRun.seconds(r.upstream),
                    r.data(),
                    r.baseline.isEmpty() ? "-" : rate(SideBySide.medianRate(r.baseline)),
                    r.rejected.size()));
        }
        s.append("\nratio: median throughput (rows / the job's net run time) of Sluice over upstream's, > 1: Sluice "
                + "is faster. CPU ratio: upstream's median CPU time of the whole JVM per run over Sluice's (> 1: "
                + "Sluice needs less), steadier than throughput when other processes compete for the cores (load "
                + "average at start / end: " + loadAtStart + " / " + loadAtEnd + "). upstream: HiveCatalog "
                + "('type' = 'hive'); Sluice: its catalog with 'target' = 'hive' and the hive plugin; the same SQL, "
                + "tables created by upstream's catalog, "
                + (MAPRED_WRITER.isBlank()
                        ? "both writers and readers under their defaults (table.exec.hive.fallback-mapred-writer = "
                                + "true, fallback-mapred-reader = false)"
                        : "table.exec.hive.fallback-mapred-writer = " + MAPRED_WRITER.trim() + " for both, readers "
                                + "under their defaults (fallback-mapred-reader = false)")
                + "; sources at the "
                + "configured parallelism (table.exec.hive.infer-source-parallelism.mode = none). Both sides' "
                + "partitioned INSERTs run their BATCH default of sink.partition-commit.policy.kind, '"
                + UPSTREAM_POLICIES + "'. Upstream's BATCH sink writes with Hive's mapred "
                + "writer whatever table.exec.hive.fallback-mapred-writer says. Every run was verified "
                + "(writes: rows in the Parquet footers = " + String.format(Locale.ROOT, "%,d", ROWS)
                + ", and the metastore's partitions with their rows; reads and the generator: count and checksum "
                + "of every field of every row); an upstream run that failed verification was excluded and "
                + "repeated, a Sluice run that failed would have failed the benchmark.\n\nParquet files written by "
                + "(footer's created_by and key-value metadata keys):\n");
        for (CaseResult r : results) {
            s.append("\n- ").append(r.name).append(": ").append(r.writers());
        }
        s.append('\n');
        for (CaseResult r : results) {
            for (String why : r.rejected) {
                s.append("\n- ")
                        .append(r.name)
                        .append(", upstream run rejected: ")
                        .append(why);
            }
        }
        return s.toString();
    }

    private static void log(String line) {
        System.out.println(line);
    }
}
