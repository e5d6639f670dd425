package io.sluice.it;

import io.sluice.runtime.sink.dynamic.DynamicRecord;
import io.sluice.runtime.sink.dynamic.DynamicRecordGenerator;
import io.sluice.runtime.sink.dynamic.DynamicSink;
import io.sluice.runtime.sink.dynamic.DynamicSinkFaults;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.testshared.FailoverCluster;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The dynamic sink through the filesystem target: one sink writes numbered records to a number of
 * directories (one per "table", some partitioned by {@code identity(p)}, some not; a second schema
 * with one more column arriving mid-stream for some), shuffled by HASH or NONE or forwarded, on a
 * schedule drawn from a printed seed (router and writer parallelism, tables, write parallelism per
 * table, the failure's point), failed once in the router, in a writer (also as a killed process's
 * writers fail: none of the failed attempt's writers closed) or in the commit of one of the tables.
 * Every table's committed files hold exactly its numbers, each once, and no in-progress file is
 * left.
 */
class DynamicSinkFileSystemIT {

    private static final long COUNT = 6_000;

    /** Set by the generator when it throws the injected failure (the MiniCluster runs in this JVM). */
    static final AtomicBoolean ROUTER_FAILED = new AtomicBoolean();

    @RegisterExtension
    static final FailoverCluster MINI_CLUSTER = new FailoverCluster(4);

    static final RowType V1 =
            RowType.of(new LogicalType[] {new BigIntType(false), new VarCharType(false, 10)}, new String[] {"id", "p"});
    static final RowType V2 = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(false, 10), new VarCharType(true, 10)},
            new String[] {"id", "p", "extra"});

    @TempDir
    Path tmp;

    @AfterEach
    void reset() {
        ROUTER_FAILED.set(false);
        DynamicSinkFaults.clear();
    }

    /** The table of number {@code id}, of {@code tables}. */
    static int tableOf(long id, int tables, long seed) {
        long h = (id ^ seed) * 0x9E3779B97F4A7C15L;
        return (int) Math.floorMod(h ^ (h >>> 29), (long) tables);
    }

    /** Routes each number to its table: its mode, spec and schema by the table's number. */
    static final class Numbers implements DynamicRecordGenerator<Long> {
        private static final long serialVersionUID = 1L;
        final int tables;
        final long seed;
        final long failAt;
        final int[] writeParallelism;

        Numbers(int tables, long seed, long failAt, int[] writeParallelism) {
            this.tables = tables;
            this.seed = seed;
            this.failAt = failAt;
            this.writeParallelism = writeParallelism;
        }

        @Override
        public void generate(Long id, Collector<DynamicRecord> out) {
            if (id == failAt && ROUTER_FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("chaos: injected failure in the router at " + id);
            }
            int t = tableOf(id, tables, seed);
            boolean v2 = t % 3 == 0 && id > COUNT / 2;
            StringData p = StringData.fromString("p" + (id % 4));
            DistributionMode mode = t % 3 == 0 ? null : t % 3 == 1 ? DistributionMode.HASH : DistributionMode.NONE;
            out.collect(new DynamicRecord(
                    "db/t" + t,
                    null,
                    v2 ? V2 : V1,
                    v2 ? GenericRowData.of(id, p, StringData.fromString("x" + id)) : GenericRowData.of(id, p),
                    t % 2 == 0 ? List.of("identity(p)") : List.of(),
                    mode,
                    writeParallelism[t]));
        }
    }

    @ParameterizedTest(name = "fails in the {0}")
    @ValueSource(strings = {"router", "writer", "killed writer", "commit"})
    void everyTableHoldsExactlyItsRecords(String failure) throws Exception {
        long seed = Long.getLong("sluice.it.seed", System.nanoTime());
        Random random = new Random(seed);
        int routers = 1 + random.nextInt(3);
        int writers = 1 + random.nextInt(3);
        int tables = 3 + random.nextInt(10);
        int[] writeParallelism = new int[tables];
        for (int t = 0; t < tables; t++) {
            writeParallelism[t] = random.nextInt(writers + 1); // 0: the sink's
        }
        long failAt = COUNT / 4 + random.nextInt((int) (COUNT / 2));
        System.out.printf(
                "DynamicSinkFileSystemIT %s seed %d (-Dsluice.it.seed=%d): %d routers, %d writers, %d tables %s,"
                        + " fails at %d%n",
                failure, seed, seed, routers, writers, tables, java.util.Arrays.toString(writeParallelism), failAt);
        Path out = tmp.resolve("out");
        Path markers = tmp.resolve("markers");

        StreamExecutionEnvironment env = MINI_CLUSTER.restartingEnvironment(routers, 150);
        DataStream<Long> numbers = env.fromSource(
                new DataGeneratorSource<>(
                        i -> i + 1, COUNT, RateLimiterStrategy.perCheckpoint((int) (COUNT / 15)), Types.LONG),
                WatermarkStrategy.noWatermarks(),
                "numbers");
        Map<String, String> options = new HashMap<>();
        options.put("path", out.toString());
        options.put("format", "csv");
        // small files: committed while the job runs, which the writer's and the commit's failures wait for
        options.put("sink.rolling-policy.file-size", "1kb");
        options.put("chaos.marker-dir", markers.toString());
        if (failure.endsWith("writer")) {
            // per writer of a table: a table's rows spread over up to max(routers, writers) writers
            long perWriter = COUNT / ((long) tables * Math.max(routers, writers));
            options.put("chaos.writer.fail-after-records", String.valueOf(1 + failAt % Math.max(1, perWriter / 2)));
        }
        if (failure.equals("killed writer")) {
            // a table's writer of the second schema, opened mid-stream, dies within its first
            // records: before the next checkpoint, so no state names it
            options.put("chaos.writer.fail-as-killed", "true");
            options.put("chaos.writer.fail-with-column", "extra");
            options.put("chaos.writer.fail-after-records", String.valueOf(1 + random.nextInt(3)));
        }
        if (failure.equals("commit")) {
            options.put("chaos.commit.fail", random.nextBoolean() ? "before" : "after");
        }
        DynamicSink.forInput(numbers)
                .generator(new Numbers(tables, seed, failure.equals("router") ? failAt : -1, writeParallelism))
                .target("chaos-filesystem")
                .pluginsDir(TestDistribution.pluginsDirWithTestPlugins())
                .catalog(options)
                .writeParallelism(writers)
                .append();
        env.execute("dynamic filesystem sink, fails in the " + failure);

        if (failure.equals("router")) {
            assertThat(ROUTER_FAILED).as("the failure was injected").isTrue();
        } else {
            assertThat(markers)
                    .as(() -> "the failure was injected; files: " + CommittedFiles.visible(out))
                    .isNotEmptyDirectory();
        }
        Map<Integer, List<Long>> expected = new TreeMap<>();
        for (long id = 1; id <= COUNT; id++) {
            expected.computeIfAbsent(tableOf(id, tables, seed), t -> new ArrayList<>())
                    .add(id);
        }
        for (Map.Entry<Integer, List<Long>> table : expected.entrySet()) {
            Path dir = out.resolve("db").resolve("t" + table.getKey());
            List<Long> ids = CommittedFiles.lines(dir).stream()
                    .map(l -> Long.parseLong(l.split(",")[0]))
                    .collect(Collectors.toList());
            assertThat(ids)
                    .as("table t%d: %s", table.getKey(), CommittedFiles.visible(dir))
                    .containsExactlyInAnyOrderElementsOf(table.getValue());
            // the failed attempt's table writers, also those opened after the last checkpoint
            // and, for a killed writer, never closed: the next attempt's writers of the table
            // found what they began
            assertThat(CommittedFiles.inProgress(dir))
                    .as("table t%d: in-progress files left", table.getKey())
                    .isEmpty();
            if (table.getKey() % 2 == 0) {
                assertThat(Files.list(dir).map(d -> d.getFileName().toString()))
                        .as("t%d is partitioned by p", table.getKey())
                        .contains("p=p0", "p=p1", "p=p2", "p=p3");
            }
        }
        assertThat(out.resolve("db"))
                .isDirectoryContaining(d -> d.getFileName().toString().startsWith("t"));
        long total = LongStream.rangeClosed(1, COUNT).count();
        assertThat(expected.values().stream().mapToLong(List::size).sum()).isEqualTo(total);
    }

    /** Table k gets the k-th tenth of the numbers only: its writer is idle once that tenth is written. */
    static final class Phases implements DynamicRecordGenerator<Long> {
        private static final long serialVersionUID = 1L;
        final long count;

        Phases(long count) {
            this.count = count;
        }

        @Override
        public void generate(Long id, Collector<DynamicRecord> out) {
            int t = (int) ((id - 1) * 10 / count);
            out.collect(new DynamicRecord(
                    "phase/t" + t,
                    null,
                    V1,
                    GenericRowData.of(id, StringData.fromString("p")),
                    List.of(),
                    DistributionMode.NONE,
                    0));
        }
    }

    /**
     * A table no longer written to has its writer closed once its files are committed (after {@code
     * IDLE_CHECKPOINTS} checkpoints without rows), so a long job keeps as many writers as it has live
     * tables; the closed writers' tables still hold every row once.
     */
    @Test
    void idleWritersAreClosedAndTheirTablesLoseNothing() throws Exception {
        long count = 2_000;
        Set<String> closed = ConcurrentHashMap.newKeySet();
        DynamicSinkFaults observed = new DynamicSinkFaults().onIdleWriterClosed(closed::add);
        Path out = tmp.resolve("phases");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(100);
        DynamicSink.Builder<Long> builder = DynamicSink.forInput(env.fromSource(
                        // about 40 checkpoints: each table's rows over 4, then idle to the end
                        new DataGeneratorSource<>(
                                i -> i + 1, count, RateLimiterStrategy.perCheckpoint((int) (count / 40)), Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        "numbers"))
                .generator(new Phases(count))
                .target("filesystem")
                .pluginsDir(TestDistribution.pluginsDir())
                // row-format part files stay open across checkpoints until inactive: then the writer has no state
                .catalog(Map.of(
                        "path", out.toString(),
                        "format", "csv",
                        "sink.rolling-policy.inactivity-interval", "100ms",
                        "sink.rolling-policy.check-interval", "50ms"))
                .writeParallelism(1);
        observed.into(builder).append();
        env.execute("dynamic sink, idle writers");

        assertThat(closed.stream().map(target -> target.substring(0, target.indexOf(' '))))
                .as("the writers of the tables written first were closed: %s", closed)
                .contains("phase/t0", "phase/t1", "phase/t2", "phase/t3", "phase/t4");
        for (int t = 0; t < 10; t++) {
            Path dir = out.resolve("phase").resolve("t" + t);
            int table = t;
            List<Long> expected = LongStream.rangeClosed(1, count)
                    .filter(id -> (int) ((id - 1) * 10 / count) == table)
                    .boxed()
                    .collect(Collectors.toList());
            assertThat(CommittedFiles.lines(dir).stream().map(l -> Long.parseLong(l.split(",")[0])))
                    .as("table t%d: %s", t, CommittedFiles.visible(dir))
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /**
     * Forward records skip the shuffle: the forward writer is chained to the router (one task, no
     * serializer between them), the shuffled writer is a task of its own behind the partitioner.
     */
    @Test
    void theForwardWriterRunsInTheRoutersTask() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        DynamicSink.forInput(env.fromSource(
                        new DataGeneratorSource<>(i -> i + 1, 10, Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        "numbers"))
                .generator(new Fixed("t", List.of()))
                .target("filesystem")
                .pluginsDir(TestDistribution.pluginsDir())
                .catalog(Map.of("path", tmp.resolve("chained").toString(), "format", "csv"))
                .append();
        List<String> tasks = new ArrayList<>();
        for (org.apache.flink.runtime.jobgraph.JobVertex vertex :
                env.getStreamGraph().getJobGraph().getVertices()) {
            tasks.add(vertex.getName());
        }
        assertThat(tasks)
                .as("tasks of the job")
                .anySatisfy(task -> assertThat(task).contains("Dynamic router").contains("Dynamic forward writer"))
                .anySatisfy(task -> assertThat(task).startsWith("Dynamic writer"));
    }

    /** A generator of fixed records, for the bad inputs. */
    static final class Fixed implements DynamicRecordGenerator<Long> {
        private static final long serialVersionUID = 1L;
        final String table;
        final List<String> spec;

        Fixed(String table, List<String> spec) {
            this.table = table;
            this.spec = spec;
        }

        @Override
        public void generate(Long id, Collector<DynamicRecord> out) {
            if (table == null) {
                throw new IllegalArgumentException("the job's own bug at " + id);
            }
            out.collect(new DynamicRecord(
                    table,
                    null,
                    V1,
                    GenericRowData.of(id, StringData.fromString("p")),
                    spec,
                    DistributionMode.NONE,
                    0));
        }
    }

    private void runFixed(Path out, DynamicRecordGenerator<Long> generator) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        DataStream<Long> numbers = env.fromSource(
                new DataGeneratorSource<>(i -> i + 1, 10, Types.LONG), WatermarkStrategy.noWatermarks(), "numbers");
        DynamicSink.forInput(numbers)
                .generator(generator)
                .target("filesystem")
                .pluginsDir(TestDistribution.pluginsDir())
                .catalog(Map.of("path", out.toString(), "format", "csv"))
                .append();
        env.execute("dynamic sink, bad input");
    }

    @Test
    void badInputIsAnErrorNamingItAndWritesNothingOutside() throws Exception {
        Path out = tmp.resolve("base");
        assertThatThrownBy(() -> runFixed(out, new Fixed("db/../../escaped", List.of())))
                .hasStackTraceContaining("Invalid table identifier 'db/../../escaped'")
                .hasStackTraceContaining("input record 1");
        assertThat(tmp.resolve("escaped")).doesNotExist();
        assertThatThrownBy(() -> runFixed(out, new Fixed("/etc/t", List.of())))
                .hasStackTraceContaining("Invalid table identifier '/etc/t'");
        assertThatThrownBy(() -> runFixed(out, new Fixed("db/t", List.of("bucket(4, id)"))))
                .hasStackTraceContaining("cannot be partitioned by 'bucket(4, id)'");
        assertThatThrownBy(() -> runFixed(out, new Fixed("db/t", List.of("identity(nope)"))))
                .hasStackTraceContaining("'identity(nope)' of column 'nope'");
        assertThatThrownBy(() -> runFixed(out, new Fixed(null, List.of())))
                .hasStackTraceContaining("generator failed on input record 1 of router subtask 0")
                .hasStackTraceContaining("the job's own bug at 1");
        assertThat(CommittedFiles.visible(out)).isEmpty();
        assertThatThrownBy(() -> DynamicSink.forInput(StreamExecutionEnvironment.getExecutionEnvironment()
                                .fromSequence(1, 2))
                        .generator((DynamicRecordGenerator<Long>) (id, o) -> {})
                        .target("nonexistent")
                        .pluginsDir(TestDistribution.pluginsDir())
                        .append())
                .hasStackTraceContaining("nonexistent");
    }
}
