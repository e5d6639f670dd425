package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.sink.RangeShuffleFaults;
import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.SinkValidation;
import io.sluice.runtime.sink.SluiceSink;
import io.sluice.testshared.FailoverCluster;
import io.sluice.testshared.campaign.Pacer;
import io.sluice.testshared.campaign.SkewedNumberSource;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once into Iceberg with {@code distribution-mode} {@code range}: a numbered sequence over
 * 20 skewed partitions, STREAMING, parallelism 2, 200 ms checkpoints, failed once in the
 * statistics operator, in the writer (the {@code chaos-iceberg} test plugin) or in the
 * coordinator's aggregation, at a point drawn from a printed seed. After the restart Iceberg's
 * generic reader finds every number once, and every snapshot is a distinct checkpoint of the job.
 */
class IcebergRangeExactlyOnceIT {

    private static final int PARALLELISM = 2;
    private static final long COUNT = 6_000;

    @RegisterExtension
    static final FailoverCluster MINI_CLUSTER = new FailoverCluster(4);

    private static final RowType ROW =
            RowType.of(new LogicalType[] {new BigIntType(false), new VarCharType(false, 10)}, new String[] {"id", "p"});

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    @AfterEach
    void clearFaults() {
        RangeShuffleFaults.clear();
    }

    @ParameterizedTest(name = "fails in the {0}")
    @ValueSource(strings = {"statistics-operator", "writer", "coordinator"})
    void everyRecordExactlyOnce(String failure) throws Exception {
        long seed = Long.getLong("sluice.it.seed", System.nanoTime());
        System.out.println(
                "IcebergRangeExactlyOnceIT " + failure + " seed " + seed + " (-Dsluice.it.seed=" + seed + ")");
        Random random = new Random(seed);
        Path warehouse = tmp.resolve("warehouse");
        Path markers = tmp.resolve("markers");
        Table table = createTable(warehouse);

        Map<String, String> options = IcebergTables.chaosSinkOptions(warehouse, markers);
        options.put("distribution-mode", "range");
        long failAt = COUNT / 4 + random.nextInt((int) (COUNT / 2));
        int failAtAggregation = 2 + random.nextInt(3);
        AtomicLong shuffled = new AtomicLong();
        AtomicLong aggregations = new AtomicLong();
        AtomicBoolean failed = new AtomicBoolean();
        RangeShuffleFaults faults = new RangeShuffleFaults().onRecord(() -> {
            if (shuffled.incrementAndGet() == failAt
                    && failure.equals("statistics-operator")
                    && failed.compareAndSet(false, true)) {
                throw new IllegalStateException("chaos: injected failure in the statistics operator");
            }
        });
        if (failure.equals("coordinator")) {
            faults.onAggregation(() -> {
                if (aggregations.incrementAndGet() == failAtAggregation && failed.compareAndSet(false, true)) {
                    throw new IllegalStateException("chaos: injected failure in the coordinator's aggregation");
                }
            });
        }
        if (failure.equals("writer")) {
            options.put("chaos.writer.fail-after-records", String.valueOf(failAt / PARALLELISM));
        }
        SinkDescriptor descriptor = SinkDescriptor.resolve(options, ROW, List.of());
        SinkValidation.validate(descriptor);

        StreamExecutionEnvironment env = MINI_CLUSTER.restartingEnvironment(PARALLELISM, 200);
        DataGeneratorSource<RowData> source = new DataGeneratorSource<>(
                new SkewedRows(seed, 20),
                COUNT,
                // paced by checkpoints, not by the clock: at least 12 cycles however loaded the
                // machine, so the aggregation the coordinator fails at (the 2nd to 4th) comes
                RateLimiterStrategy.perCheckpoint((int) (COUNT / 12)),
                InternalTypeInfo.of(ROW));
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "numbers")
                .sinkTo(faults.into(SluiceSink.of(descriptor)));
        String jobId = env.execute("iceberg range exactly-once, fails in the " + failure)
                .getJobID()
                .toHexString();

        if (failure.equals("writer")) {
            assertThat(Files.exists(markers.resolve("writer-failed")))
                    .as("the failure was injected")
                    .isTrue();
        } else {
            assertThat(failed).as("the failure was injected").isTrue();
        }
        assertThat(shuffled.get()).as("rows through the range shuffle").isGreaterThanOrEqualTo(COUNT);
        List<Long> ids = IcebergTables.records(table).stream()
                .map(r -> (Long) r.getField("id"))
                .collect(Collectors.toList());
        assertThat(ids).hasSize((int) COUNT);
        assertThat(ids.stream().distinct().count()).isEqualTo(COUNT);
        assertThat(ids.stream().mapToLong(Long::longValue).min().getAsLong()).isEqualTo(1);
        assertThat(ids.stream().mapToLong(Long::longValue).max().getAsLong()).isEqualTo(COUNT);
        List<Snapshot> snapshots = IcebergTables.snapshots(table);
        assertThat(snapshots).allSatisfy(s -> assertThat(s.summary()).containsEntry("flink.job-id", jobId));
        assertThat(snapshots.stream()
                        .map(s -> Long.parseLong(s.summary().get("flink.max-committed-checkpoint-id")))
                        .collect(Collectors.toList()))
                .as("each checkpoint committed once, in order")
                .isSorted()
                .doesNotHaveDuplicates();
    }

    /**
     * One source subtask has a single row, the other 1500 at 500 a second: the first finishes at
     * once, and the checkpoints (so the commits) go on while the second runs alone. The range
     * shuffle is chained to the source, so its state decides: Flink aborts every checkpoint of a
     * vertex with union list state while part of it has finished, and the rows would all wait for
     * the final checkpoint.
     */
    @Test
    void aSubtaskAtTheEndOfItsInputDoesNotHoldUpTheCommits() throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        Table table = createTable(warehouse);
        Map<String, String> options = IcebergTables.chaosSinkOptions(warehouse, tmp.resolve("markers"));
        options.put("distribution-mode", "range");
        SinkDescriptor descriptor = SinkDescriptor.resolve(options, ROW, List.of());
        SinkValidation.validate(descriptor);
        // the second split runs alone for about 10 s: long enough for several checkpoints on a busy machine
        long[] splits = {1, 3000};
        String runId = UUID.randomUUID().toString();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(100);
        env.fromSource(new SkewedNumberSource(splits), WatermarkStrategy.noWatermarks(), "numbers")
                .map(new Pacer(runId, SkewedNumberSource.splitEnds(splits), 300, false))
                .returns(org.apache.flink.api.common.typeinfo.Types.LONG)
                .map(new LastRowClock(runId, 3001))
                .returns(org.apache.flink.api.common.typeinfo.Types.LONG)
                .map(i -> (RowData) GenericRowData.of(i, StringData.fromString("p" + i % 20)))
                .returns(InternalTypeInfo.of(ROW))
                .sinkTo(SluiceSink.of(descriptor));
        env.execute("iceberg range, one subtask finishes first");
        Pacer.forget(runId);
        long lastRowMillis = LastRowClock.SEEN.remove(runId);

        List<Long> ids = IcebergTables.records(table).stream()
                .map(r -> (Long) r.getField("id"))
                .collect(Collectors.toList());
        assertThat(ids).hasSize(3001).doesNotHaveDuplicates();
        // each checkpoint commits a snapshot of its own even when they all complete at the end
        assertThat(IcebergTables.snapshots(table).stream().filter(s -> s.timestampMillis() < lastRowMillis))
                .as("snapshots committed while the second subtask ran alone for about 10 s, 100 ms checkpoints")
                .hasSizeGreaterThanOrEqualTo(3);
    }

    /** Notes the time a row passed, in this JVM (the MiniCluster's), keyed by the run. */
    private static final class LastRowClock implements MapFunction<Long, Long> {

        private static final long serialVersionUID = 1L;
        static final Map<String, Long> SEEN = new ConcurrentHashMap<>();

        private final String runId;
        private final long row;

        LastRowClock(String runId, long row) {
            this.runId = runId;
            this.row = row;
        }

        @Override
        public Long map(Long value) {
            if (value == row) {
                SEEN.put(runId, System.currentTimeMillis());
            }
            return value;
        }
    }

    private static Table createTable(Path warehouse) {
        Schema schema = new Schema(
                Types.NestedField.optional(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "p", Types.StringType.get()));
        try (HadoopCatalog catalog = IcebergTables.catalog(warehouse)) {
            return catalog.createTable(
                    TableIdentifier.of(Namespace.of("db"), "numbers"),
                    schema,
                    PartitionSpec.builderFor(schema).identity("p").build());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
