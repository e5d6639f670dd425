package io.sluice.bench;

import io.sluice.bench.BenchHarness.Run;
import io.sluice.it.CommittedFiles;
import io.sluice.it.TestDistribution;
import io.sluice.runtime.sink.BucketAssigners;
import io.sluice.runtime.sink.SluiceSink;
import io.sluice.testshared.BenchmarkRows;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import static io.sluice.bench.BenchHarness.ROW;
import static io.sluice.bench.BenchHarness.ROWS;
import static io.sluice.bench.BenchHarness.RUNS;
import static io.sluice.bench.BenchHarness.WARMUP;
import static io.sluice.bench.BenchHarness.cases;
import static io.sluice.bench.BenchHarness.execute;
import static io.sluice.bench.BenchHarness.log;
import static io.sluice.bench.BenchHarness.machine;
import static io.sluice.bench.BenchHarness.writeReport;
import static io.sluice.testshared.BenchmarkMachine.deleteTree;
import static io.sluice.testshared.BenchmarkMachine.loadAverage;
import static io.sluice.testshared.BenchmarkMachine.mb;
import static io.sluice.testshared.BenchmarkMachine.rate;
import static io.sluice.testshared.SideBySide.alternating;
import static io.sluice.testshared.SideBySide.medianCpuSeconds;
import static io.sluice.testshared.SideBySide.medianRate;
import static io.sluice.testshared.TimedRun.seconds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Throughput of Sluice's file source (the {@code filesystem} target's reads) next to Flink's own
 * {@link FileSource}: the same files, read whole in BATCH mode at parallelism 2 into the same
 * counting sink, on the same MiniCluster in the same JVM, runs alternating between the two sides,
 * reported as a ratio. Not a test: it only runs in the {@code benchmarks} Maven profile
 * ({@code mvn -B verify -pl distribution -Pbenchmarks -Dit.test=FileSourceBenchmark}).
 *
 * <p>Both sides are Flink SQL tables of the same columns, read with {@code SELECT *} and handed to
 * the DataStream API as {@code RowData}: Sluice's {@code 'connector' = 'sluice'} with {@code
 * 'target' = 'filesystem'}, and Flink's {@code 'connector' = 'filesystem'}, the table source that
 * builds a {@code FileSource.forBulkFileFormat} over Flink's own format factories on the
 * application class path. SQL rather than the DataStream API on purpose: Flink's csv and avro
 * readers of {@code RowData} (the ones Flink SQL reads with) are not public outside their format
 * factories, and through SQL both sides read with what a user of either connector gets, with the
 * same options: {@code 'format'} and, for Parquet, {@code 'parquet.utc-timezone' = 'true'} (as the
 * files were written). So, per format: csv, Sluice's own delimited-row reader against Flink's
 * {@code CsvReaderFormat}; parquet, the formats plugin's {@code ParquetColumnarRowInputFormat}
 * against Flink SQL's; orc, {@code OrcColumnarRowInputFormat} both; avro, Sluice's Avro reader
 * against Flink's {@code AvroFileFormatFactory} bulk format.
 *
 * <p>The input of a case is written once, before its runs, by Sluice's sink with its defaults
 * (SNAPPY Parquet, ZLIB ORC, snappy Avro, rolling at 128 MB) at parallelism {@code
 * sluice.bench.files} (8), each writer a contiguous range of ids: that many files, so both readers
 * have splits to share. Every run is verified before it counts: the job counts its
 * rows and sums a hash of every field of every row (the same sum for the same rows in any order)
 * into accumulators, which must equal the generated rows' count and sum. A run of either side that
 * lost, duplicated or garbled a row fails the benchmark: a bounded read has no known reason to, so
 * a mismatch is a format or harness difference to look at, not a number.
 *
 * <p>Timing is the job's net run time on the cluster ({@link JobExecutionResult#getNetRuntime()}):
 * planning and job submission on the client are left out; enumerating the files, reading and
 * decoding them, and the checksum are in.
 */
class FileSourceBenchmark {

    private static final int PARALLELISM = 2;
    private static final int FILES = Integer.getInteger("sluice.bench.files", 8);
    private static final List<String> CASES = cases("read-csv,read-parquet,read-orc,read-avro");
    private static final String SLUICE = "sluice";
    private static final String FILE_SOURCE = "filesource";

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(PARALLELISM)
                    .build());

    private final Path inRoot = Paths.get("target", "bench-in").toAbsolutePath();

    @Test
    void sluiceNextToFileSource() throws Exception {
        deleteTree(inRoot);
        String loadAtStart = loadAverage();
        RowChecksum.expected(); // once, before anything is timed
        List<CaseResult> results = new ArrayList<>();
        for (String c : CASES) {
            if (!c.startsWith("read-")) {
                throw new IllegalArgumentException("Unknown case '" + c + "': the cases are read-<format>");
            }
            results.add(runCase(c, c.substring("read-".length())));
        }
        writeReport(report(results, loadAtStart, loadAverage()), "file-source-results.md");
        deleteTree(inRoot);
    }

    // ------------------------------------------------------------------ one case

    private CaseResult runCase(String name, String format) throws Exception {
        Path in = inRoot.resolve(format);
        CaseResult result = new CaseResult(name, format);
        writeInput(result, in);
        log("== " + name + ": " + ROWS + " rows in " + result.inputFiles + " files (" + mb(result.inputBytes)
                + "), parallelism " + PARALLELISM + ", " + WARMUP + " warm-up + " + RUNS + " measured runs per side");
        for (int i = 0; i < WARMUP + RUNS; i++) {
            Map<String, Run> pair = new LinkedHashMap<>();
            for (String side : alternating(i, SLUICE, FILE_SOURCE)) {
                pair.put(side, read(side, format, in, i));
            }
            if (i >= WARMUP) {
                result.sluice.add(pair.get(SLUICE));
                result.fileSource.add(pair.get(FILE_SOURCE));
            }
        }
        log(String.format(
                Locale.ROOT,
                "   %s: Sluice %s rows/s, FileSource %s rows/s, ratio %.2f",
                name,
                rate(medianRate(result.sluice)),
                rate(medianRate(result.fileSource)),
                result.ratio()));
        deleteTree(in);
        return result;
    }

    /** The generated rows as {@link #FILES} files of {@code format} in {@code in}, by Sluice's sink. */
    private static void writeInput(CaseResult result, Path in) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(PARALLELISM);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        // one file per writer subtask, each a contiguous range of ids: the generator's splits go to
        // whichever readers ask first (in BATCH only a slot's worth of subtasks runs at a time), so
        // the rows are routed to the writers explicitly
        env.fromSource(
                        new DataGeneratorSource<>(new BenchHarness.Rows(), ROWS, InternalTypeInfo.of(ROW)),
                        WatermarkStrategy.noWatermarks(),
                        "rows")
                .partitionCustom(new IdRanges(ROWS), new Id())
                .sinkTo(SluiceSink.forRowData(ROW)
                        .withTarget("filesystem")
                        .withPluginsDir(TestDistribution.pluginsDir())
                        .withPath(in.toString())
                        .withFormat(result.format)
                        .withBucketAssigner(BucketAssigners.basePath())
                        .withOptions(formatOptions(result.format))
                        .build())
                .setParallelism(FILES)
                .name("input");
        Run written = execute(env, "write the " + result.format + " input");
        assertThat(CommittedFiles.inProgress(in))
                .as("in-progress files left in " + in)
                .isEmpty();
        List<Path> files = CommittedFiles.visible(in);
        assertThat(files).as("input files in " + in).isNotEmpty();
        result.inputFiles = files.size();
        for (Path f : files) {
            result.inputBytes += Files.size(f);
        }
        log(String.format(
                Locale.ROOT,
                "   input: %s in %d files, written in %.2f s",
                mb(result.inputBytes),
                result.inputFiles,
                written.netMs / 1000.0));
    }

    /** The id of a generated row. */
    static final class Id implements KeySelector<RowData, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long getKey(RowData row) {
            return row.getLong(0);
        }
    }

    /** Ids 0 to {@code rows - 1} in as many contiguous ranges as there are writers. */
    static final class IdRanges implements Partitioner<Long> {
        private static final long serialVersionUID = 1L;
        private final long rows;

        IdRanges(long rows) {
            this.rows = rows;
        }

        @Override
        public int partition(Long id, int writers) {
            return (int) (id * writers / rows);
        }
    }

    /**
     * Options of both the writer and the two readers: Parquet's INT96 timestamps in UTC (Flink's
     * default, which Sluice keeps, is the JVM's zone: explicit, so that no side depends on it).
     */
    private static Map<String, String> formatOptions(String format) {
        return format.equals("parquet") ? Map.of("parquet.utc-timezone", "true") : Map.of();
    }

    private Run read(String side, String format, Path in, int index) throws Exception {
        System.gc();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(PARALLELISM);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inBatchMode());
        tEnv.executeSql(createTable(side, format, in));
        DataStream<RowData> rows = tEnv.toDataStream(
                tEnv.sqlQuery("SELECT * FROM input"),
                TypeConversions.fromLogicalToDataType(ROW).bridgedTo(RowData.class));
        // chained to the source, the same cost for both sides
        rows.process(new RowChecksum())
                .returns(Types.VOID)
                .name("checksum")
                .sinkTo(new DiscardingSink<>())
                .name("discard");

        Run r = execute(env, "read " + format + " " + side + " #" + index);
        RowChecksum.verify(r.job, side + " reading " + format + " #" + index);
        log(String.format(
                Locale.ROOT,
                "   %-8s %-10s #%d  %6.2f s (wall %6.2f s, cpu %6.2f s)  %s rows/s",
                format,
                side,
                index,
                r.netMs / 1000.0,
                r.wallMs / 1000.0,
                r.cpuMs / 1000.0,
                rate(r.rowsPerSecond())));
        return r;
    }

    /** The table {@code input} over the directory {@code in}: the same columns and format options for both sides. */
    private static String createTable(String side, String format, Path in) {
        String columns = ROW.getFields().stream()
                .map(f -> "`" + f.getName() + "` " + f.getType().asSerializableString())
                .collect(Collectors.joining(", "));
        StringBuilder with = new StringBuilder();
        if (side.equals(SLUICE)) {
            with.append("'connector' = 'sluice', 'target' = 'filesystem', 'sluice.plugins.dir' = '")
                    .append(TestDistribution.pluginsDir())
                    .append("'");
        } else {
            with.append("'connector' = 'filesystem'");
        }
        with.append(", 'path' = '")
                .append(in.toUri())
                .append("', 'format' = '")
                .append(format)
                .append("'");
        formatOptions(format)
                .forEach((k, v) ->
                        with.append(", '").append(k).append("' = '").append(v).append("'"));
        return "CREATE TEMPORARY TABLE input (" + columns + ") WITH (" + with + ")";
    }

    // ------------------------------------------------------------------ verification

    /**
     * Counts rows and sums a hash of every field of each into accumulators: the same sum for the
     * same rows in any order, so a read that lost, duplicated or garbled a row cannot match the
     * generated rows' sum.
     */
    static final class RowChecksum extends ProcessFunction<RowData, Void> {
        private static final long serialVersionUID = 1L;
        private static final String ROWS_SEEN = "rows";
        private static final String SUM = "checksum";
        /** What a null field contributes: a null where the input has a value changes the sum. */
        private static final long NULL = 0x9e3779b97f4a7c15L;
        /** Count and checksum of the generated rows, computed in this JVM once. */
        private static long[] expected;

        private transient LongCounter rows;
        private transient LongCounter sum;

        @Override
        public void open(OpenContext context) {
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

        static long hash(RowData row) {
            long h = row.isNullAt(0) ? NULL : BenchmarkRows.hash(row.getLong(0));
            // the string's hash is over its UTF-8 bytes: no decoding into a String, which would cost more than the rest
            h = BenchmarkRows.hash(
                    h ^ (row.isNullAt(1) ? NULL : row.getString(1).hashCode()));
            h = BenchmarkRows.hash(h ^ (row.isNullAt(2) ? NULL : Double.doubleToLongBits(row.getDouble(2))));
            if (row.isNullAt(3)) {
                return BenchmarkRows.hash(h ^ NULL);
            }
            TimestampData ts = row.getTimestamp(3, 3); // TIMESTAMP(3)
            return BenchmarkRows.hash(h ^ (ts.getMillisecond() * 1_000_000 + ts.getNanoOfMillisecond()));
        }

        static synchronized long[] expected() {
            if (expected == null) {
                BenchHarness.Rows generator = new BenchHarness.Rows();
                long s = 0;
                for (long i = 0; i < ROWS; i++) {
                    s += hash(generator.map(i));
                }
                expected = new long[] {ROWS, s};
            }
            return expected;
        }

        static void verify(JobExecutionResult job, String what) {
            Long seen = job.getAccumulatorResult(ROWS_SEEN);
            Long s = job.getAccumulatorResult(SUM);
            assertThat(seen).as(what + ": rows").isEqualTo(expected()[0]);
            assertThat(s).as(what + ": checksum of every field").isEqualTo(expected()[1]);
        }
    }

    // ------------------------------------------------------------------ results

    static final class CaseResult {
        final String name;
        final String format;
        long inputBytes;
        int inputFiles;
        final List<Run> sluice = new ArrayList<>();
        final List<Run> fileSource = new ArrayList<>();

        CaseResult(String name, String format) {
            this.name = name;
            this.format = format;
        }

        double ratio() {
            return io.sluice.testshared.SideBySide.ratio(sluice, fileSource);
        }

        double cpuRatio() {
            return io.sluice.testshared.SideBySide.cpuRatio(sluice, fileSource);
        }
    }

    private static String report(List<CaseResult> results, String loadAtStart, String loadAtEnd) {
        StringBuilder s = new StringBuilder();
        s.append("## FileSourceBenchmark: Sluice vs Flink FileSource\n\n");
        s.append(String.format(
                Locale.ROOT,
                "%s; %,d rows (id BIGINT, name STRING(16), amount DOUBLE, ts TIMESTAMP(3)) in %d files, "
                        + "read whole, BATCH, parallelism %d, MiniCluster; %d warm-up + %d measured runs per side, "
                        + "alternating; median of the job's net run time.\n\n",
                machine(),
                ROWS,
                FILES,
                PARALLELISM,
                WARMUP,
                RUNS));
        s.append("| case | Sluice rows/s | FileSource rows/s | **ratio** | CPU s/run Sluice / FileSource | CPU ratio "
                + "| Sluice runs (s) | FileSource runs (s) | input |\n");
        s.append("|---|---:|---:|---:|---:|---:|---|---|---|\n");
        for (CaseResult r : results) {
            s.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | **%.2f** | %.2f / %.2f | %.2f | %s | %s | %s in %d files |\n",
                    r.name,
                    rate(medianRate(r.sluice)),
                    rate(medianRate(r.fileSource)),
                    r.ratio(),
                    medianCpuSeconds(r.sluice),
                    medianCpuSeconds(r.fileSource),
                    r.cpuRatio(),
                    seconds(r.sluice),
                    seconds(r.fileSource),
                    mb(r.inputBytes),
                    r.inputFiles));
        }
        s.append("\nratio: median throughput (rows / the job's net run time) of Sluice over FileSource's, "
                + "> 1: Sluice is faster. CPU ratio: FileSource's median CPU time of the whole JVM per run over "
                + "Sluice's (> 1: Sluice needs less), steadier than throughput when other processes compete for "
                + "the cores (load average at start / end: " + loadAtStart + " / " + loadAtEnd + "). "
                + "Both sides are SQL tables read with SELECT * into the same chained checksum: Sluice's "
                + "'connector' = 'sluice', 'target' = 'filesystem' against Flink's 'connector' = 'filesystem' "
                + "(FileSource over Flink's format factories), the same 'format' (parquet: UTC timestamps both). "
                + "The input was written once per case by Sluice's sink. Every run was verified ("
                + String.format(Locale.ROOT, "%,d", ROWS) + " rows, checksum of every field of every row).\n");
        return s.toString();
    }
}
