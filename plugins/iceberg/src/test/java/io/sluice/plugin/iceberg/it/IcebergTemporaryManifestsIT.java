package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.SinkValidation;
import io.sluice.runtime.sink.SluiceSink;
import io.sluice.testshared.FailoverCluster;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
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
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job whose checkpoints hand their files over in temporary manifests fails after a checkpoint's
 * manifests were written and before that checkpoint could complete, so before any committer read
 * them: after the restore the table holds every row exactly once and the table's metadata
 * directory no temporary manifest. Each writer gets rows of {@link #BUCKETS} partitions between
 * two checkpoints, a data file each, whose JSON is more than the payload carries inline: the rows
 * are wide (two text columns of {@link #NOTE} characters) and the table keeps full column metrics,
 * so each file's bounds are kilobytes. The test plugin {@code chaos-iceberg} fails a writer right
 * after the second checkpoint whose files it listed in manifests (the first one's are committed,
 * or restored and committed). The restored writers delete the manifests of the checkpoint that
 * failed, as their data files.
 */
class IcebergTemporaryManifestsIT {

    private static final int PARALLELISM = 2;

    /** Partitions each subtask writes between two checkpoints: a data file each, their JSON over 256 KB. */
    private static final int BUCKETS = 60;

    private static final long COUNT = 4L * PARALLELISM * BUCKETS;

    /**
     * Characters of each text column: its lower and upper bounds together stay under the 4 KB
     * Parquet keeps in a footer's statistics, from which Iceberg takes them.
     */
    private static final int NOTE = 1900;

    private static final RowType ROW = RowType.of(
            new LogicalType[] {
                new BigIntType(false),
                new VarCharType(false, 10),
                new VarCharType(false, NOTE),
                new VarCharType(false, NOTE)
            },
            new String[] {"id", "bucket", "a", "b"});

    @RegisterExtension
    static final FailoverCluster MINI_CLUSTER = new FailoverCluster(4);

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    @Test
    void aFailedCheckpointsManifestsAreDeletedAndEveryRowIsThereOnce() throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        Path markers = tmp.resolve("markers");
        Table table = createTable(warehouse);

        Map<String, String> options = IcebergTables.chaosSinkOptions(warehouse, markers);
        options.put("chaos.writer.fail-after-manifests", "2");
        SinkDescriptor descriptor = SinkDescriptor.resolve(options, ROW, List.of());
        SinkValidation.validate(descriptor);

        StreamExecutionEnvironment env = MINI_CLUSTER.restartingEnvironment(PARALLELISM, 200);
        // each subtask reads a range of consecutive numbers, BUCKETS of them between two checkpoints
        DataGeneratorSource<RowData> source = new DataGeneratorSource<>(
                i -> GenericRowData.of(
                        i + 1,
                        StringData.fromString("b" + (i % BUCKETS)),
                        StringData.fromString(note('a', i + 1)),
                        StringData.fromString(note('b', i + 1))),
                COUNT,
                RateLimiterStrategy.perCheckpoint(PARALLELISM * BUCKETS),
                InternalTypeInfo.of(ROW));
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "numbers").sinkTo(SluiceSink.of(descriptor));
        env.execute("iceberg temporary manifests of a failed checkpoint");

        assertThat(markers.resolve("writer-failed"))
                .as("a writer failed after handing over the manifests of its second checkpoint")
                .exists();
        Map<Long, Integer> counts = new TreeMap<>();
        List<Record> records = IcebergTables.records(table);
        records.forEach(r -> counts.merge((Long) r.getField("id"), 1, Integer::sum));
        assertThat(records).allSatisfy(r -> {
            long id = (Long) r.getField("id");
            assertThat(r.getField("bucket")).isEqualTo("b" + ((id - 1) % BUCKETS));
            assertThat(r.getField("a")).isEqualTo(note('a', id));
            assertThat(r.getField("b")).isEqualTo(note('b', id));
        });
        assertThat(counts.keySet())
                .as("every row")
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(1, COUNT).boxed().collect(Collectors.toList()));
        assertThat(counts.values()).as("each row once").containsOnly(1);
        List<Snapshot> snapshots = IcebergTables.snapshots(table);
        assertThat(snapshots.stream()
                        .mapToLong(s -> Long.parseLong(s.summary().getOrDefault("added-records", "0")))
                        .sum())
                .as("rows the snapshots added")
                .isEqualTo(COUNT);
        assertThat(temporaryManifests(table))
                .as("temporary manifests left in the table's metadata directory")
                .isEmpty();
        assertThat(IcebergTables.unreferencedLocalDataFiles(table))
                .as("data files no snapshot references")
                .isEmpty();
    }

    /** Row {@code id}'s text in column {@code column}: {@link #NOTE} characters, the id first. */
    private static String note(char column, long id) {
        StringBuilder note = new StringBuilder(NOTE).append(id).append(':');
        while (note.length() < NOTE) {
            note.append(column);
        }
        return note.toString();
    }

    private static List<String> temporaryManifests(Table table) throws Exception {
        Path metadata = Path.of(URI.create(table.location()).getPath(), "metadata");
        try (Stream<Path> files = Files.list(metadata)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(name -> name.startsWith("sluice-"))
                    .sorted()
                    .collect(Collectors.toList());
        }
    }

    /**
     * A table partitioned by {@code bucket} that keeps the full values as column bounds, created
     * with the Iceberg API as another tool would.
     */
    private static Table createTable(Path warehouse) throws Exception {
        Schema schema = new Schema(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.required(2, "bucket", Types.StringType.get()),
                Types.NestedField.required(3, "a", Types.StringType.get()),
                Types.NestedField.required(4, "b", Types.StringType.get()));
        try (HadoopCatalog catalog = IcebergTables.catalog(warehouse)) {
            return catalog.createTable(
                    TableIdentifier.of(Namespace.of("db"), "numbers"),
                    schema,
                    PartitionSpec.builderFor(schema).identity("bucket").build(),
                    Map.of(TableProperties.DEFAULT_WRITE_METRICS_MODE, "full"));
        }
    }
}
