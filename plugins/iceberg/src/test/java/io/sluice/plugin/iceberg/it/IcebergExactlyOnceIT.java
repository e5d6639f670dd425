package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.SinkValidation;
import io.sluice.runtime.sink.SluiceSink;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once into Iceberg under failure: a numbered sequence is written by a STREAMING job with
 * parallelism 2 and 200 ms checkpoints into a partitioned table that the Iceberg API created, and
 * the job is failed on purpose once: in the job before anything was committed, inside the commit
 * before or right after Iceberg committed, or in the job right after a checkpoint was committed and
 * before the next one completed. After the restarts the table holds every number exactly once,
 * every snapshot is one checkpoint of the job, recorded in its summary, no checkpoint is committed
 * twice, and in the two cases that restore from a checkpoint whose commit already happened the
 * committer was indeed handed that checkpoint again (the test plugin {@code chaos-iceberg} in front
 * of the {@code iceberg} target records every request).
 */
@Tag("both-lines")
class IcebergExactlyOnceIT {

    private static final int PARALLELISM = 2;
    private static final long COUNT = 6_000;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    private static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(false, 10)}, new String[] {"id", "bucket"});

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    /**
     * Every case, run {@code sluice.it.rounds} times (default 2): a failure that shows up once in
     * a few runs (an upstream sink lost one writer's files in 6 of 26 runs) should not slip through.
     */
    static Stream<Arguments> cases() {
        int rounds = Integer.getInteger("sluice.it.rounds", 2);
        String[] failures = {"writer-before-first-commit", "commit-before", "commit-after", "writer-after-commit"};
        return IntStream.rangeClosed(1, rounds)
                .boxed()
                .flatMap(round -> Arrays.stream(failures).map(f -> Arguments.of(f, round)));
    }

    @ParameterizedTest(name = "fails {0} (round {1})")
    @MethodSource("cases")
    void everyRecordExactlyOnce(String failure, int round) throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        Path markers = tmp.resolve("markers");
        Table table = createTable(warehouse);

        Map<String, String> options = IcebergTables.chaosSinkOptions(warehouse, markers);
        // small files: several per subtask and checkpoint
        options.put("target-file-size-bytes", "4096");
        FailingMap failingMap = null;
        if (failure.startsWith("commit-")) {
            options.put("chaos.commit.fail", failure.substring("commit-".length()));
        } else {
            boolean afterCommit = failure.equals("writer-after-commit");
            failingMap = new FailingMap(
                    markers.resolve("writer-failed").toString(),
                    warehouse.toString(),
                    afterCommit ? COUNT / PARALLELISM / 3 : 100,
                    afterCommit);
        }
        // the DataStream path of the framework, without the file-target defaults of SluiceSinkBuilder
        SinkDescriptor descriptor = SinkDescriptor.resolve(options, ROW, List.of());
        SinkValidation.validate(descriptor);

        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(200);

        DataGeneratorSource<RowData> source = new DataGeneratorSource<>(
                i -> GenericRowData.of(i + 1, StringData.fromString("b" + (i % 3))),
                COUNT,
                RateLimiterStrategy.perSecond(3000),
                InternalTypeInfo.of(ROW));
        DataStream<RowData> stream = env.fromSource(source, WatermarkStrategy.noWatermarks(), "numbers");
        if (failingMap != null) {
            stream = stream.map(failingMap).returns(InternalTypeInfo.of(ROW));
        }
        stream.sinkTo(SluiceSink.of(descriptor));
        JobExecutionResult result = env.execute("iceberg exactly-once, fails " + failure);

        assertThat(markers.resolve(failure.startsWith("commit-") ? "commit-failed" : "writer-failed"))
                .as("the failure was injected")
                .exists();
        List<Long> requests = Files.readAllLines(markers.resolve("requests")).stream()
                .map(Long::parseLong)
                .collect(Collectors.toList());
        if (failure.equals("commit-after") || failure.equals("writer-after-commit")) {
            assertThat(requests.stream().distinct().count())
                    .as("a committed checkpoint was handed over again after the restore, requests: %s", requests)
                    .isLessThan(requests.size());
        }
        List<Long> ids = IcebergTables.records(table).stream()
                .map(r -> (Long) r.getField("id"))
                .collect(Collectors.toList());
        assertThat(ids)
                .as(() -> "snapshots: "
                        + IcebergTables.snapshots(table).stream()
                                .map(Snapshot::summary)
                                .collect(Collectors.toList()))
                .hasSize((int) COUNT);
        assertThat(ids.stream().distinct().count()).isEqualTo(COUNT);
        assertThat(ids.stream().mapToLong(Long::longValue).min().getAsLong()).isEqualTo(1);
        assertThat(ids.stream().mapToLong(Long::longValue).max().getAsLong()).isEqualTo(COUNT);
        assertThat(IcebergTables.records(table))
                .extracting(r -> r.getField("bucket"))
                .containsOnly("b0", "b1", "b2");

        List<Snapshot> snapshots = IcebergTables.snapshots(table);
        assertThat(snapshots).as("one snapshot per checkpoint that had data").hasSizeGreaterThan(1);
        String jobId = result.getJobID().toHexString();
        assertThat(snapshots)
                .allSatisfy(s -> assertThat(s.summary())
                        .containsEntry("flink.job-id", jobId)
                        .containsKeys("flink.operator-id", "flink.max-committed-checkpoint-id"));
        assertThat(snapshots.stream()
                        .map(s -> s.summary().get("flink.operator-id"))
                        .distinct())
                .hasSize(1);
        List<Long> checkpoints = snapshots.stream()
                .map(s -> Long.parseLong(s.summary().get("flink.max-committed-checkpoint-id")))
                .collect(Collectors.toList());
        assertThat(checkpoints)
                .as("each checkpoint committed once, in order")
                .isSorted()
                .doesNotHaveDuplicates();
    }

    /** A table partitioned by {@code bucket}, created with the Iceberg API as another tool would. */
    private static Table createTable(Path warehouse) {
        Schema schema = new Schema(
                Types.NestedField.optional(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "bucket", Types.StringType.get()));
        try (HadoopCatalog catalog = IcebergTables.catalog(warehouse)) {
            return catalog.createTable(
                    TableIdentifier.of(Namespace.of("db"), "numbers"),
                    schema,
                    PartitionSpec.builderFor(schema).identity("bucket").build());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Fails the job once, in whichever subtask claims the failure first (a marker file remembers
     * that it failed). Without {@code afterCommit}: at its {@code afterRecords}-th record. With it:
     * at the first checkpoint n completed after {@code afterRecords} records whose barrier was the
     * last this subtask saw, it holds its next record until the commit of n is in the table and then
     * fails. Holding the record keeps the barrier of n+1 out of this subtask, so checkpoint n+1
     * cannot complete: the restore is from n, whose committed checkpoint comes to the committer
     * again. Test code: lives in the job, not in the plugin.
     */
    static final class FailingMap extends RichMapFunction<RowData, RowData>
            implements CheckpointListener, CheckpointedFunction {
        private static final long serialVersionUID = 1L;

        private final String marker;
        private final TableLoad table;
        private final long afterRecords;
        private final boolean afterCommit;
        private transient long count;
        private transient long lastBarrier;
        private transient long failAfterCommitOf;

        /** Loads the table the job writes, in the job's JVM; a lambda the job graph carries. */
        interface TableLoad extends java.io.Serializable {
            Table load();
        }

        /** On {@code db.numbers} of the Hadoop catalog in the local {@code warehouse}. */
        FailingMap(String marker, String warehouse, long afterRecords, boolean afterCommit) {
            this(marker, () -> IcebergTables.load(Path.of(warehouse), "db", "numbers"), afterRecords, afterCommit);
        }

        /** On the table {@code table} loads, of any catalog. */
        FailingMap(String marker, TableLoad table, long afterRecords, boolean afterCommit) {
            this.marker = marker;
            this.table = table;
            this.afterRecords = afterRecords;
            this.afterCommit = afterCommit;
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {
            lastBarrier = -1;
            failAfterCommitOf = -1;
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {
            lastBarrier = context.getCheckpointId();
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws IOException {
            if (afterCommit
                    && failAfterCommitOf < 0
                    && count >= afterRecords
                    && lastBarrier == checkpointId
                    && claim()) {
                failAfterCommitOf = checkpointId;
            }
        }

        @Override
        public RowData map(RowData row) throws Exception {
            count++;
            if (failAfterCommitOf >= 0) {
                awaitCommitted(failAfterCommitOf);
                throw new IOException("chaos: injected failure in the job right after checkpoint " + failAfterCommitOf
                        + " was committed, before the next one completed");
            }
            if (!afterCommit && count >= afterRecords && claim()) {
                throw new IOException("chaos: injected failure in the job after " + count + " records");
            }
            return row;
        }

        private boolean claim() throws IOException {
            Path path = Path.of(marker);
            if (Files.exists(path)) {
                return false;
            }
            Files.createDirectories(path.getParent());
            try {
                Files.createFile(path);
                return true;
            } catch (FileAlreadyExistsException otherSubtask) {
                return false;
            }
        }

        private void awaitCommitted(long checkpointId) throws InterruptedException {
            long deadline = System.currentTimeMillis() + 30_000;
            while (System.currentTimeMillis() < deadline) {
                Snapshot head;
                try {
                    head = table.load().currentSnapshot();
                } catch (RuntimeException storeFault) {
                    // a store under injected faults: ask again
                    Thread.sleep(10);
                    continue;
                }
                if (head != null
                        && Long.parseLong(head.summary().getOrDefault("flink.max-committed-checkpoint-id", "-1"))
                                >= checkpointId) {
                    return;
                }
                Thread.sleep(10);
            }
        }
    }
}
