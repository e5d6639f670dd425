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
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types.LongType;
import org.apache.iceberg.types.Types.NestedField;
import org.apache.iceberg.types.Types.StringType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One run of the iceberg target's failure campaign, on any catalog and storage: the job a seed's
 * {@link CampaignSchedule} draws (STREAMING or BATCH, parallelism 1-4, uneven and empty source
 * subtasks, checkpoint interval), append or upsert, a distribution mode, a target file size, and
 * one or several failures: in the source after a split finished, before or after Iceberg's commit
 * ({@code chaos-iceberg}), and in the job right after a checkpoint was committed. The checks read
 * the table back with Iceberg's Java API of the test class path: in append mode every number
 * exactly once; in upsert mode exactly one row per key, the last version of it (each key's
 * versions come from one source split, in order); and the snapshots: each one checkpoint of the
 * job, committed once and in order, and in append mode adding up to exactly the rows read. The
 * storage's own faults are the caller's (an S3 server's proxy).
 */
final class IcebergCampaign {

    static final List<String> FAILURES = List.of("source-after-finish", "commit", "job-after-commit");
    private static final int RESIDUES = 37;

    private static final RowType APPEND_ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(false, 10)}, new String[] {"id", "bucket"});
    private static final RowType UPSERT_ROW =
            RowType.of(new LogicalType[] {new BigIntType(false), new BigIntType(false)}, new String[] {"id", "v"});

    /** The table each running job writes, by run: what the job's failing map polls (same JVM, MiniCluster). */
    private static final Map<String, Supplier<Table>> TABLES = new ConcurrentHashMap<>();

    final CampaignSchedule schedule;
    final boolean upsert;
    final String distribution;
    final long records;
    private final long[] ends;
    private final int targetFileSize;
    private final String commitFailure;
    private final Path markers;
    private final String runId = UUID.randomUUID().toString();

    /** Draws the run of {@code seed}; the chaos plugin and the job leave their markers under {@code markers}. */
    IcebergCampaign(long seed, Path markers) {
        // the draws keep their order: a seed's schedule stays what it was
        this.schedule = CampaignSchedule.draw(seed, FAILURES);
        this.upsert = schedule.random.nextBoolean();
        // drawn apart from the schedule, so that a seed's schedule stays what it was before
        this.distribution = new String[] {"none", "hash", "range"}[new java.util.Random(seed * 31 + 7).nextInt(3)];
        this.records = schedule.records();
        this.ends = SkewedNumberSource.splitEnds(schedule.splitSizes);
        this.targetFileSize = 2048 + schedule.random.nextInt(16384);
        this.commitFailure = schedule.fails("commit") ? (schedule.random.nextBoolean() ? "before" : "after") : null;
        this.markers = markers;
    }

    @Override
    public String toString() {
        return schedule + (upsert ? ", upsert" : ", append") + ", distribution " + distribution;
    }

    /** The key of number {@code i} in upsert mode: its split and its residue, so one split holds all its versions. */
    static long key(long i, long[] splitEnds) {
        int split = Arrays.binarySearch(splitEnds, i);
        split = split >= 0 ? split : -split - 1;
        return split * 1000L + i % RESIDUES;
    }

    /**
     * Creates the run's table in {@code catalog} with the Iceberg API, as another tool would:
     * {@code (id, bucket)} partitioned by {@code bucket} for appends, {@code (id, v)} with identifier
     * {@code id}, format 2, bucketed by {@code id}, for upserts.
     */
    Table createTable(Catalog catalog, TableIdentifier id) {
        if (catalog instanceof SupportsNamespaces) {
            SupportsNamespaces namespaces = (SupportsNamespaces) catalog;
            if (!namespaces.namespaceExists(id.namespace())) {
                namespaces.createNamespace(id.namespace());
            }
        }
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
                id, schema, PartitionSpec.builderFor(schema).identity("bucket").build());
    }

    /**
     * Runs the job into the table that {@code catalogOptions} name ({@code catalog-type}, {@code
     * warehouse} or {@code uri}, {@code catalog-database}, {@code catalog-table}) through the
     * {@code chaos-iceberg} test plugin; {@code table} loads the same table in this JVM, for the
     * failure right after a commit.
     */
    void execute(Map<String, String> catalogOptions, Supplier<Table> table, Duration restartDelay) throws Exception {
        Map<String, String> options = new HashMap<>(catalogOptions);
        options.put("sluice.plugins.dir", TestPluginsDir.get().toString());
        options.put("target", "chaos-iceberg");
        options.put("chaos.marker-dir", markers.toString());
        options.put("target-file-size-bytes", String.valueOf(targetFileSize));
        options.put("distribution-mode", distribution);
        if (upsert) {
            options.put("upsert-enabled", "true");
        }
        if (commitFailure != null) {
            options.put("chaos.commit.fail", commitFailure);
        }
        RowType rowType = upsert ? UPSERT_ROW : APPEND_ROW;
        SinkDescriptor descriptor = SinkDescriptor.resolve(options, rowType, List.of());
        SinkValidation.validate(descriptor);

        StreamExecutionEnvironment env = schedule.environment(10, restartDelay);
        long[] splitEnds = ends;
        boolean upserts = upsert;
        DataStream<RowData> rows = env.fromSource(
                        new SkewedNumberSource(schedule.splitSizes), WatermarkStrategy.noWatermarks(), "numbers")
                .map(new Pacer(runId, ends, schedule.recordsPerSecondPerSubtask, schedule.fails("source-after-finish")))
                .returns(Types.LONG)
                .map(i -> upserts
                        ? (RowData) GenericRowData.of(key(i, splitEnds), i)
                        : (RowData) GenericRowData.of(i, StringData.fromString("b" + (i % 3))))
                .returns(InternalTypeInfo.of(rowType));
        if (schedule.fails("job-after-commit")) {
            TABLES.put(runId, table);
            String run = runId;
            // right after a checkpoint was committed (STREAMING), or half-way (BATCH: no commit before the end)
            rows = rows.map(new IcebergExactlyOnceIT.FailingMap(
                            markers.resolve("job-failed").toString(),
                            () -> TABLES.get(run).get(),
                            1 + records / schedule.parallelism / 3,
                            schedule.streaming))
                    .returns(InternalTypeInfo.of(rowType));
        }
        rows.sinkTo(SluiceSink.of(descriptor));
        try {
            env.execute("iceberg campaign " + this);
        } finally {
            TABLES.remove(runId);
        }
    }

    /** The failures the schedule's plugin, source and job injected (storage faults not counted). */
    int injectedFailures() {
        int injected = (Pacer.injected(runId) ? 1 : 0)
                + (Files.exists(markers.resolve("job-failed")) ? 1 : 0)
                + (Files.exists(markers.resolve("commit-failed")) ? 1 : 0);
        Pacer.forget(runId);
        return injected;
    }

    /**
     * Checks what {@code table} (loaded after the job) holds, and records the run in the campaign
     * log under {@code target} ({@code -append} or {@code -upsert} appended).
     */
    void check(Table table, String target, int injected, String context) {
        List<Record> read = IcebergTables.records(table);
        List<Snapshot> snapshots = IcebergTables.snapshots(table);
        String described = this + "; " + context + "; snapshots " + snapshots.size();
        long lost;
        long duplicates;
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
            CampaignLog.record(target + "-upsert", schedule, injected, expected.size(), lost, duplicates);
            assertThat(lost).as("keys lost: " + described).isZero();
            assertThat(duplicates)
                    .as("keys with more than one row: " + described)
                    .isZero();
            assertThat(actual).as("the last version of every key: " + described).isEqualTo(expected);
        } else {
            Map<Long, Integer> counts = new TreeMap<>();
            read.forEach(r -> counts.merge((Long) r.getField("id"), 1, Integer::sum));
            lost = LongStream.rangeClosed(1, records)
                    .filter(i -> !counts.containsKey(i))
                    .count();
            duplicates = counts.values().stream().mapToLong(c -> c - 1).sum();
            CampaignLog.record(target + "-append", schedule, injected, records, lost, duplicates);
            assertThat(lost).as("rows lost: " + described).isZero();
            assertThat(duplicates).as("duplicates: " + described).isZero();
            assertThat(counts.keySet()).as(described).allMatch(id -> id >= 1 && id <= records);
            // the snapshots' own account: appends only, so what they added is what the table holds
            assertThat(snapshots.stream()
                            .mapToLong(s -> Long.parseLong(s.summary().getOrDefault("added-records", "0")))
                            .sum())
                    .as("rows the snapshots added: " + described)
                    .isEqualTo(records);
        }
        assertThat(snapshots)
                .as("every snapshot is a checkpoint of the job: " + described)
                .allSatisfy(
                        s -> assertThat(s.summary()).containsKeys("flink.job-id", "flink.max-committed-checkpoint-id"));
        List<Long> checkpoints = snapshots.stream()
                .map(s -> Long.parseLong(s.summary().get("flink.max-committed-checkpoint-id")))
                .collect(Collectors.toList());
        assertThat(checkpoints)
                .as("each checkpoint committed once, in order: " + described)
                .isSorted()
                .doesNotHaveDuplicates();
    }
}
