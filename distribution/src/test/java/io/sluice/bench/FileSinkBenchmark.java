package io.sluice.bench;

import io.sluice.bench.BenchHarness.Run;
import io.sluice.it.CommittedFiles;
import io.sluice.it.TestDistribution;
import io.sluice.runtime.sink.BucketAssigners;
import io.sluice.runtime.sink.SluiceSink;

import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.fs.Path;
import org.apache.flink.formats.avro.AvroWriterFactory;
import org.apache.flink.formats.avro.RowDataToAvroConverters;
import org.apache.flink.formats.avro.typeutils.AvroSchemaConverter;
import org.apache.flink.formats.csv.CsvRowDataSerializationSchema;
import org.apache.flink.formats.parquet.row.ParquetRowDataBuilder;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.orc.OrcSplitReaderUtil;
import org.apache.flink.orc.vector.RowDataVectorizer;
import org.apache.flink.orc.writer.OrcBulkWriterFactory;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.DefaultRollingPolicy;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.UserCodeClassLoader;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

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
import static io.sluice.testshared.SideBySide.median;
import static io.sluice.testshared.SideBySide.medianCpuSeconds;
import static io.sluice.testshared.SideBySide.medianRate;
import static io.sluice.testshared.TimedRun.seconds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Throughput of Sluice's {@code filesystem} target next to Flink's own {@link FileSink}: the same
 * generated rows, the same serialization, the same job shape (parallelism 2, source chained to the
 * writer), on the same MiniCluster in the same JVM, runs alternating between the two sinks, reported
 * as a ratio. Not a test: it only runs in the {@code benchmarks} Maven profile
 * ({@code mvn -B verify -pl distribution -Pbenchmarks}).
 *
 * <p>What is compared, per case:
 *
 * <ul>
 *   <li>csv: Sluice's {@code csv} format against {@code FileSink.forRowFormat} with an encoder that
 *       writes Flink's {@link CsvRowDataSerializationSchema} (default settings, as Sluice's) plus
 *       {@code \n}: the files hold the same bytes, which the benchmark checks;
 *   <li>parquet: Sluice's {@code parquet} format against {@code FileSink.forBulkFormat} with
 *       {@link ParquetRowDataBuilder#createWriterFactory}, both with SNAPPY (Sluice's default, set
 *       explicitly upstream, whose Hadoop default is uncompressed) and UTC timestamps;
 *   <li>orc: Sluice's {@code orc} format against {@code FileSink.forBulkFormat} with Flink's
 *       {@link OrcBulkWriterFactory} and {@link RowDataVectorizer}, ORC's default ZLIB both;
 *   <li>avro: Sluice's {@code avro} format against {@code FileSink.forBulkFormat} with Flink's
 *       {@link AvroWriterFactory} over {@link RowDataToAvroConverters}, snappy both;
 *   <li>both sinks write everything into the base path (no date-time buckets) and roll at 128 MB or
 *       30 min (bulk: at every checkpoint), i.e. never inside one run.
 * </ul>
 *
 * <p>Every run is verified: the committed files hold N rows (csv: lines, and the same
 * order-independent checksum for both sinks; parquet and orc: row counts in the footers; avro: row
 * counts of the blocks), no in-progress file is left. A run of a sink that lost or duplicated rows fails the benchmark rather than
 * producing a number.
 *
 * <p>Timing is the job's net run time on the cluster ({@link JobExecutionResult#getNetRuntime()}):
 * job submission and graph building on the client are left out; scheduling, the source, writing
 * and committing are in. A source-only job (into a {@link DiscardingSink}) measures what the
 * generator itself costs.
 */
class FileSinkBenchmark {

    private static final int PARALLELISM = 2;
    /** Not a sink: the plain loops of {@link ParquetEncoderLimit}, for the parquet cases' limit. */
    private static final String LIMIT_CASE = "limit-parquet";

    private static final List<String> CASES = cases(
            "batch-csv,streaming-csv,batch-parquet,streaming-parquet,batch-orc,streaming-orc,batch-avro," + LIMIT_CASE);
    private static final long CHECKPOINT_INTERVAL_MS = 1000;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(PARALLELISM)
                    .build());

    private final java.nio.file.Path outRoot = Paths.get("target", "bench-out").toAbsolutePath();

    @Test
    void sluiceNextToFileSink() throws Exception {
        deleteTree(outRoot);
        String loadAtStart = loadAverage();
        List<CaseResult> results = new ArrayList<>();
        Map<String, List<long[]>> limits = new LinkedHashMap<>();
        for (String c : CASES) {
            if (c.equals(LIMIT_CASE)) {
                limits = runLimits();
                continue;
            }
            String[] parts = c.split("-");
            RuntimeExecutionMode mode = RuntimeExecutionMode.valueOf(parts[0].toUpperCase(Locale.ROOT));
            String format = parts[1];
            results.add(runCase(c, mode, format));
        }
        writeReport(report(results, loadAtStart, loadAverage()) + limitReport(limits, results), null);
        deleteTree(outRoot);
    }

    // ------------------------------------------------------------------ one case

    private CaseResult runCase(String name, RuntimeExecutionMode mode, String format) throws Exception {
        CaseResult result = new CaseResult(name, mode, format);
        log("== " + name + ": " + ROWS + " rows, parallelism " + PARALLELISM + ", " + WARMUP + " warm-up + " + RUNS
                + " measured runs per sink");
        // source alone: what generating the rows costs, for reading the numbers (not in the ratio)
        for (int i = 0; i < WARMUP + RUNS; i++) {
            Run r = run(mode, "source-only", format, i);
            if (i >= WARMUP) {
                result.sourceOnly.add(r);
            }
        }
        for (int i = 0; i < WARMUP + RUNS; i++) {
            Map<String, Run> pair = new LinkedHashMap<>();
            for (String sink : alternating(i, "sluice", "filesink")) {
                pair.put(sink, run(mode, sink, format, i));
            }
            if (format.equals("csv")) {
                // same serialization: the same bytes, whatever the file boundaries
                assertThat(pair.get("sluice").bytes)
                        .as("csv bytes, Sluice vs FileSink")
                        .isEqualTo(pair.get("filesink").bytes);
                assertThat(pair.get("sluice").checksum)
                        .as("csv content, Sluice vs FileSink")
                        .isEqualTo(pair.get("filesink").checksum);
            }
            if (i >= WARMUP) {
                result.sluice.add(pair.get("sluice"));
                result.fileSink.add(pair.get("filesink"));
            }
        }
        log(String.format(
                Locale.ROOT,
                "   %s: Sluice %s rows/s, FileSink %s rows/s, ratio %.2f",
                name,
                rate(medianRate(result.sluice)),
                rate(medianRate(result.fileSink)),
                result.ratio()));
        return result;
    }

    private Run run(RuntimeExecutionMode mode, String sink, String format, int index) throws Exception {
        java.nio.file.Path out =
                outRoot.resolve(mode.name().toLowerCase(Locale.ROOT) + "-" + format + "-" + sink + "-" + index);
        deleteTree(out);
        System.gc();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(PARALLELISM);
        env.setRuntimeMode(mode);
        if (mode == RuntimeExecutionMode.STREAMING) {
            env.enableCheckpointing(CHECKPOINT_INTERVAL_MS);
        }
        DataGeneratorSource<RowData> source =
                new DataGeneratorSource<>(new BenchHarness.Rows(), ROWS, InternalTypeInfo.of(ROW));
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "rows")
                .sinkTo(sink(sink, format, out))
                .name(sink);

        Run r = execute(env, "bench " + mode + " " + format + " " + sink + " #" + index);
        if (!sink.equals("source-only")) {
            verify(r, format, out);
        }
        log(String.format(
                Locale.ROOT,
                "   %-9s %-8s %-11s #%d  %6.2f s (wall %6.2f s, cpu %6.2f s)  %s rows/s  %s in %d files",
                mode,
                format,
                sink,
                index,
                r.netMs / 1000.0,
                r.wallMs / 1000.0,
                r.cpuMs / 1000.0,
                rate(r.rowsPerSecond()),
                mb(r.bytes),
                r.files));
        deleteTree(out);
        return r;
    }

    private Sink<RowData> sink(String sink, String format, java.nio.file.Path out) {
        switch (sink) {
            case "source-only":
                return new DiscardingSink<>();
            case "sluice":
                return SluiceSink.forRowData(ROW)
                        .withTarget("filesystem")
                        .withPluginsDir(TestDistribution.pluginsDir())
                        .withPath(out.toString())
                        .withFormat(format)
                        .withBucketAssigner(BucketAssigners.basePath())
                        // the default policy (128 MB, 30 min) spelled out: the same as upstream's below
                        .withOption("sink.rolling-policy.file-size", "128mb")
                        .withOption("sink.rolling-policy.rollover-interval", "30 min")
                        .withOption("sink.rolling-policy.inactivity-interval", "30 min")
                        .withOptions(
                                format.equals("parquet")
                                        ? Map.of("parquet.compression", "SNAPPY", "parquet.utc-timezone", "true")
                                        : Map.of())
                        .build();
            case "filesink":
                Path path = new Path(out.toUri());
                if (format.equals("csv")) {
                    return FileSink.forRowFormat(path, (Encoder<RowData>) new CsvLineEncoder(ROW))
                            .withBucketAssigner(new BasePathBucketAssigner<>())
                            .withRollingPolicy(DefaultRollingPolicy.builder()
                                    .withMaxPartSize(MemorySize.ofMebiBytes(128))
                                    .withRolloverInterval(Duration.ofMinutes(30))
                                    .withInactivityInterval(Duration.ofMinutes(30))
                                    .build())
                            .build();
                }
                if (format.equals("orc")) {
                    // Flink's ORC writer as Flink SQL's orc format builds it, ORC's default ZLIB
                    LogicalType[] types = ROW.getChildren().toArray(new LogicalType[0]);
                    return FileSink.forBulkFormat(
                                    path,
                                    new OrcBulkWriterFactory<>(
                                            new RowDataVectorizer(
                                                    OrcSplitReaderUtil.logicalTypeToOrcType(ROW)
                                                            .toString(),
                                                    types),
                                            new Properties(),
                                            new org.apache.hadoop.conf.Configuration()))
                            .withBucketAssigner(new BasePathBucketAssigner<>())
                            .build();
                }
                if (format.equals("avro")) {
                    return FileSink.forBulkFormat(path, new AvroRowWriterFactory(ROW))
                            .withBucketAssigner(new BasePathBucketAssigner<>())
                            .build();
                }
                org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
                // Sluice's parquet default (Flink SQL's too); parquet-hadoop's own is UNCOMPRESSED
                conf.set("parquet.compression", "SNAPPY");
                return FileSink.forBulkFormat(path, ParquetRowDataBuilder.createWriterFactory(ROW, conf, true))
                        .withBucketAssigner(new BasePathBucketAssigner<>())
                        .build();
            default:
                throw new IllegalArgumentException(sink);
        }
    }

    // ------------------------------------------------------------------ limits

    private Map<String, List<long[]>> runLimits() throws Exception {
        Map<String, List<long[]>> limits = new LinkedHashMap<>();
        ParquetEncoderLimit limit = new ParquetEncoderLimit(ROW, ROWS, PARALLELISM);
        java.nio.file.Path dir = outRoot.resolve("limit");
        log("== " + LIMIT_CASE + ": " + ROWS + " rows, " + PARALLELISM + " threads, " + WARMUP + " warm-up + " + RUNS
                + " measured runs per loop");
        for (String loop : List.of(
                ParquetEncoderLimit.GENERATOR, ParquetEncoderLimit.ROWDATA_WRITER, ParquetEncoderLimit.PRIMITIVES)) {
            List<long[]> runs = new ArrayList<>();
            for (int i = 0; i < WARMUP + RUNS; i++) {
                deleteTree(dir);
                Files.createDirectories(dir);
                System.gc();
                long[] r = limit.run(loop, dir);
                log(String.format(
                        Locale.ROOT,
                        "   %-36s #%d  %6.2f s (cpu %6.2f s)  %s rows/s",
                        loop,
                        i,
                        r[0] / 1e9,
                        r[1] / 1e9,
                        rate(ROWS * 1e9 / r[0])));
                if (i >= WARMUP) {
                    runs.add(r);
                }
            }
            limits.put(loop, runs);
        }
        deleteTree(dir);
        return limits;
    }

    private static double medianLoopRate(List<long[]> runs) {
        return median(runs.stream().mapToDouble(r -> ROWS * 1e9 / r[0]).toArray());
    }

    private static double medianLoopCpu(List<long[]> runs) {
        return median(runs.stream().mapToDouble(r -> r[1] / 1e9).toArray());
    }

    private static String limitReport(Map<String, List<long[]>> limits, List<CaseResult> results) {
        if (limits.isEmpty()) {
            return "";
        }
        StringBuilder s = new StringBuilder();
        s.append("\n### The limit: the same rows without Flink (")
                .append(PARALLELISM)
                .append(" threads, plain loops)\n\n");
        List<CaseResult> parquet = new ArrayList<>();
        for (CaseResult r : results) {
            if (r.format.equals("parquet")) {
                parquet.add(r);
            }
        }
        s.append("| loop | rows/s | CPU s/run |");
        for (CaseResult r : parquet) {
            s.append(" Sluice ")
                    .append(r.name)
                    .append(" / loop | FileSink ")
                    .append(r.name)
                    .append(" / loop |");
        }
        s.append("\n|---|---:|---:|");
        s.append("---:|---:|".repeat(parquet.size()));
        s.append("\n");
        for (Map.Entry<String, List<long[]>> e : limits.entrySet()) {
            double loopRate = medianLoopRate(e.getValue());
            s.append(String.format(
                    Locale.ROOT, "| %s | %s | %.2f |", e.getKey(), rate(loopRate), medianLoopCpu(e.getValue())));
            for (CaseResult r : parquet) {
                s.append(String.format(
                        Locale.ROOT,
                        " %.2f | %.2f |",
                        medianRate(r.sluice) / loopRate,
                        medianRate(r.fileSink) / loopRate));
            }
            s.append("\n");
        }
        s.append("\nA job's rows/s over a loop's: how close the job comes to generating and encoding the rows "
                + "with nothing else around (1.0 = the loop's speed). Each loop's files are verified "
                + "(row counts in the footers).\n");
        return s.toString();
    }

    // ------------------------------------------------------------------ verification

    private static void verify(Run r, String format, java.nio.file.Path out) throws IOException {
        assertThat(CommittedFiles.inProgress(out))
                .as("in-progress files left in " + out)
                .isEmpty();
        List<java.nio.file.Path> files = CommittedFiles.visible(out);
        assertThat(files).as("committed files in " + out).isNotEmpty();
        r.files = files.size();
        for (java.nio.file.Path f : files) {
            r.bytes += Files.size(f);
        }
        long rows = 0;
        if (format.equals("csv")) {
            for (java.nio.file.Path f : files) {
                long[] linesAndSum = lines(f);
                rows += linesAndSum[0];
                r.checksum += linesAndSum[1];
            }
        } else if (format.equals("orc")) {
            org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
            for (java.nio.file.Path f : files) {
                try (Reader reader =
                        OrcFile.createReader(new org.apache.hadoop.fs.Path(f.toUri()), OrcFile.readerOptions(conf))) {
                    rows += reader.getNumberOfRows();
                }
            }
        } else if (format.equals("avro")) {
            for (java.nio.file.Path f : files) {
                try (InputStream in = Files.newInputStream(f);
                        DataFileStream<GenericRecord> reader = new DataFileStream<>(in, new GenericDatumReader<>())) {
                    while (reader.hasNext()) {
                        rows += reader.getBlockCount();
                        reader.nextBlock();
                    }
                }
            }
        } else {
            org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
            for (java.nio.file.Path f : files) {
                try (ParquetFileReader reader = ParquetFileReader.open(
                        HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(f.toUri()), conf))) {
                    rows += reader.getRecordCount();
                }
            }
        }
        assertThat(rows).as("rows committed in " + out).isEqualTo(ROWS);
    }

    /** Number of lines and the sum of their FNV-1a hashes: the same for the same lines in any order. */
    private static long[] lines(java.nio.file.Path file) throws IOException {
        long count = 0;
        long sum = 0;
        long h = 0xcbf29ce484222325L;
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(buf); n > 0; n = in.read(buf)) {
                for (int i = 0; i < n; i++) {
                    byte b = buf[i];
                    if (b == '\n') {
                        count++;
                        sum += h;
                        h = 0xcbf29ce484222325L;
                    } else {
                        h = (h ^ (b & 0xff)) * 0x100000001b3L;
                    }
                }
            }
        }
        return new long[] {count, sum};
    }

    // ------------------------------------------------------------------ upstream writers

    /**
     * Flink's CSV serialization of a row plus {@code \n}: what Sluice's csv format writes (its
     * encoder is the same schema with the same default options).
     */
    static final class CsvLineEncoder implements Encoder<RowData> {
        private static final long serialVersionUID = 1L;
        private final SerializationSchema<RowData> schema;
        private transient boolean opened;

        CsvLineEncoder(RowType rowType) {
            this.schema = new CsvRowDataSerializationSchema.Builder(rowType).build();
        }

        @Override
        public void encode(RowData row, OutputStream out) throws IOException {
            if (!opened) {
                try {
                    schema.open(new SerializationSchema.InitializationContext() {
                        @Override
                        public org.apache.flink.metrics.MetricGroup getMetricGroup() {
                            return new UnregisteredMetricsGroup();
                        }

                        @Override
                        public UserCodeClassLoader getUserCodeClassLoader() {
                            ClassLoader cl = CsvLineEncoder.class.getClassLoader();
                            return new UserCodeClassLoader() {
                                @Override
                                public ClassLoader asClassLoader() {
                                    return cl;
                                }

                                @Override
                                public void registerReleaseHookIfAbsent(String name, Runnable hook) {}
                            };
                        }
                    });
                } catch (Exception e) {
                    throw new IOException(e);
                }
                opened = true;
            }
            out.write(schema.serialize(row));
            out.write('\n');
        }
    }

    /**
     * Flink's Avro bulk writer for rows as Flink SQL's avro format builds it: each row converted
     * to a {@link GenericRecord} by {@link RowDataToAvroConverters} against the schema {@link
     * AvroSchemaConverter} derives, written by {@link AvroWriterFactory} with snappy (that format's
     * default, and Sluice's).
     */
    static final class AvroRowWriterFactory implements BulkWriter.Factory<RowData> {
        private static final long serialVersionUID = 1L;
        private final RowType rowType;

        AvroRowWriterFactory(RowType rowType) {
            this.rowType = rowType;
        }

        @Override
        public BulkWriter<RowData> create(org.apache.flink.core.fs.FSDataOutputStream out) throws IOException {
            Schema schema = AvroSchemaConverter.convertToSchema(rowType);
            String json = schema.toString();
            BulkWriter<GenericRecord> records = new AvroWriterFactory<GenericRecord>(stream -> {
                        Schema s = new Schema.Parser().parse(json);
                        DataFileWriter<GenericRecord> writer = new DataFileWriter<>(new GenericDatumWriter<>(s));
                        writer.setCodec(CodecFactory.snappyCodec());
                        return writer.create(s, stream);
                    })
                    .create(out);
            RowDataToAvroConverters.RowDataToAvroConverter converter = RowDataToAvroConverters.createConverter(rowType);
            return new BulkWriter<RowData>() {
                @Override
                public void addElement(RowData row) throws IOException {
                    records.addElement((GenericRecord) converter.convert(schema, row));
                }

                @Override
                public void flush() throws IOException {
                    records.flush();
                }

                @Override
                public void finish() throws IOException {
                    records.finish();
                }
            };
        }
    }

    // ------------------------------------------------------------------ results

    static final class CaseResult {
        final String name;
        final RuntimeExecutionMode mode;
        final String format;
        final List<Run> sourceOnly = new ArrayList<>();
        final List<Run> sluice = new ArrayList<>();
        final List<Run> fileSink = new ArrayList<>();

        CaseResult(String name, RuntimeExecutionMode mode, String format) {
            this.name = name;
            this.mode = mode;
            this.format = format;
        }

        double ratio() {
            return io.sluice.testshared.SideBySide.ratio(sluice, fileSink);
        }

        double cpuRatio() {
            return io.sluice.testshared.SideBySide.cpuRatio(sluice, fileSink);
        }
    }

    private static String report(List<CaseResult> results, String loadAtStart, String loadAtEnd) {
        StringBuilder s = new StringBuilder();
        s.append("## FileSinkBenchmark: Sluice vs Flink FileSink\n\n");
        s.append(String.format(
                Locale.ROOT,
                "%s; %,d rows (id BIGINT, name STRING(16), amount DOUBLE, ts TIMESTAMP(3)), parallelism %d, "
                        + "MiniCluster; %d warm-up + %d measured runs per sink, alternating; "
                        + "median of the job's net run time.\n\n",
                machine(),
                ROWS,
                PARALLELISM,
                WARMUP,
                RUNS));
        s.append(
                "| case | Sluice rows/s | FileSink rows/s | **ratio** | CPU s/run Sluice / FileSink | CPU ratio | Sluice runs (s) | FileSink runs (s) | output Sluice / FileSink | source alone rows/s |\n");
        s.append("|---|---:|---:|---:|---:|---:|---|---|---|---:|\n");
        for (CaseResult r : results) {
            s.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | **%.2f** | %.2f / %.2f | %.2f | %s | %s | %s in %d / %s in %d files | %s |\n",
                    r.name,
                    rate(medianRate(r.sluice)),
                    rate(medianRate(r.fileSink)),
                    r.ratio(),
                    medianCpuSeconds(r.sluice),
                    medianCpuSeconds(r.fileSink),
                    r.cpuRatio(),
                    seconds(r.sluice),
                    seconds(r.fileSink),
                    mb(r.sluice.get(0).bytes),
                    r.sluice.get(0).files,
                    mb(r.fileSink.get(0).bytes),
                    r.fileSink.get(0).files,
                    rate(medianRate(r.sourceOnly))));
        }
        s.append(
                "\nratio: median throughput (rows / the job's net run time) of Sluice over FileSink's, > 1: Sluice is faster. "
                        + "CPU ratio: FileSink's median CPU time of the whole JVM per run over Sluice's (> 1: Sluice needs less), "
                        + "steadier than throughput when other processes compete for the cores "
                        + "(load average at start / end: " + loadAtStart + " / " + loadAtEnd
                        + "). csv: both write Flink's CsvRowDataSerializationSchema + \\n "
                        + "(byte-identical content, checked); parquet: Sluice's formats plugin (its direct writer for flat rows) "
                        + "vs ParquetRowDataBuilder, SNAPPY, UTC timestamps, both; orc: Flink's OrcBulkWriterFactory + "
                        + "RowDataVectorizer, ZLIB, both; avro: RowDataToAvroConverters + AvroWriterFactory, snappy, both. "
                        + "streaming: checkpoints every " + CHECKPOINT_INTERVAL_MS
                        + " ms. Every run's output was verified "
                        + "(" + String.format(Locale.ROOT, "%,d", ROWS) + " rows committed, nothing in progress).\n");
        return s.toString();
    }
}
