package io.sluice.bench;

import io.sluice.it.TestDistribution;
import io.sluice.runtime.sink.SluiceSink;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.formats.parquet.row.ParquetRowDataBuilder;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.BucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.SimpleVersionedStringSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.sluice.testshared.BenchmarkMachine.cpuModel;
import static io.sluice.testshared.BenchmarkMachine.deleteTree;
import static io.sluice.testshared.BenchmarkMachine.loadAverage;

/**
 * Many open partitions in a small heap, Sluice beside Flink's {@code FileSink}: each side writes
 * the same job in a JVM of its own with {@code -Xmx1g} (so neither inherits the other's heap): one
 * writer subtask, BATCH, {@code sluice.bench.partitions} partitions (10,000) of ten consecutive rows
 * each, Parquet of three columns (id BIGINT, s STRING, d DOUBLE; the partition in the directory),
 * SNAPPY, so every partition's file is open until the end of input unless something rolls it.
 * Sluice with its writer memory budget (the default, an eighth of the heap); {@code FileSink} with
 * {@link ParquetRowDataBuilder}. Reported: whether the job finished, its wall time, the JVM's peak
 * heap (the sum of the heap pools' peaks) and how it ended otherwise. Not a test: profile
 * {@code benchmarks}, {@code -Dit.test=ManyPartitionsBenchmark}.
 */
class ManyPartitionsBenchmark {

    private static final int PARTITIONS = Integer.getInteger("sluice.bench.partitions", 10_000);
    private static final int ROWS_PER_PARTITION = 10;
    private static final String HEAP = System.getProperty("sluice.bench.heap", "1g");
    private static final int SQL_ROWS_PER_PARTITION = Integer.getInteger("sluice.bench.sql-rows-per-partition", 20);
    private static final long CHILD_TIMEOUT_MINUTES = 15;
    /** STREAMING: rows in all, spread over the partitions in turn ({@code id % partitions}). */
    private static final long STREAMING_ROWS = Long.getLong("sluice.bench.streaming-rows", 2_000_000L);
    /** STREAMING: the partitions of the baseline, the same rows over few partitions. */
    private static final int BASELINE_PARTITIONS = Integer.getInteger("sluice.bench.baseline-partitions", 100);

    /** STREAMING: which sides run, of {@code sluice,filesink,baseline} (all three). */
    private static final List<String> STREAMING_SIDES =
            List.of(System.getProperty("sluice.bench.streaming-sides", "sluice,filesink,baseline")
                    .split(","));
    /**
     * More JVM options for each side's JVM, e.g. {@code -XX:StartFlightRecording=filename=/tmp/{side}.jfr}
     * ({@code {side}} becomes the side's name, its colons dashes).
     */
    private static final String SIDE_JVM_ARGS = System.getProperty("sluice.bench.sideJvmArgs", "");

    private static final long CHECKPOINT_INTERVAL_MS = Long.getLong("sluice.bench.checkpoint-interval-ms", 3_000L);
    /** When each checkpoint completed, in the child JVM (the MiniCluster runs in it). */
    private static final List<Long> COMPLETED_CHECKPOINTS = new java.util.concurrent.CopyOnWriteArrayList<>();

    static final RowType ROW = RowType.of(
            new LogicalType[] {
                new BigIntType(false),
                new VarCharType(false, 16),
                new VarCharType(VarCharType.MAX_LENGTH),
                new DoubleType()
            },
            new String[] {"id", "p", "s", "d"});
    /** What a file holds: the row without its partition. */
    static final RowType FILE_ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH), new DoubleType()},
            new String[] {"id", "s", "d"});

    @Test
    void manyOpenPartitionsInASmallHeap() throws Exception {
        java.nio.file.Path root = Paths.get("target", "bench-partitions").toAbsolutePath();
        String load = loadAverage();
        StringBuilder report = new StringBuilder("### Many open partitions: " + PARTITIONS + " partitions of Parquet, "
                + ROWS_PER_PARTITION + " rows each, one writer, BATCH, -Xmx" + HEAP + " per side\n\n"
                + "CPU: " + cpuModel() + ", " + Runtime.getRuntime().availableProcessors() + " cores; load average "
                + load + " at start\n\n| side | result | wall s | peak heap MB |\n|---|---|---:|---:|\n");
        for (String side : List.of("sluice", "filesink")) {
            deleteTree(root);
            report.append(runSide(side, root.resolve(side))).append('\n');
        }
        report.append("\nload average at end ").append(loadAverage()).append('\n');
        System.out.println(report);
        String file = System.getProperty("sluice.bench.results", "target/benchmark-results.md");
        Files.write(
                Paths.get(file).resolveSibling("many-partitions-results.md"),
                report.toString().getBytes(StandardCharsets.UTF_8));
        deleteTree(root);
    }

    /**
     * The same number of partitions from SQL, BATCH: {@code sluice.bench.partitions} partitions of
     * {@code sluice.bench.sql-rows-per-partition} (20) rows each, every partition's rows spread over
     * the input ({@code MOD(id, partitions)}), one writer, {@code -Xmx} as above; Sluice's {@code
     * filesystem} target beside upstream's {@code 'connector' = 'filesystem'}, csv and Parquet.
     * Both ask the planner to sort the rows by partition, so a writer holds one open file; reported
     * with the number of files each wrote.
     */
    @Test
    void manyPartitionsFromSqlInBatch() throws Exception {
        java.nio.file.Path root = Paths.get("target", "bench-partitions-sql").toAbsolutePath();
        String load = loadAverage();
        StringBuilder report = new StringBuilder("### Many partitions from SQL: " + PARTITIONS + " partitions, "
                + SQL_ROWS_PER_PARTITION + " rows each spread over the input, one writer, BATCH, -Xmx" + HEAP
                + " per side\n\nCPU: " + cpuModel() + ", "
                + Runtime.getRuntime().availableProcessors()
                + " cores; load average " + load + " at start\n\n| side | format | result | wall s | peak heap MB |"
                + " files |\n|---|---|---|---:|---:|---:|\n");
        for (String format : List.of("csv", "parquet")) {
            for (String side : List.of("sluice", "filesystem")) {
                deleteTree(root);
                String row = runSide("sql:" + side + ":" + format, root.resolve(side));
                report.append(row.replaceFirst("\\| sql:" + side + ":" + format, "| " + side + " | " + format))
                        .append('\n');
            }
        }
        report.append("\nload average at end ").append(loadAverage()).append('\n');
        System.out.println(report);
        String file = System.getProperty("sluice.bench.results", "target/benchmark-results.md");
        Files.write(
                Paths.get(file).resolveSibling("many-partitions-sql-results.md"),
                report.toString().getBytes(StandardCharsets.UTF_8));
        deleteTree(root);
    }

    /**
     * STREAMING, the case files stay open between checkpoints: {@code sluice.bench.streaming-rows}
     * rows (2,000,000) spread over {@code sluice.bench.partitions} partitions in turn (row {@code
     * i} to partition {@code i % partitions}, so every partition receives rows between any two
     * checkpoints), a bounded source, a checkpoint every {@code sluice.bench.checkpoint-interval-ms}
     * (3,000), one writer, Parquet (SNAPPY), {@code -Xmx} as above. Sides: Sluice, {@code FileSink}
     * (which rolls bulk files at every checkpoint), and Sluice with {@code
     * sluice.bench.baseline-partitions} (100) partitions and the same rows. The goal: Sluice's rows/s
     * with many partitions at least 0.8 of the baseline's, and at most one file per partition per
     * checkpoint after the first.
     *
     * <p>A file is counted to the first checkpoint that completed after it was last modified (a
     * writer finishes a checkpoint's files before its barrier passes, and the checkpoint completes
     * after that); files modified after the last checkpoint are the end of input's.
     */
    @Test
    void manyPartitionsInStreaming() throws Exception {
        java.nio.file.Path root =
                Paths.get("target", "bench-partitions-streaming").toAbsolutePath();
        String load = loadAverage();
        StringBuilder report = new StringBuilder("### Many partitions in STREAMING: " + STREAMING_ROWS
                + " rows spread over the partitions, Parquet, one writer, a checkpoint every "
                + CHECKPOINT_INTERVAL_MS + " ms, -Xmx" + HEAP + " per side\n\nCPU: " + cpuModel() + ", "
                + Runtime.getRuntime().availableProcessors() + " cores; load average " + load + " at start\n\n"
                + "| side | partitions | result | wall s | rows/s | peak heap MB | files | checkpoints |"
                + " files per partition per checkpoint: max / max after the first / mean |\n"
                + "|---|---:|---|---:|---:|---:|---:|---:|---|\n");
        List<String> sides = new ArrayList<>();
        if (STREAMING_SIDES.contains("sluice")) {
            sides.add("streaming:sluice:" + PARTITIONS);
        }
        if (STREAMING_SIDES.contains("filesink")) {
            sides.add("streaming:filesink:" + PARTITIONS);
        }
        if (STREAMING_SIDES.contains("baseline")) {
            sides.add("streaming:sluice:" + BASELINE_PARTITIONS);
        }
        for (String side : sides) {
            deleteTree(root);
            String[] parts = side.split(":");
            StringBuilder row = new StringBuilder(runSide(side, root.resolve(parts[1]))
                    .replaceFirst("\\| " + side, "| " + parts[1] + " | " + parts[2]));
            // a side that failed has fewer cells
            for (long cells = row.chars().filter(c -> c == '|').count(); cells < 10; cells++) {
                row.append(" |");
            }
            report.append(row).append('\n');
        }
        report.append("\nload average at end ").append(loadAverage()).append('\n');
        System.out.println(report);
        String file = System.getProperty("sluice.bench.results", "target/benchmark-results.md");
        Files.write(
                Paths.get(file).resolveSibling("many-partitions-streaming-results.md"),
                report.toString().getBytes(StandardCharsets.UTF_8));
        deleteTree(root);
    }

    private static String runSide(String side, java.nio.file.Path out) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + HEAP,
                "-XX:+ExitOnOutOfMemoryError",
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-Dsluice.test.dist=" + System.getProperty("sluice.test.dist"),
                // the sizes as this run was given them
                "-Dsluice.bench.partitions=" + PARTITIONS,
                "-Dsluice.bench.sql-rows-per-partition=" + SQL_ROWS_PER_PARTITION,
                "-Dsluice.bench.streaming-rows=" + STREAMING_ROWS,
                "-Dsluice.bench.checkpoint-interval-ms=" + CHECKPOINT_INTERVAL_MS));
        // the test JVM's --add-opens (Flink's Kryo on Java 17), and this run's own
        String jvmArgs = System.getProperty("sluice.bench.childJvmArgs", "") + " "
                + SIDE_JVM_ARGS.replace("{side}", side.replace(':', '-'));
        for (String arg : jvmArgs.trim().split("\\s+")) {
            if (!arg.isEmpty()) {
                command.add(arg);
            }
        }
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                ManyPartitionsBenchmark.class.getName(),
                side,
                out.toString()));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        long start = System.nanoTime();
        // a JVM in GC overhead prints nothing: the watchdog ends it
        Thread watchdog = new Thread(() -> {
            try {
                if (!child.waitFor(CHILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                    child.destroyForcibly();
                }
            } catch (InterruptedException e) {
                child.destroyForcibly();
            }
        });
        watchdog.setDaemon(true);
        watchdog.start();
        String result = null;
        List<String> tail = new ArrayList<>();
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                if (line.startsWith("RESULT ")) {
                    result = line.substring("RESULT ".length());
                }
                tail.add(line);
                if (tail.size() > 20) {
                    tail.remove(0);
                }
            }
        }
        child.waitFor();
        double wall = (System.nanoTime() - start) / 1e9;
        if (wall > TimeUnit.MINUTES.toSeconds(CHILD_TIMEOUT_MINUTES)) {
            return "| " + side + " | did not finish in " + CHILD_TIMEOUT_MINUTES + " min | "
                    + String.format("%.0f", wall) + " | |";
        }
        if (result != null) {
            return "| " + side + " | " + result;
        }
        String why = tail.stream()
                .filter(l -> l.contains("OutOfMemoryError") || l.contains("Terminating due to"))
                .findFirst()
                .orElse("exit " + child.exitValue() + ": " + String.join(" / ", tail));
        return "| " + side + " | failed: " + why.trim() + " | " + String.format("%.0f", wall) + " | |";
    }

    /** The job of one side, in the child JVM: prints {@code RESULT <result> | <wall> | <peak> |}. */
    public static void main(String[] args) throws Exception {
        String side = args[0];
        String out = args[1];
        if (side.startsWith("sql:")) {
            String[] parts = side.split(":");
            runSql(parts[1], parts[2], out);
            return;
        }
        if (side.startsWith("streaming:")) {
            String[] parts = side.split(":");
            runStreaming(parts[1], Integer.parseInt(parts[2]), out);
            return;
        }
        long rows = (long) PARTITIONS * ROWS_PER_PARTITION;
        // an option rather than RestartStrategies, which Flink 2 removed
        org.apache.flink.configuration.Configuration conf = new org.apache.flink.configuration.Configuration();
        conf.set(org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(1);
        long start = System.nanoTime();
        if (side.equals("sluice")) {
            env.fromSequence(1, rows)
                    .map(i -> (RowData) GenericRowData.of(
                            i, StringData.fromString(partition(i)), StringData.fromString("value-" + i % 50), i * 0.5))
                    .returns(InternalTypeInfo.of(ROW))
                    .sinkTo(sluiceParquet(out));
        } else {
            env.fromSequence(1, rows)
                    .map(i -> (RowData) GenericRowData.of(i, StringData.fromString("value-" + i % 50), i * 0.5))
                    .returns(InternalTypeInfo.of(FILE_ROW))
                    .sinkTo(fileSinkParquet(out, new PartitionOfId()));
        }
        String result = execute(env, "many partitions, " + side);
        double wall = (System.nanoTime() - start) / 1e9;
        System.out.println(
                "RESULT " + result + " | " + String.format("%.1f", wall) + " | " + (peakHeap() >> 20) + " |");
        System.exit(0);
    }

    /** A SQL side in the child JVM: prints {@code RESULT <result> | <wall> | <peak> | <files> |}. */
    private static void runSql(String side, String format, String out) {
        long rows = (long) PARTITIONS * SQL_ROWS_PER_PARTITION;
        org.apache.flink.table.api.TableEnvironment tEnv = org.apache.flink.table.api.TableEnvironment.create(
                org.apache.flink.table.api.EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "1");
        tEnv.getConfig().set("restart-strategy.type", "none");
        tEnv.executeSql("CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '" + rows
                + "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '" + (rows - 1) + "')");
        String connector = side.equals("sluice")
                ? "'connector' = 'sluice', 'target' = 'filesystem', 'sluice.plugins.dir' = '"
                        + TestDistribution.pluginsDir() + "'"
                : "'connector' = 'filesystem'";
        String options = format.equals("parquet") ? ", 'parquet.compression' = 'SNAPPY'" : "";
        tEnv.executeSql("CREATE TABLE t (id BIGINT, s STRING, d DOUBLE, p STRING) PARTITIONED BY (p) WITH ("
                + connector + ", 'path' = '" + Paths.get(out).toUri() + "', 'format' = '" + format + "'" + options
                + ")");
        long start = System.nanoTime();
        String result;
        try {
            tEnv.executeSql("INSERT INTO t SELECT id, CONCAT('value-', CAST(MOD(id, 50) AS STRING)), id * 0.5,"
                            + " CONCAT('p', CAST(MOD(id, " + PARTITIONS + ") AS STRING)) FROM gen")
                    .await();
            result = "finished";
        } catch (Exception e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            result = "failed: " + root;
        }
        double wall = (System.nanoTime() - start) / 1e9;
        long files;
        try (java.util.stream.Stream<java.nio.file.Path> all = Files.walk(Paths.get(out))) {
            files = all.filter(Files::isRegularFile)
                    .map(f -> f.getFileName().toString())
                    .filter(n -> !n.startsWith(".") && !n.startsWith("_"))
                    .count();
        } catch (java.io.IOException e) {
            files = -1;
        }
        System.out.println("RESULT " + result + " | " + String.format("%.1f", wall) + " | " + (peakHeap() >> 20) + " | "
                + files + " |");
        System.exit(0);
    }

    /**
     * A STREAMING side in the child JVM: prints {@code RESULT <result> | <wall> | <rows/s> | <peak>
     * | <files> | <checkpoints> | <max> / <max after the first> / <mean> |}.
     */
    private static void runStreaming(String side, int partitions, String out) throws Exception {
        org.apache.flink.configuration.Configuration conf = new org.apache.flink.configuration.Configuration();
        conf.set(org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY, "none");
        // checkpoints in files: a checkpoint of 10,000 pending files is over the 5 MB that the
        // JobManager's memory-backed storage takes (the aggregator's state, about 500 bytes a file)
        conf.set(org.apache.flink.configuration.CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        conf.set(
                org.apache.flink.configuration.CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                Paths.get(out)
                        .resolveSibling(Paths.get(out).getFileName() + "-checkpoints")
                        .toUri()
                        .toString());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        env.setParallelism(1);
        env.enableCheckpointing(CHECKPOINT_INTERVAL_MS);
        // so a checkpoint completes (and is noted) before the next starts
        env.getCheckpointConfig().setMinPauseBetweenCheckpoints(CHECKPOINT_INTERVAL_MS / 2);
        long start = System.nanoTime();
        if (side.equals("sluice")) {
            env.fromSequence(0, STREAMING_ROWS - 1)
                    .map(new NoteCheckpoints<>(i -> (RowData) GenericRowData.of(
                            i,
                            StringData.fromString("p" + i % partitions),
                            StringData.fromString("value-" + i % 50),
                            i * 0.5)))
                    .returns(InternalTypeInfo.of(ROW))
                    .sinkTo(sluiceParquet(out));
        } else {
            env.fromSequence(0, STREAMING_ROWS - 1)
                    .map(new NoteCheckpoints<>(
                            i -> (RowData) GenericRowData.of(i, StringData.fromString("value-" + i % 50), i * 0.5)))
                    .returns(InternalTypeInfo.of(FILE_ROW))
                    .sinkTo(fileSinkParquet(out, new PartitionOfIdModulo(partitions)));
        }
        String result = execute(env, "many partitions in streaming, " + side + ", " + partitions);
        double wall = (System.nanoTime() - start) / 1e9;
        System.out.println("RESULT " + result + " | " + String.format("%.1f", wall) + " | "
                + String.format("%,.0f", STREAMING_ROWS / wall) + " | " + (peakHeap() >> 20) + " | "
                + filesPerCheckpoint(Paths.get(out)) + " |");
        System.exit(0);
    }

    /**
     * {@code <files> | <checkpoints> | <max> / <max after the first> / <mean>}: the committed files,
     * each counted to the first checkpoint that completed after it was last modified (or to the end
     * of input), per partition directory.
     */
    private static String filesPerCheckpoint(java.nio.file.Path out) throws java.io.IOException {
        List<Long> completed = new ArrayList<>(COMPLETED_CHECKPOINTS);
        Map<String, Integer> perPartitionAndCheckpoint = new java.util.HashMap<>();
        long files = 0;
        if (Files.isDirectory(out)) {
            try (java.util.stream.Stream<java.nio.file.Path> all = Files.walk(out)) {
                for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) all.filter(Files::isRegularFile)
                        .filter(p -> !p.getFileName().toString().startsWith(".")
                                && !p.getFileName().toString().startsWith("_"))::iterator) {
                    long modified = Files.getLastModifiedTime(f).toMillis();
                    int checkpoint = 0;
                    while (checkpoint < completed.size() && completed.get(checkpoint) < modified) {
                        checkpoint++;
                    }
                    perPartitionAndCheckpoint.merge(f.getParent() + "@" + checkpoint, 1, Integer::sum);
                    files++;
                }
            }
        }
        int max = perPartitionAndCheckpoint.values().stream()
                .mapToInt(Integer::intValue)
                .max()
                .orElse(0);
        int maxAfterFirst = perPartitionAndCheckpoint.entrySet().stream()
                .filter(e -> !e.getKey().endsWith("@0"))
                .mapToInt(Map.Entry::getValue)
                .max()
                .orElse(0);
        double mean = perPartitionAndCheckpoint.isEmpty() ? 0 : (double) files / perPartitionAndCheckpoint.size();
        return String.format("%,d | %d | %d / %d / %.2f", files, completed.size(), max, maxAfterFirst, mean);
    }

    /** Maps each id to a row and notes when each checkpoint completed. */
    private static final class NoteCheckpoints<T> extends org.apache.flink.api.common.functions.RichMapFunction<Long, T>
            implements org.apache.flink.api.common.state.CheckpointListener {
        private static final long serialVersionUID = 1L;
        private final org.apache.flink.api.common.functions.MapFunction<Long, T> row;

        NoteCheckpoints(org.apache.flink.api.common.functions.MapFunction<Long, T> row) {
            this.row = row;
        }

        @Override
        public T map(Long id) throws Exception {
            return row.map(id);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            COMPLETED_CHECKPOINTS.add(System.currentTimeMillis());
        }
    }

    private static long peakHeap() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }

    static String partition(long id) {
        return "p" + (id - 1) / ROWS_PER_PARTITION;
    }

    /** The same directories as Sluice's partition key in STREAMING: {@code p=p<id % partitions>}. */
    private static final class PartitionOfIdModulo implements BucketAssigner<RowData, String> {
        private static final long serialVersionUID = 1L;
        private final int partitions;

        PartitionOfIdModulo(int partitions) {
            this.partitions = partitions;
        }

        @Override
        public String getBucketId(RowData row, Context context) {
            return "p=p" + row.getLong(0) % partitions;
        }

        @Override
        public SimpleVersionedSerializer<String> getSerializer() {
            return SimpleVersionedStringSerializer.INSTANCE;
        }
    }

    /** The same directories as Sluice's partition key: {@code p=p<n>}. */
    private static final class PartitionOfId implements BucketAssigner<RowData, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getBucketId(RowData row, Context context) {
            return "p=" + partition(row.getLong(0));
        }

        @Override
        public SimpleVersionedSerializer<String> getSerializer() {
            return SimpleVersionedStringSerializer.INSTANCE;
        }
    }
    /** Sluice's side: the filesystem target, Parquet with SNAPPY, partitioned by {@code p}. */
    private static SluiceSink sluiceParquet(String out) {
        return SluiceSink.forRowData(ROW)
                .withTarget("filesystem")
                .withPluginsDir(TestDistribution.pluginsDir())
                .withPath(out)
                .withFormat("parquet")
                .withPartitionKeys("p")
                .withOptions(Map.of("parquet.compression", "SNAPPY", "parquet.utc-timezone", "true"))
                .build();
    }

    /** Upstream's side: {@code FileSink} with Flink's Parquet writer, SNAPPY, the rows' partition by {@code assigner}. */
    private static FileSink<RowData> fileSinkParquet(String out, BucketAssigner<RowData, String> assigner) {
        org.apache.hadoop.conf.Configuration hadoopConf = new org.apache.hadoop.conf.Configuration();
        hadoopConf.set("parquet.compression", "SNAPPY");
        return FileSink.forBulkFormat(
                        new Path(Paths.get(out).toUri()),
                        ParquetRowDataBuilder.createWriterFactory(FILE_ROW, hadoopConf, true))
                .withBucketAssigner(assigner)
                .build();
    }

    /** Runs the job: {@code finished}, or {@code failed: } and the root cause. */
    private static String execute(StreamExecutionEnvironment env, String name) {
        try {
            env.execute(name);
            return "finished";
        } catch (Exception e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            return "failed: " + root;
        }
    }
}
