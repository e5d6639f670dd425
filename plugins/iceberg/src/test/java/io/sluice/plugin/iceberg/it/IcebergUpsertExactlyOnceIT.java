package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.SinkValidation;
import io.sluice.runtime.sink.SluiceSink;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
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
import org.apache.flink.types.RowKind;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once upserts under failure: a keyed changelog (15 versions of each of 200 keys,
 * inserts, updates and deletes, some keys deleted and inserted again, a fifth of them deleted at the
 * end) is written by a STREAMING job with parallelism 2 and 200 ms checkpoints into a format v2
 * table with identifier field {@code id}, partitioned by {@code bucket(4, id)}, and the job is
 * failed once: in the job before anything was committed, inside the commit before or right after
 * Iceberg committed ({@code chaos-iceberg}), or in the job right after a checkpoint was committed.
 * After the restarts the table holds exactly the last version of every key that was not deleted,
 * each checkpoint committed once; the replayed rows, upserted again, changed nothing.
 */
@Tag("both-lines")
class IcebergUpsertExactlyOnceIT {

    private static final int PARALLELISM = 2;
    private static final int KEYS = 200;
    private static final int VERSIONS = 15;
    private static final long COUNT = (long) KEYS * VERSIONS;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    private static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)},
            new String[] {"id", "version", "payload"});

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    static Stream<Arguments> cases() {
        int rounds = Integer.getInteger("sluice.it.rounds", 2);
        String[] failures = {"writer-before-first-commit", "commit-before", "commit-after", "writer-after-commit"};
        return IntStream.rangeClosed(1, rounds)
                .boxed()
                .flatMap(round -> Arrays.stream(failures).map(f -> Arguments.of(f, round)));
    }

    /** Event {@code i}: version {@code i / KEYS} of key {@code i % KEYS}. */
    static RowData event(long i) {
        long key = i % KEYS;
        long version = i / KEYS;
        GenericRowData row = GenericRowData.of(key, version, StringData.fromString("k" + key + "v" + version));
        if (deleted(key, version)) {
            row.setRowKind(RowKind.DELETE);
        } else {
            row.setRowKind(version == 0 || deleted(key, version - 1) ? RowKind.INSERT : RowKind.UPDATE_AFTER);
        }
        return row;
    }

    /** Every third key is deleted at version 7 (and inserted again at 8), every fifth at its last version. */
    private static boolean deleted(long key, long version) {
        return (version == 7 && key % 3 == 0) || (version == VERSIONS - 1 && key % 5 == 0);
    }

    @ParameterizedTest(name = "fails {0} (round {1})")
    @MethodSource("cases")
    void lastVersionOfEveryKeyExactlyOnce(String failure, int round) throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        Path markers = tmp.resolve("markers");
        Table table = createTable(warehouse);

        Map<String, String> options = IcebergTables.chaosSinkOptions(warehouse, markers);
        options.put("upsert-enabled", "true");
        IcebergExactlyOnceIT.FailingMap failingMap = null;
        if (failure.startsWith("commit-")) {
            options.put("chaos.commit.fail", failure.substring("commit-".length()));
        } else {
            boolean afterCommit = failure.equals("writer-after-commit");
            failingMap = new IcebergExactlyOnceIT.FailingMap(
                    markers.resolve("writer-failed").toString(),
                    warehouse.toString(),
                    afterCommit ? COUNT / PARALLELISM / 6 : 100,
                    afterCommit);
        }
        // the table's identifier field is the key: no primary key needed on the sink
        SinkDescriptor descriptor = SinkDescriptor.resolve(options, ROW, List.of());
        SinkValidation.validate(descriptor);

        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(200);

        // 3 s of input: time for checkpoints after the first sixth, also on a loaded machine
        DataGeneratorSource<RowData> source = new DataGeneratorSource<>(
                IcebergUpsertExactlyOnceIT::event,
                COUNT,
                RateLimiterStrategy.perSecond(1000),
                InternalTypeInfo.of(ROW));
        // one source subtask keeps the versions of a key in order; keyed by id, every version of a
        // key reaches the same writer, as upsert needs (Iceberg's sink keys by the equality fields)
        DataStream<RowData> stream = env.fromSource(source, WatermarkStrategy.noWatermarks(), "changelog")
                .setParallelism(1)
                .keyBy(row -> row.getLong(0));
        if (failingMap != null) {
            stream = stream.map(failingMap).returns(InternalTypeInfo.of(ROW)).keyBy(row -> row.getLong(0));
        }
        stream.sinkTo(SluiceSink.of(descriptor));
        JobExecutionResult result = env.execute("iceberg upsert exactly-once, fails " + failure);

        assertThat(markers.resolve(failure.startsWith("commit-") ? "commit-failed" : "writer-failed"))
                .as("the failure was injected")
                .exists();
        if (failure.equals("commit-after") || failure.equals("writer-after-commit")) {
            List<Long> requests = Files.readAllLines(markers.resolve("requests")).stream()
                    .map(Long::parseLong)
                    .collect(Collectors.toList());
            assertThat(requests.stream().distinct().count())
                    .as("a committed checkpoint was handed over again after the restore, requests: %s", requests)
                    .isLessThan(requests.size());
        }

        Map<Long, Long> expected = new TreeMap<>();
        for (long key = 0; key < KEYS; key++) {
            if (!deleted(key, VERSIONS - 1)) {
                expected.put(key, (long) VERSIONS - 1);
            }
        }
        List<Record> records = IcebergTables.records(table);
        Map<Long, Long> actual = new TreeMap<>();
        for (Record r : records) {
            actual.merge((Long) r.getField("id"), (Long) r.getField("version"), (a, b) -> -1L);
        }
        List<Snapshot> snapshots = IcebergTables.snapshots(table);
        assertThat(records)
                .as(() -> "snapshots: "
                        + snapshots.stream().map(Snapshot::summary).collect(Collectors.toList()))
                .hasSize(expected.size());
        assertThat(actual).isEqualTo(expected);
        assertThat(records)
                .allSatisfy(r -> assertThat(r.getField("payload")).isEqualTo("k" + r.getField("id") + "v14"));

        assertThat(snapshots).as("one snapshot per checkpoint that had data").hasSizeGreaterThan(1);
        String jobId = result.getJobID().toHexString();
        assertThat(snapshots).allSatisfy(s -> assertThat(s.summary()).containsEntry("flink.job-id", jobId));
        List<Long> checkpoints = snapshots.stream()
                .map(s -> Long.parseLong(s.summary().get("flink.max-committed-checkpoint-id")))
                .collect(Collectors.toList());
        assertThat(checkpoints)
                .as("each checkpoint committed once, in order")
                .isSorted()
                .doesNotHaveDuplicates();
        assertThat(snapshots.stream()
                        .mapToLong(s -> Long.parseLong(s.summary().getOrDefault("added-delete-files", "0")))
                        .sum())
                .as("updates across checkpoints are equality deletes")
                .isPositive();
    }

    /** Format v2, identifier field {@code id}, partitioned by {@code bucket(4, id)}: what an upsert table looks like. */
    private static Table createTable(Path warehouse) {
        Schema schema = new Schema(
                List.of(
                        Types.NestedField.required(1, "id", Types.LongType.get()),
                        Types.NestedField.required(2, "version", Types.LongType.get()),
                        Types.NestedField.optional(3, "payload", Types.StringType.get())),
                Set.of(1));
        try (HadoopCatalog catalog = IcebergTables.catalog(warehouse)) {
            return catalog.createTable(
                    TableIdentifier.of(Namespace.of("db"), "numbers"),
                    schema,
                    PartitionSpec.builderFor(schema).bucket("id", 4).build(),
                    Map.of("format-version", "2"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
