package io.sluice.bench;

import io.sluice.it.TestDistribution;
import io.sluice.runtime.plugin.PluginBound;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.runtime.plugin.wrap.SpiWrappers;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.format.BulkWritingFormat;
import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.FormatFactory;
import io.sluice.spi.sink.TargetFactory;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static io.sluice.testshared.BenchmarkMachine.cpuModel;
import static io.sluice.testshared.BenchmarkMachine.deleteTree;
import static io.sluice.testshared.BenchmarkMachine.loadAverage;

/**
 * The plugin boundary's costs, with JMH (profile {@code benchmarks}, {@code
 * -Dit.test=PluginBoundaryBenchmark}, {@code -Dsluice.bench.jmh=coldLoad} for one benchmark):
 *
 * <ul>
 *   <li>cold load: a JVM of its own per measurement (JMH forks), a plugins directory with one
 *       plugin's zip as Maven built it, and the time from there to the first extension in hand
 *       ({@code PluginRegistry.get}: PF4J unpacks the zip, the isolating class loader, the
 *       extension index, the factory's instance), and from the plugin's folder as the distribution
 *       stages it; Flink's file systems are set up before (a TaskManager has them), the
 *       framework's own classes are not loaded yet, as in a TaskManager's first job.
 *   <li>per record: a row handed to a bulk writer directly and through the framework's wrapper
 *       ({@code TcclBulkWriter}: the plugin's context class loader around every call), for a writer
 *       that does nothing (the wrapper alone) and for the formats plugin's Parquet writer.
 * </ul>
 */
public class PluginBoundaryBenchmark {

    private static final List<String> FORWARDED =
            List.of("sluice.test.dist", "sluice.test.local-repo", "sluice.test.version");

    @Test
    public void pluginBoundary() throws Exception {
        String load = loadAverage();
        List<String> jvmArgs = new ArrayList<>();
        for (String property : FORWARDED) {
            jvmArgs.add("-D" + property + "=" + System.getProperty(property));
        }
        for (String arg :
                System.getProperty("sluice.bench.childJvmArgs", "").trim().split("\\s+")) {
            if (!arg.isEmpty()) {
                jvmArgs.add(arg);
            }
        }
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                        .include(PluginBoundaryBenchmark.class.getName() + "\\."
                                + System.getProperty("sluice.bench.jmh", ""))
                        .jvmArgsAppend(jvmArgs.toArray(new String[0]))
                        .build())
                .run();
        // a benchmark whose setup failed has no result
        org.assertj.core.api.Assertions.assertThat(results)
                .hasSize(System.getProperty("sluice.bench.jmh", "").isEmpty() ? 4 * 2 + 4 : results.size())
                .isNotEmpty();
        StringBuilder report = new StringBuilder("### Plugin boundary (JMH)\n\nCPU: " + cpuModel() + ", "
                + Runtime.getRuntime().availableProcessors() + " cores; load average " + load + " at start, "
                + loadAverage() + " at end\n\n| benchmark | parameters | score | error (99.9%) | unit |\n"
                + "|---|---|---:|---:|---|\n");
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            report.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %.2f | %.2f | %s |%n",
                    name.substring(name.lastIndexOf('.') + 1),
                    r.getParams().getParamsKeys().isEmpty()
                            ? ""
                            : r.getParams().getParam("plugin") + ", "
                                    + r.getParams().getParam("form"),
                    r.getPrimaryResult().getScore(),
                    r.getPrimaryResult().getScoreError(),
                    r.getPrimaryResult().getScoreUnit()));
        }
        System.out.println(report);
        String file = System.getProperty("sluice.bench.results", "target/benchmark-results.md");
        Files.write(
                Paths.get(file).resolveSibling("plugin-boundary-results.md"),
                report.toString().getBytes(StandardCharsets.UTF_8));
    }

    // ------------------------------------------------------------------ cold load

    /** A plugins directory with the zip of one plugin, fresh for each JVM. */
    @State(Scope.Benchmark)
    public static class OnePluginDirectory {
        @Param({"formats", "filesystem", "iceberg", "hive"})
        public String plugin;

        /** {@code zip}: as Maven builds it, unpacked by PF4J; {@code folder}: as the distribution stages it. */
        @Param({"zip", "folder"})
        public String form;

        Path dir;

        @Setup(Level.Trial)
        public void copyPlugin() throws IOException {
            // a TaskManager has set up Flink's file systems before any job: not the plugin's cost
            org.apache.flink.core.fs.FileSystem.get(java.net.URI.create("file:///"));
            if (form.equals("folder")) {
                dir = Files.createTempDirectory("cold-load-" + plugin);
                copyTree(TestDistribution.pluginsDir().resolve(plugin), dir.resolve(plugin));
                return;
            }
            String version = System.getProperty("sluice.test.version");
            Path zip = Paths.get(
                    System.getProperty("sluice.test.local-repo"),
                    "io",
                    "sluice",
                    "sluice-plugin-" + plugin,
                    version,
                    "sluice-plugin-" + plugin + "-" + version + "-plugin.zip");
            dir = Files.createTempDirectory("cold-load-" + plugin);
            Files.copy(zip, dir.resolve(plugin + ".zip"));
        }

        @TearDown(Level.Trial)
        public void delete() throws IOException {
            PluginRegistry.closeAll();
            deleteTree(dir);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (java.util.stream.Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Fork(8)
    @Warmup(iterations = 0)
    @Measurement(iterations = 1)
    public SluiceFactory coldLoad(OnePluginDirectory plugins) {
        PluginRegistry registry = PluginRegistry.get(PluginSettings.of(plugins.dir));
        switch (plugins.plugin) {
            case "formats":
                return registry.find(FormatFactory.class, "parquet");
            default:
                return registry.find(TargetFactory.class, plugins.plugin);
        }
    }

    // ------------------------------------------------------------------ per record

    private static final RowType ROW = ManyPartitionsBenchmark.FILE_ROW;

    /** The same rows to a writer directly and through the wrapper. */
    @State(Scope.Thread)
    public static class Writers {
        final RowData[] rows = new RowData[1024];
        int next;
        BulkWriter<RowData> nothingDirect;
        BulkWriter<RowData> nothingWrapped;
        BulkWriter<RowData> parquetDirect;
        BulkWriter<RowData> parquetWrapped;
        URLClassLoader otherLoader;

        @Setup(Level.Trial)
        @SuppressWarnings("unchecked")
        public void open() throws IOException {
            for (int i = 0; i < rows.length; i++) {
                rows[i] = GenericRowData.of((long) i, StringData.fromString("value-" + i % 50), i * 0.5);
            }
            // the wrapper alone: a writer that does nothing, under a class loader of its own
            otherLoader = new URLClassLoader(new URL[0], getClass().getClassLoader());
            BulkWritingFormat nothing = SpiWrappers.wrap(BulkWritingFormat.class, new NothingFormat(), otherLoader);
            nothingDirect = new NothingWriter();
            nothingWrapped = nothing.createBulkWriterFactory(context()).create(new Discarding());
            // the formats plugin's Parquet writer, loaded as a job loads it
            PluginRegistry registry = PluginRegistry.get(PluginSettings.of(TestDistribution.pluginsDir()));
            BulkWritingFormat parquet = registry.find(BulkWritingFormat.class, "parquet");
            BulkWriter.Factory<RowData> factory = parquet.createBulkWriterFactory(context());
            parquetWrapped = factory.create(new Discarding());
            parquetDirect = (BulkWriter<RowData>) ((PluginBound) factory.create(new Discarding())).unwrap();
        }

        RowData row() {
            return rows[next++ & (rows.length - 1)];
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            parquetDirect.finish();
            parquetWrapped.finish();
            otherLoader.close();
            PluginRegistry.closeAll();
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @Fork(2)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public void rowToNothingDirect(Writers w) throws IOException {
        w.nothingDirect.addElement(w.row());
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @Fork(2)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public void rowToNothingWrapped(Writers w) throws IOException {
        w.nothingWrapped.addElement(w.row());
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @Fork(2)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public void rowToParquetDirect(Writers w) throws IOException {
        w.parquetDirect.addElement(w.row());
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @Fork(2)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public void rowToParquetWrapped(Writers w) throws IOException {
        w.parquetWrapped.addElement(w.row());
    }

    private static FormatContext context() {
        return new FormatContext() {
            @Override
            public RowType rowType() {
                return ROW;
            }

            @Override
            public ReadableConfig options() {
                return new Configuration();
            }
        };
    }

    /** A bulk format whose writer does nothing but count. */
    public static final class NothingFormat implements BulkWritingFormat {
        @Override
        public String identifier() {
            return "nothing";
        }

        @Override
        public BulkWriter.Factory<RowData> createBulkWriterFactory(FormatContext context) {
            return out -> new NothingWriter();
        }
    }

    /** Counts rows; the count escapes, so the call is not optimized away. */
    public static final class NothingWriter implements BulkWriter<RowData> {
        public long rows;

        @Override
        public void addElement(RowData element) {
            rows += element.getArity();
        }

        @Override
        public void flush() {}

        @Override
        public void finish() {}
    }

    /** Counts what a writer writes and keeps nothing. */
    static final class Discarding extends FSDataOutputStream {
        private long position;

        @Override
        public long getPos() {
            return position;
        }

        @Override
        public void write(int b) {
            position++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            position += len;
        }

        @Override
        public void flush() {}

        @Override
        public void sync() {}

        @Override
        public void close() {}
    }
}
