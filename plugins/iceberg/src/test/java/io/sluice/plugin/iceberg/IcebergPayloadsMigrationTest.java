package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.spi.source.PlannedSplit;
import io.sluice.spi.source.ScanPlan;
import io.sluice.spi.source.ScanPlanner;
import io.sluice.testkit.TestSinkContext;
import io.sluice.testshared.CheckedInBytes;

import org.apache.flink.types.RowKind;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;
import org.apache.iceberg.flink.source.split.IcebergSourceSplitSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The iceberg plugin's payloads stay readable in every version they were written in: pending
 * files ({@code pending-files-migration/}: {@code one-data-manifest} written by a writer of three
 * rows into {@code db.t} of a warehouse under {@code /tmp/sluice-payload-v1}, {@code
 * data-and-deletes} by {@link #writeCurrentVersions}), scan splits ({@code
 * scan-split-payload-migration/}: upstream's {@link IcebergSourceSplitSerializer} bytes, its
 * version the payload's) and bounded-read positions ({@code scan-position-migration/bounded}).
 * Streaming positions are upstream's own; {@code
 * org.apache.iceberg.flink.source.enumerator.SluicePositionPayloadMigrationTest} reads them.
 *
 * <p>The bytes of {@link #writeCurrentVersions} come from tables under {@code
 * /tmp/sluice-migration/iceberg-v1/warehouse}: {@code upsert/db/t} keyed by {@code id} (rows 1 and
 * 2 inserted, 1 deleted, in one checkpoint), {@code plain/db/t} (rows 1 to 3, one snapshot).
 */
class IcebergPayloadsMigrationTest {

    static final String GENERATED = "/tmp/sluice-migration/iceberg-v1/warehouse";

    @TempDir
    Path warehouse;

    @Test
    void pendingFilesOfOneDataManifestReadToTheirManifest() throws IOException {
        Payload checkedIn = new Payload(1, CheckedInBytes.read("pending-files-migration/one-data-manifest/v1.b64"));
        PendingFiles files = PendingFiles.of(checkedIn);

        assertThat(files.manifests()).hasSize(1);
        ManifestFile m = files.manifests().get(0);
        assertThat(m.path())
                .startsWith(
                        "file:/tmp/sluice-payload-v1/warehouse/db/t/metadata/sluice-0000000000000000000000000000000a-00000-")
                .endsWith("-00001-data.avro");
        assertThat(m.length()).isEqualTo(7018);
        assertThat(m.content()).isEqualTo(ManifestContent.DATA);
        assertThat(m.partitionSpecId()).isZero();
        assertThat(m.addedFilesCount()).isEqualTo(1);
        assertThat(m.addedRowsCount()).isEqualTo(3);
        assertThat(files.inlineFiles())
                .as("version 1 lists every file in a manifest")
                .isZero();
        // written again in the current version, it is the same manifest
        PendingFiles again = PendingFiles.of(files.toPayload());
        assertThat(again.manifests().get(0).path()).isEqualTo(m.path());
        assertThat(again.manifests().get(0).length()).isEqualTo(7018);
        assertThat(again.inlineFiles()).isZero();
    }

    @Test
    void pendingFilesOfDataAndDeletesReadToTheirManifests() throws IOException {
        Payload checkedIn = new Payload(1, CheckedInBytes.read("pending-files-migration/data-and-deletes/v1.b64"));
        PendingFiles files = PendingFiles.of(checkedIn);

        assertThat(files.manifests())
                .extracting(ManifestFile::content)
                .containsExactly(ManifestContent.DATA, ManifestContent.DELETES);
        String metadata = "file:" + GENERATED + "/upsert/db/t/metadata/sluice-" + IcebergSinks.JOB
                + "-00000-69601a3d-7f59-46ef-9013-6cb2022c2c2c-";
        ManifestFile data = files.manifests().get(0);
        assertThat(data.path()).isEqualTo(metadata + "00001-data.avro");
        assertThat(data.length()).isEqualTo(7049);
        assertThat(data.partitionSpecId()).isZero();
        assertThat(data.addedFilesCount()).isEqualTo(1);
        assertThat(data.addedRowsCount()).isEqualTo(2);
        ManifestFile deletes = files.manifests().get(1);
        assertThat(deletes.path()).isEqualTo(metadata + "00002-deletes.avro");
        assertThat(deletes.length()).isEqualTo(7104);
        assertThat(deletes.partitionSpecId()).isZero();
        // upsert: an equality delete per inserted key, and the position of the row deleted after its insert
        assertThat(deletes.addedFilesCount()).isEqualTo(2);
        assertThat(deletes.addedRowsCount()).isEqualTo(3);
        assertThat(PendingFiles.of(files.toPayload()).manifests())
                .extracting(ManifestFile::path)
                .containsExactly(data.path(), deletes.path());
    }

    /**
     * Version 2 carries the files themselves: read into a table of the same schema, they are the
     * writer's data file and its two delete files, and the payload writes back to its bytes.
     */
    @Test
    void pendingFilesOfVersion2CarryTheirManifests() throws IOException {
        Payload checkedIn = new Payload(2, CheckedInBytes.read("pending-files-migration/data-and-deletes/v2.b64"));
        PendingFiles files = PendingFiles.of(checkedIn);

        assertThat(files.manifests()).as("no temporary manifests").isEmpty();
        assertThat(files.inlineFiles()).isEqualTo(3);
        org.apache.iceberg.Table table;
        try (org.apache.iceberg.hadoop.HadoopCatalog catalog =
                io.sluice.plugin.iceberg.it.IcebergTables.catalog(warehouse)) {
            table = catalog.createTable(
                    org.apache.iceberg.catalog.TableIdentifier.of("db", "t"),
                    org.apache.iceberg.flink.FlinkSchemaUtil.convert(
                            org.apache.iceberg.flink.FlinkSchemaUtil.toResolvedSchema(IcebergUpsertTest.KEYED)),
                    org.apache.iceberg.PartitionSpec.unpartitioned(),
                    java.util.Map.of("format-version", "2"));
        }
        List<org.apache.iceberg.DataFile> data = new ArrayList<>();
        List<org.apache.iceberg.DeleteFile> deletes = new ArrayList<>();
        files.readInto(table, data, deletes);
        assertThat(data).hasSize(1);
        assertThat(data.get(0).location())
                .startsWith("file:" + GENERATED + "/upsert/db/t/data/")
                .endsWith(".parquet");
        assertThat(data.get(0).recordCount()).isEqualTo(2);
        assertThat(deletes).hasSize(2);
        assertThat(deletes.stream()
                        .mapToLong(org.apache.iceberg.DeleteFile::recordCount)
                        .sum())
                .isEqualTo(3);
        assertThat(PendingFiles.VERSION).as("version 2 is the current one").isEqualTo(2);
        assertThat(files.toPayload()).isEqualTo(checkedIn);
    }

    @Test
    void scanSplitPayloadsReadToTheirFile() throws IOException {
        int version = new IcebergSourceSplitSerializer(false).getVersion();
        for (int v : checkedInVersions("scan-split-payload-migration/one-file")) {
            IcebergSourceSplit split = new ScanSplits(false)
                    .fromPayload(new Payload(
                            v, CheckedInBytes.read("scan-split-payload-migration/one-file/v" + v + ".b64")));

            List<FileScanTask> files = new ArrayList<>(split.task().files());
            assertThat(files).as("v%d", v).hasSize(1);
            assertThat(files.get(0).file().location())
                    .as("v%d", v)
                    .startsWith("file:" + GENERATED + "/plain/db/t/data/")
                    .endsWith(".parquet");
            assertThat(files.get(0).file().recordCount()).isEqualTo(3);
            assertThat(files.get(0).start()).as("after Parquet's magic").isEqualTo(4);
            assertThat(split.fileOffset()).isZero();
            assertThat(split.recordOffset()).isZero();
            assertThat(ScanSplits.describe(split)).isEqualTo(files.get(0).file().location());
        }
        assertThat(checkedInVersions("scan-split-payload-migration/one-file"))
                .as("upstream's current version is checked in")
                .contains(version);
    }

    @Test
    void aBoundedReadsPositionGivenBackPlansNothing() throws Exception {
        Payload position = new Payload(
                IcebergScanPlanner.PLANNED_VERSION,
                CheckedInBytes.read("scan-position-migration/bounded/v" + IcebergScanPlanner.PLANNED_VERSION + ".b64"));
        assertThat(position.bytes()).isEmpty();
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        table.append(1, 3);

        try (ScanPlanner planner = table.source.createPlanner(TestSourceContext.hadoop(warehouse, Writes.ROW))) {
            ScanPlan plan = planner.plan(position);
            assertThat(plan.splits()).isEmpty();
            assertThat(plan.position()).isEqualTo(position);
        }
    }

    @Test
    void unknownPendingFilesVersionsAreAnErrorNamingTheVersionsRead() {
        assertThatThrownBy(() -> PendingFiles.of(new Payload(3, new byte[0])))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("iceberg target's pending files of version 3")
                .hasMessageContaining("reads versions 1 and 2");
    }

    /**
     * The writer's state (who wrote which data files and temporary manifests, for the cleanup of a
     * failed attempt's files): version 1, checked in, still names its writer and the last file
     * handed over, and no manifest of it is a leftover (its writer named them after a random id);
     * version 2 names the last manifest handed over too. The bytes of the current version are
     * exactly what the writer writes for the same values.
     */
    @Test
    void writerStateOfEveryVersionNamesItsWriterAndItsLastFile() throws Exception {
        assertThat(checkedInVersions("writer-state-migration/one-writer"))
                .as("every version up to the current one is checked in")
                .containsExactly(IntStream.rangeClosed(1, IcebergTargetWriter.STATE_VERSION)
                        .boxed()
                        .toArray(Integer[]::new));
        String id = "2b7e1516-28ae-d2a6-abf7-158809cf4f3c";
        String manifest = "file:/w/db/t/metadata/sluice-" + IcebergSinks.JOB + "-00000-" + id + "-00004-data.avro";
        byte[] v1 = CheckedInBytes.read("writer-state-migration/one-writer/v1.b64");
        LeftoverDataFiles.Earlier earlier = IcebergTargetWriter.earlier(new Payload(1, v1))
                .orElseThrow(() -> new AssertionError("version 1 not read"));
        assertThat(earlier.writerId).isEqualTo(id);
        assertThat(earlier.handedOver).isEqualTo(7);
        assertThat(earlier.matchesManifest(manifest, IcebergSinks.JOB))
                .as("version 1 does not say which manifests were handed over")
                .isFalse();

        byte[] v2 = CheckedInBytes.read("writer-state-migration/one-writer/v2.b64");
        earlier = IcebergTargetWriter.earlier(new Payload(2, v2))
                .orElseThrow(() -> new AssertionError("version 2 not read"));
        assertThat(earlier.writerId).isEqualTo(id);
        assertThat(earlier.handedOver).isEqualTo(7);
        assertThat(earlier.manifestsHandedOver).isEqualTo(3);
        assertThat(earlier.matchesManifest(manifest, IcebergSinks.JOB)).isTrue();
        assertThat(earlier.matchesManifest(manifest.replace("-00004-", "-00003-"), IcebergSinks.JOB))
                .isFalse();
        assertThat(IcebergTargetWriter.state(id, 7, 3).bytes())
                .as("the current version writes what is checked in")
                .isEqualTo(v2);
        assertThat(IcebergTargetWriter.earlier(new Payload(3, v2)))
                .as("a version this plugin does not know is not its writer's state")
                .isEmpty();
    }

    /**
     * Checks in the bytes of the current versions that are not checked in yet (run with
     * -Dsluice.migration.write=true): file names and snapshot ids are random, so the bytes of a
     * version are written once.
     */
    @Test
    @EnabledIfSystemProperty(named = CheckedInBytes.WRITE_PROPERTY, matches = "true")
    void writeCurrentVersions() throws Exception {
        Path root = Paths.get(GENERATED);
        if (Files.exists(root)) {
            try (Stream<Path> all = Files.walk(root)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        TestSinkContext upsert = IcebergSinks.hadoop(root.resolve("upsert"), IcebergUpsertTest.KEYED)
                .primaryKey("id")
                .option("upsert-enabled", "true")
                .build();
        IcebergTargetFactory target = new IcebergTargetFactory();
        target.validate(upsert);
        try (TargetWriter writer = target.createWriter(upsert, new ArrayList<>())) {
            writer.write(ScanFixture.row(RowKind.INSERT, 1, "a"), Writes.NO_TIME);
            writer.write(ScanFixture.row(RowKind.INSERT, 2, "b"), Writes.NO_TIME);
            writer.write(ScanFixture.row(RowKind.DELETE, 1, "a"), Writes.NO_TIME);
            List<PendingCommit> pending = writer.prepareCommit(false);
            assertThat(pending).hasSize(1);
            checkInIfAbsent(
                    "pending-files-migration/data-and-deletes/v"
                            + pending.get(0).payload().version() + ".b64",
                    pending.get(0).payload().bytes());
        }

        ScanFixture plain = new ScanFixture(
                IcebergSinks.hadoop(root.resolve("plain"), Writes.ROW).build());
        plain.append(1, 3);
        ScanPlan bounded = plain.planOnce(TestSourceContext.hadoop(root.resolve("plain"), Writes.ROW));
        PlannedSplit split = bounded.splits().get(0);
        checkInIfAbsent(
                "scan-split-payload-migration/one-file/v" + split.payload().version() + ".b64",
                split.payload().bytes());
        checkInIfAbsent(
                "scan-position-migration/bounded/v" + bounded.position().version() + ".b64",
                bounded.position().bytes());
        try (ScanPlanner planner =
                plain.source.createPlanner(TestSourceContext.hadoop(root.resolve("plain"), Writes.ROW)
                        .set("streaming", "true")
                        .set("starting-strategy", "TABLE_SCAN_THEN_INCREMENTAL"))) {
            Payload position = planner.plan(null).position();
            checkInIfAbsent("scan-position-migration/streaming/v" + position.version() + ".b64", position.bytes());
        }
    }

    private static void checkInIfAbsent(String resource, byte[] bytes) {
        if (!CheckedInBytes.exists(resource)) {
            CheckedInBytes.write(resource, bytes);
        }
    }

    /** The versions checked in under {@code directory}, from the files' names. */
    static List<Integer> checkedInVersions(String directory) throws IOException {
        List<Integer> versions = new ArrayList<>();
        for (int v = 1; v <= 100; v++) {
            if (CheckedInBytes.exists(directory + "/v" + v + ".b64")) {
                versions.add(v);
            }
        }
        return versions;
    }
}
