package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.sink.TableSinkBuilder;
import io.sluice.runtime.source.scan.ScanSource;
import io.sluice.runtime.source.scan.TableSourceBuilder;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A continuous read of an Iceberg table under failure: a job (parallelism 2) reads a table that
 * upstream keeps appending to and copies it, exactly once, into another Iceberg table. One task
 * fails inside a large split, after checkpoints that fell inside it; the job restarts from the last
 * one, the readers resume inside their splits and the enumerator after its last planned snapshot.
 * The copy holds every row of the source exactly once.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@Tag("both-lines")
class IcebergStreamingReadExactlyOnceIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    private static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH)}, new String[] {"id", "note"});

    private static final int ROWS_PER_SNAPSHOT = 3000;

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    @Test
    void everyRowOnceAfterAFailureInsideASplit() throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        TableEnvironment upstream = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        upstream.getConfig().set("parallelism.default", "1"); // one data file per snapshot: one large split
        upstream.executeSql("CREATE CATALOG upstream WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', "
                + "'warehouse' = '" + warehouse.toUri() + "')");
        upstream.executeSql("CREATE DATABASE upstream.db");
        upstream.executeSql("CREATE TABLE upstream.db.src (id BIGINT, note STRING)");
        appendSnapshot(upstream, 1);

        Configuration config = new Configuration();
        config.setString("restart-strategy.type", "fixed-delay");
        config.setString("restart-strategy.fixed-delay.attempts", "5");
        config.setString("restart-strategy.fixed-delay.delay", "200 ms");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        env.setParallelism(2);
        env.enableCheckpointing(200);
        Map<String, String> catalog =
                Map.of("catalog-type", "hadoop", "warehouse", warehouse.toUri().toString());
        ScanSource source = TableSourceBuilder.forRowData()
                .target("iceberg")
                .catalog(catalog)
                .table("db", "src")
                .streaming(true) // all columns: the builder asks the table
                .streamingStartingStrategy("TABLE_SCAN_THEN_INCREMENTAL")
                .monitorInterval(Duration.ofMillis(200))
                .pluginsDir(TestPluginsDir.get())
                .build();
        FailOnce.reset(ROWS_PER_SNAPSHOT / 3);
        DataStream<RowData> rows = env.fromSource(source, WatermarkStrategy.noWatermarks(), "src")
                .uid("src")
                .map(new FailOnce())
                .returns(InternalTypeInfo.of(ROW))
                .uid("fail-once");
        TableSinkBuilder.forRowData(rows)
                .target("iceberg")
                .catalog(catalog)
                .table("db", "copy")
                .uidPrefix("copy")
                .pluginsDir(TestPluginsDir.get())
                .append();
        JobClient job = env.executeAsync("copy an iceberg table continuously");
        try {
            long failureDeadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!FailOnce.FAILED.get() && System.nanoTime() < failureDeadline) {
                Thread.sleep(50);
            }
            assertThat(FailOnce.FAILED).as("a failure was injected").isTrue();
            // committed while the job restarts: the restored enumerator plans them after its position
            appendSnapshot(upstream, 2);
            appendSnapshot(upstream, 3);
            int expected = 3 * ROWS_PER_SNAPSHOT;
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (IcebergTables.records(IcebergTables.load(warehouse, "db", "copy"))
                                    .size()
                            < expected
                    && System.nanoTime() < deadline) {
                Thread.sleep(500);
            }
            Thread.sleep(1500); // a few more checkpoints: nothing more may arrive
        } finally {
            job.cancel().get();
        }

        List<Long> ids = IcebergTables.records(IcebergTables.load(warehouse, "db", "copy")).stream()
                .map(r -> (Long) r.getField("id"))
                .sorted()
                .collect(Collectors.toList());
        assertThat(ids)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, 3L * ROWS_PER_SNAPSHOT)
                        .boxed()
                        .collect(Collectors.toList()));
        List<Record> copied = IcebergTables.records(IcebergTables.load(warehouse, "db", "copy"));
        assertThat(copied).allSatisfy(r -> assertThat(r.getField("note")).isEqualTo("n" + r.getField("id")));
        assertThat(FailOnce.failedAt)
                .as("the failure came inside the first snapshot's split")
                .isLessThan(ROWS_PER_SNAPSHOT);
        assertThat(FailOnce.SEEN.get()).as("rows seen, re-read ones included").isGreaterThan(3 * ROWS_PER_SNAPSHOT);
    }

    /** Appends snapshot {@code n}: ids {@code (n-1)*3000+1 .. n*3000}, one data file. */
    private static void appendSnapshot(TableEnvironment tEnv, int n) throws Exception {
        String gen = "gen" + n;
        tEnv.executeSql("CREATE TEMPORARY TABLE " + gen + " (id BIGINT) WITH ('connector' = 'datagen', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '" + ((n - 1) * ROWS_PER_SNAPSHOT + 1) + "', "
                + "'fields.id.end' = '" + (n * ROWS_PER_SNAPSHOT) + "', 'number-of-rows' = '" + ROWS_PER_SNAPSHOT
                + "')");
        tEnv.executeSql("INSERT INTO upstream.db.src SELECT id, CONCAT('n', CAST(id AS STRING)) FROM " + gen)
                .await();
    }

    /**
     * Passes rows on, slowly enough (1 ms a row) for checkpoints to fall inside a split, and fails
     * once: at the first row after two checkpoints have completed and a third of a snapshot's rows
     * have passed, so the restore starts inside the first split. The test's JVM runs the tasks, so
     * static state is shared with them.
     */
    static final class FailOnce implements MapFunction<RowData, RowData>, CheckpointListener {
        static final AtomicInteger SEEN = new AtomicInteger();
        static final AtomicInteger CHECKPOINTS = new AtomicInteger();
        static final AtomicBoolean FAILED = new AtomicBoolean();
        static volatile int failedAt;
        private static volatile int failAfter;

        static void reset(int after) {
            SEEN.set(0);
            CHECKPOINTS.set(0);
            FAILED.set(false);
            failedAt = 0;
            failAfter = after;
        }

        @Override
        public RowData map(RowData row) throws Exception {
            int seen = SEEN.incrementAndGet();
            Thread.sleep(1);
            if (seen >= failAfter && CHECKPOINTS.get() >= 2 && FAILED.compareAndSet(false, true)) {
                failedAt = seen;
                throw new IllegalStateException("failure injected after " + seen + " rows");
            }
            return row;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            CHECKPOINTS.incrementAndGet();
        }
    }
}
