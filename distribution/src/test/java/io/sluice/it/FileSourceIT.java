package io.sluice.it;

import io.sluice.runtime.sink.BucketAssigners;
import io.sluice.runtime.sink.SluiceSink;
import io.sluice.runtime.source.file.SluiceFileSource;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The file source: what the sink wrote reads back equal, partition columns included, for every
 * readable format; SQL partition pruning reads only the kept partitions; a continuous read takes
 * every file added while it runs exactly once, also across a failure and restore, and with a
 * partition filter every matching partition added while it runs.
 */
class FileSourceIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    @TempDir
    Path tmp;

    /**
     * Options that make nulls and old timestamps round-trip, as upstream needs them too: CSV writes
     * a null as an empty field unless given a null literal, and Parquet's INT96 timestamps before
     * 1970 with fractions read back wrong unless stored in UTC.
     */
    private static String formatOptions(String format) {
        switch (format) {
            case "csv":
                return ", 'csv.null-literal' = '\\N'";
            case "parquet":
                return ", 'parquet.utc-timezone' = 'true'";
            default:
                return "";
        }
    }

    private static String table(String name, String format, Path path) {
        return "CREATE TABLE " + name + " (id INT, name STRING, price DOUBLE, amount DECIMAL(10, 2), ok BOOLEAN, "
                + "d DATE, ts TIMESTAMP(3), dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'sluice', "
                + "'target' = 'filesystem', 'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "', "
                + "'path' = '" + path + "', 'format' = '" + format + "'" + formatOptions(format) + ")";
    }

    private static final String VALUES = "VALUES "
            + "(1, 'a', 1.5, 10.25, TRUE, DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00.123', '2024-01-01'), "
            + "(2, CAST(NULL AS STRING), 2.5, CAST(NULL AS DECIMAL(10, 2)), FALSE, DATE '2024-01-02', "
            + "TIMESTAMP '2024-01-02 11:30:00', '2024-01-01'), "
            + "(3, 'c', CAST(NULL AS DOUBLE), 3.00, CAST(NULL AS BOOLEAN), CAST(NULL AS DATE), "
            + "CAST(NULL AS TIMESTAMP(3)), '2024-01-02'), "
            + "(4, 'd', 4.5, 4.50, TRUE, DATE '1969-12-31', TIMESTAMP '1969-12-31 23:59:59.999', CAST(NULL AS STRING))";

    @ParameterizedTest
    @ValueSource(strings = {"csv", "json", "parquet"})
    void whatTheSinkWroteReadsBackEqual(String format) throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql(table("t", format, tmp.resolve("t")));
        tEnv.executeSql("CREATE TEMPORARY VIEW expected AS SELECT * FROM (" + VALUES + ") "
                + "AS v(id, name, price, amount, ok, d, ts, dt)");
        tEnv.executeSql("INSERT INTO t SELECT * FROM expected").await();

        List<String> read = collect(tEnv, "SELECT * FROM t");
        List<String> expected = collect(tEnv, "SELECT * FROM expected");
        assertThat(read).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void partitionPruningReadsOnlyTheKeptPartitions() throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql(table("t", "csv", tmp.resolve("t")));
        tEnv.executeSql("INSERT INTO t " + VALUES).await();
        // a file in a pruned partition that cannot be parsed proves it is never opened
        Files.write(
                tmp.resolve("t").resolve("dt=2024-01-02").resolve("garbage.csv"),
                "not,a,valid,row,for,this,table,at all\n".getBytes(StandardCharsets.UTF_8));

        assertThat(collect(tEnv, "SELECT id, dt FROM t WHERE dt = '2024-01-01'"))
                .containsExactlyInAnyOrder("+I[1, 2024-01-01]", "+I[2, 2024-01-01]");
        String plan = tEnv.explainSql("SELECT id FROM t WHERE dt = '2024-01-01'");
        assertThat(plan).contains("partitions=[{dt=2024-01-01}]");
    }

    /**
     * A continuous SQL read with a filter on the partition column takes the partitions that match
     * it when they appear after the job started, and none that does not: the planner must not
     * prune to the directories of planning time (the filter stays in the plan, no
     * {@code partitions=} on the source). One source reader, so a partition that appeared before
     * the last one is read before it.
     */
    @Test
    void aContinuousReadWithAPartitionFilterReadsMatchingPartitionsAddedLater() throws Exception {
        Path t = tmp.resolve("t");
        addPartitionFile(t, "2024-01-01", 1);
        addPartitionFile(t, "2024-01-02", 2);
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("parallelism.default", "1");
        tEnv.executeSql("CREATE TABLE t (id INT, dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'sluice', "
                + "'target' = 'filesystem', 'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "', "
                + "'path' = '" + t + "', 'format' = 'csv', 'source.monitor-interval' = '100 ms')");
        String query = "SELECT id, dt FROM t WHERE dt >= '2024-01-02'";
        assertThat(tEnv.explainSql(query)).doesNotContain("partitions=");

        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            rows.add(it.next().toString());
            addPartitionFile(t, "2023-12-31", 3); // does not match
            addPartitionFile(t, "2024-01-03", 4);
            rows.add(it.next().toString());
            Thread.sleep(500); // a monitor cycle or more later: the next one lists a new file on its own
            addPartitionFile(t, "2024-01-04", 5);
            rows.add(it.next().toString());
        }
        assertThat(rows).containsExactly("+I[2, 2024-01-02]", "+I[4, 2024-01-03]", "+I[5, 2024-01-04]");
    }

    /** A csv file of one row in partition {@code dt}, appearing atomically as a sink's commit does. */
    private static void addPartitionFile(Path table, String dt, int id) throws Exception {
        Path dir = Files.createDirectories(table.resolve("dt=" + dt));
        Path hidden = dir.resolve(".part-" + id + ".tmp");
        Files.write(hidden, (id + "\n").getBytes(StandardCharsets.UTF_8));
        Files.move(hidden, dir.resolve("part-" + id + ".csv"), StandardCopyOption.ATOMIC_MOVE);
    }

    private static List<String> collect(TableEnvironment tEnv, String query) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        return rows;
    }

    /** Fails the job once, when the switch is on and a record passes. */
    static final AtomicBoolean FAIL_ONCE = new AtomicBoolean();

    @Test
    void continuousReadTakesEveryNewFileOnceAcrossARestart() throws Exception {
        Path in = tmp.resolve("in");
        Path out = tmp.resolve("out");
        Files.createDirectories(in);
        RowType rowType =
                RowType.of(new LogicalType[] {new BigIntType(), new VarCharType(20)}, new String[] {"id", "name"});

        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(100);
        SluiceFileSource source = SluiceFileSource.forRowData(rowType)
                .withPluginsDir(TestDistribution.pluginsDir())
                .withPath(in.toString())
                .withFormat("csv")
                .monitorContinuously(Duration.ofMillis(100))
                .build();
        SluiceSink sink = SluiceSink.forRowData(rowType)
                .withTarget("filesystem")
                .withPluginsDir(TestDistribution.pluginsDir())
                .withPath(out.toString())
                .withFormat("csv")
                .withBucketAssigner(BucketAssigners.basePath())
                .withOption("sink.rolling-policy.kind", "on-checkpoint")
                .build();
        FAIL_ONCE.set(false);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "files")
                .map(
                        row -> {
                            if (row.getLong(0) == 1000 && FAIL_ONCE.compareAndSet(true, false)) {
                                throw new IllegalStateException("injected failure at record 1000");
                            }
                            return row;
                        },
                        InternalTypeInfo.of(rowType))
                .sinkTo(sink);
        JobClient job = env.executeAsync("continuous file source");
        try {
            FAIL_ONCE.set(true);
            int files = 20;
            int rowsPerFile = 100;
            for (int f = 0; f < files; f++) {
                StringBuilder content = new StringBuilder();
                for (int r = 0; r < rowsPerFile; r++) {
                    long id = (long) f * rowsPerFile + r + 1;
                    content.append(id).append(",n").append(id).append('\n');
                }
                // appear atomically, as a sink's commit does: a hidden file renamed into place
                Path hidden = in.resolve(".file-" + f + ".tmp");
                Files.write(hidden, content.toString().getBytes(StandardCharsets.UTF_8));
                Files.move(hidden, in.resolve("file-" + f + ".csv"), StandardCopyOption.ATOMIC_MOVE);
                Thread.sleep(100);
            }
            long deadline = System.currentTimeMillis() + 60_000;
            while (CommittedFiles.lines(out).size() < files * rowsPerFile && System.currentTimeMillis() < deadline) {
                Thread.sleep(200);
            }
            Thread.sleep(1000); // anything duplicated would show up by now
        } finally {
            job.cancel().get();
        }
        assertThat(FAIL_ONCE.get()).as("the failure was injected").isFalse();
        List<Long> ids = CommittedFiles.lines(out).stream()
                .map(l -> Long.parseLong(l.split(",")[0]))
                .collect(Collectors.toList());
        assertThat(ids).hasSize(2000);
        assertThat(ids.stream().distinct().count()).isEqualTo(2000);
    }
}
