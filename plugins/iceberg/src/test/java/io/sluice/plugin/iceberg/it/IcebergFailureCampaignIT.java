package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.SinkValidation;
import io.sluice.runtime.sink.SluiceSink;
import io.sluice.testshared.campaign.CampaignLog;
import io.sluice.testshared.campaign.CampaignSchedule;
import io.sluice.testshared.campaign.Pacer;
import io.sluice.testshared.campaign.SkewedNumberSource;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
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
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types.LongType;
import org.apache.iceberg.types.Types.NestedField;
import org.apache.iceberg.types.Types.StringType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
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
import java.util.UUID;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure campaign for the iceberg target, append and upsert, on schedules drawn from a seed
 * ({@link CampaignSchedule}: STREAMING or BATCH, parallelism 1-4, uneven and empty source
 * subtasks, checkpoint interval) with one or several failures: in the source after a split
 * finished, before or after Iceberg's commit ({@code chaos-iceberg}), and in the job right after a
 * checkpoint was committed. Iceberg's Java API reads the table back: in append mode every number
 * exactly once; in upsert mode exactly one row per key, the last version of it (each key's
 * versions come from one source split, in order).
 *
 * <p>Seeds: {@code sluice.campaign.runs} from {@code sluice.campaign.seed} (defaults: 12 from
 * 20261201); profile {@code soak} runs more.
 */
class IcebergFailureCampaignIT {

    static final List<String> FAILURES = List.of("source-after-finish", "commit", "job-after-commit");
    private static final int RESIDUES = 37;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    private static final RowType APPEND_ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(false, 10)}, new String[] {"id", "bucket"});
    private static final RowType UPSERT_ROW =
            RowType.of(new LogicalType[] {new BigIntType(false), new BigIntType(false)}, new String[] {"id", "v"});

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    static LongStream seeds() {
        long base = Long.getLong("sluice.campaign.seed", 20261201L);
        int runs = Integer.getInteger("sluice.campaign.runs", 12);
        return LongStream.range(base, base + runs);
    }

    /** The key of number {@code i} in upsert mode: its split and its residue, so one split holds all its versions. */
    static long key(long i, long[] splitEnds) {
        int split = Arrays.binarySearch(splitEnds, i);
        split = split >= 0 ? split : -split - 1;
        return split * 1000L + i % RESIDUES;
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everyRecordExactlyOnce(long seed) throws Exception {
        CampaignSchedule schedule = CampaignSchedule.draw(seed, FAILURES);
        boolean upsert = schedule.random.nextBoolean();
        // drawn apart from the schedule, so that a seed's schedule stays what it was before
        String distribution = new String[] {"none", "hash", "range"}[new java.util.Random(seed * 31 + 7).nextInt(3)];
        String described = schedule + (upsert ? ", upsert" : ", append") + ", distribution " + distribution;
        System.out.println("campaign iceberg " + described);
        String runId = UUID.randomUUID().toString();
        Path warehouse = tmp.resolve("warehouse");
        Path markers = tmp.resolve("markers");
        long records = schedule.records();
        long[] ends = SkewedNumberSource.splitEnds(schedule.splitSizes);
        Table table = createTable(warehouse, upsert);

        Map<String, String> options = IcebergTables.chaosSinkOptions(warehouse, markers);
        options.put("target-file-size-bytes", String.valueOf(2048 + schedule.random.nextInt(16384)));
        options.put("distribution-mode", distribution);
        if (upsert) {
            options.put("upsert-enabled", "true");
        }
        if (schedule.fails("commit")) {
            options.put("chaos.commit.fail", schedule.random.nextBoolean() ? "before" : "after");
        }
        RowType rowType = upsert ? UPSERT_ROW : APPEND_ROW;
        SinkDescriptor descriptor = SinkDescriptor.resolve(options, rowType, List.of());
        SinkValidation.validate(descriptor);

        StreamExecutionEnvironment env = schedule.environment(10, Duration.ofMillis(100));
        DataStream<RowData> rows = env.fromSource(
                        new SkewedNumberSource(schedule.splitSizes), WatermarkStrategy.noWatermarks(), "numbers")
                .map(new Pacer(runId, ends, schedule.recordsPerSecondPerSubtask, schedule.fails("source-after-finish")))
                .returns(Types.LONG)
                .map(i -> upsert
                        ? (RowData) GenericRowData.of(key(i, ends), i)
                        : (RowData) GenericRowData.of(i, StringData.fromString("b" + (i % 3))))
                .returns(InternalTypeInfo.of(rowType));
        if (schedule.fails("job-after-commit")) {
            // right after a checkpoint was committed (STREAMING), or half-way (BATCH: no commit before the end)
            rows = rows.map(new IcebergExactlyOnceIT.FailingMap(
                            markers.resolve("job-failed").toString(),
                            warehouse.toString(),
                            1 + records / schedule.parallelism / 3,
                            schedule.streaming))
                    .returns(InternalTypeInfo.of(rowType));
        }
        rows.sinkTo(SluiceSink.of(descriptor));
        env.execute("iceberg campaign " + described);

        int injected = (Pacer.injected(runId) ? 1 : 0)
                + (Files.exists(markers.resolve("job-failed")) ? 1 : 0)
                + (Files.exists(markers.resolve("commit-failed")) ? 1 : 0);
        Pacer.forget(runId);
        List<Record> read = IcebergTables.records(table);
        long lost;
        long duplicates;
        String context =
                described + "; snapshots " + IcebergTables.snapshots(table).size();
        if (upsert) {
            Map<Long, Long> expected = new TreeMap<>();
            for (long i = 1; i <= records; i++) {
                expected.merge(key(i, ends), i, Math::max);
            }
            Map<Long, Long> actual = new TreeMap<>();
            Map<Long, Integer> rowsPerKey = new TreeMap<>();
            for (Record r : read) {
                actual.put((Long) r.getField("id"), (Long) r.getField("v"));
                rowsPerKey.merge((Long) r.getField("id"), 1, Integer::sum);
            }
            lost = expected.keySet().stream()
                    .filter(k -> !actual.containsKey(k))
                    .count();
            duplicates = rowsPerKey.values().stream().mapToLong(c -> c - 1).sum();
            CampaignLog.record("iceberg-upsert", schedule, injected, expected.size(), lost, duplicates);
            assertThat(lost).as("keys lost: " + context).isZero();
            assertThat(duplicates).as("keys with more than one row: " + context).isZero();
            assertThat(actual).as("the last version of every key: " + context).isEqualTo(expected);
        } else {
            Map<Long, Integer> counts = new TreeMap<>();
            read.forEach(r -> counts.merge((Long) r.getField("id"), 1, Integer::sum));
            lost = LongStream.rangeClosed(1, records)
                    .filter(i -> !counts.containsKey(i))
                    .count();
            duplicates = counts.values().stream().mapToLong(c -> c - 1).sum();
            CampaignLog.record("iceberg-append", schedule, injected, records, lost, duplicates);
            assertThat(lost).as("rows lost: " + context).isZero();
            assertThat(duplicates).as("duplicates: " + context).isZero();
            assertThat(counts.keySet()).as(context).allMatch(id -> id >= 1 && id <= records);
        }
    }

    private static Table createTable(Path warehouse, boolean upsert) {
        try (HadoopCatalog catalog = IcebergTables.catalog(warehouse)) {
            TableIdentifier id = TableIdentifier.of(Namespace.of("db"), "numbers");
            if (upsert) {
                Schema schema = new Schema(
                        List.of(
                                NestedField.required(1, "id", LongType.get()),
                                NestedField.required(2, "v", LongType.get())),
                        Set.of(1));
                return catalog.createTable(
                        id,
                        schema,
                        PartitionSpec.builderFor(schema).bucket("id", 4).build(),
                        Map.of("format-version", "2"));
            }
            Schema schema = new Schema(
                    NestedField.required(1, "id", LongType.get()), NestedField.required(2, "bucket", StringType.get()));
            return catalog.createTable(
                    id,
                    schema,
                    PartitionSpec.builderFor(schema).identity("bucket").build());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
