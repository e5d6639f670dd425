package io.sluice.plugin.iceberg;

import io.sluice.plugin.iceberg.it.IcebergTables;
import io.sluice.spi.Payload;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.spi.source.PlannedSplit;
import io.sluice.testkit.TestSinkContext;
import io.sluice.testshared.CheckedInBytes;

import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The iceberg plugin's payloads that hold names of their own (files named at random, in Iceberg's
 * and upstream's encodings) written on each Flink line, read on the line this test runs on: CI runs
 * it on both, so bytes of 1.20 are read on 2.1 and the reverse. The payloads without such names
 * write the same bytes on both lines (the migration tests check their checked-in bytes there).
 * Under {@code cross-line/<line>/iceberg-payloads/}: {@code pending-files/v2.b64} (a writer of an
 * upsert table, rows 1 and 2 inserted and 1 deleted in one checkpoint, into {@code
 * /tmp/sluice-cross-line/<line>/upsert}) and {@code scan-split/v<N>.b64} (a bounded read's split of
 * {@code /tmp/sluice-cross-line/<line>/plain}, rows 1 to 3), written by {@link
 * #writeThisLinesPayloads}.
 */
class CrossLinePayloadsTest {

    @TempDir
    Path warehouse;

    @ParameterizedTest(name = "written on {0}")
    @ValueSource(strings = {"1.20", "2.1"})
    void pendingFilesCarryTheWritersDataAndDeleteFiles(String line) throws Exception {
        Payload checkedIn = new Payload(2, CheckedInBytes.read(resource(line, "pending-files/v2.b64")));
        PendingFiles files = PendingFiles.of(checkedIn);

        assertThat(files.manifests()).as("no temporary manifests").isEmpty();
        assertThat(files.inlineFiles()).isEqualTo(3);
        Table table;
        try (HadoopCatalog catalog = IcebergTables.catalog(warehouse)) {
            table = catalog.createTable(
                    TableIdentifier.of("db", "t"),
                    FlinkSchemaUtil.convert(FlinkSchemaUtil.toResolvedSchema(IcebergUpsertTest.KEYED)),
                    PartitionSpec.unpartitioned(),
                    Map.of("format-version", "2"));
        }
        List<DataFile> data = new ArrayList<>();
        List<DeleteFile> deletes = new ArrayList<>();
        files.readInto(table, data, deletes);
        assertThat(data).hasSize(1);
        assertThat(data.get(0).location())
                .startsWith("file:" + generated(line) + "/upsert/db/t/data/")
                .endsWith(".parquet");
        assertThat(data.get(0).recordCount()).isEqualTo(2);
        // upsert: an equality delete per inserted key, and the position of the row deleted after its insert
        assertThat(deletes).hasSize(2);
        assertThat(deletes.stream().mapToLong(DeleteFile::recordCount).sum()).isEqualTo(3);
        assertThat(files.toPayload()).as("written again on this line").isEqualTo(checkedIn);
    }

    @ParameterizedTest(name = "written on {0}")
    @ValueSource(strings = {"1.20", "2.1"})
    void aScanSplitReadsToItsFile(String line) throws Exception {
        List<Integer> versions = IcebergPayloadsMigrationTest.checkedInVersions(resource(line, "scan-split"));
        assertThat(versions).isNotEmpty();
        for (int v : versions) {
            IcebergSourceSplit split = new ScanSplits(false)
                    .fromPayload(new Payload(v, CheckedInBytes.read(resource(line, "scan-split/v" + v + ".b64"))));

            List<FileScanTask> files = new ArrayList<>(split.task().files());
            assertThat(files).as("v%d", v).hasSize(1);
            assertThat(files.get(0).file().location())
                    .startsWith("file:" + generated(line) + "/plain/db/t/data/")
                    .endsWith(".parquet");
            assertThat(files.get(0).file().recordCount()).isEqualTo(3);
            assertThat(split.fileOffset()).isZero();
            assertThat(split.recordOffset()).isZero();
        }
    }

    /**
     * Checks in this line's payloads (run with -Dsluice.cross-line.write=true), replacing what is
     * there: the names in them are random, so every run writes other bytes.
     */
    @Test
    @EnabledIfSystemProperty(named = "sluice.cross-line.write", matches = "true")
    void writeThisLinesPayloads() throws Exception {
        String line = thisLine();
        Path root = Paths.get(generated(line));
        deleteTree(root);
        deleteTree(Paths.get("src", "test", "resources").resolve(resource(line, "")));

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
            assertThat(pending.get(0).payload().version()).isEqualTo(2);
            CheckedInBytes.write(
                    resource(line, "pending-files/v2.b64"),
                    pending.get(0).payload().bytes());
        }

        ScanFixture plain = new ScanFixture(
                IcebergSinks.hadoop(root.resolve("plain"), Writes.ROW).build());
        plain.append(1, 3);
        PlannedSplit split = plain.planOnce(TestSourceContext.hadoop(root.resolve("plain"), Writes.ROW))
                .splits()
                .get(0);
        CheckedInBytes.write(
                resource(line, "scan-split/v" + split.payload().version() + ".b64"),
                split.payload().bytes());
    }

    /** This test's Flink line, from the Flink runtime on the class path: 1.20 or 2.1. */
    static String thisLine() {
        String[] version = EnvironmentInformation.getVersion().split("\\.");
        return version[0] + "." + version[1];
    }

    private static String generated(String line) {
        return "/tmp/sluice-cross-line/" + line;
    }

    private static String resource(String line, String name) {
        return "cross-line/" + line + "/iceberg-payloads/" + name;
    }

    private static void deleteTree(Path root) throws Exception {
        if (Files.exists(root)) {
            try (Stream<Path> all = Files.walk(root)) {
                for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                    Files.delete(p);
                }
            }
        }
    }
}
