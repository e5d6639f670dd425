package io.sluice.plugin.iceberg;

import io.sluice.plugin.iceberg.it.IcebergTables;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a writer's files are listed: in the payload while they fit (no file written anywhere), in
 * a temporary manifest next to the table's metadata once their JSON is larger than {@link
 * PendingFiles#INLINE_LIMIT}; either way the committer reads every file back.
 */
class PendingFilesTest {

    private static final Schema SCHEMA = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

    @TempDir
    Path warehouse;

    private Table table;

    @BeforeEach
    void createTable() throws IOException {
        try (HadoopCatalog catalog = IcebergTables.catalog(warehouse)) {
            table = catalog.createTable(TableIdentifier.of("db", "t"), SCHEMA, PartitionSpec.unpartitioned());
        }
    }

    private List<DataFile> files(int n) {
        return IntStream.range(0, n)
                .mapToObj(i -> DataFiles.builder(table.spec())
                        .withPath(table.location() + "/data/" + java.util.UUID.randomUUID() + "-" + i + ".parquet")
                        .withFormat(FileFormat.PARQUET)
                        .withFileSizeInBytes(1000 + i)
                        .withRecordCount(10 + i)
                        .build())
                .collect(Collectors.toList());
    }

    private List<Path> metadataManifests() throws IOException {
        try (Stream<Path> all = Files.list(Path.of(URI.create(table.location() + "/metadata")))) {
            return all.filter(p -> p.getFileName().toString().startsWith("sluice-")
                            && p.getFileName().toString().endsWith(".avro"))
                    .collect(Collectors.toList());
        }
    }

    private List<DataFile> readBack(PendingFiles pending) throws IOException {
        List<DataFile> data = new ArrayList<>();
        List<DeleteFile> deletes = new ArrayList<>();
        PendingFiles.of(pending.toPayload()).readInto(table, data, deletes);
        assertThat(deletes).isEmpty();
        return data;
    }

    @Test
    void aFewFilesTravelInThePayloadAndNoManifestIsWritten() throws IOException {
        List<DataFile> written = files(3);
        PendingFiles pending = PendingFiles.write(
                table,
                WriteResult.builder().addDataFiles(written).build(),
                new TemporaryManifests(
                        table, "0000000000000000000000000000000a", 1, "6f1c1a52-0000-3000-8000-00000000000a"));

        assertThat(pending.inlineFiles()).isEqualTo(3);
        assertThat(pending.manifests()).isEmpty();
        assertThat(metadataManifests())
                .as("manifests written next to the metadata")
                .isEmpty();
        assertThat(readBack(pending))
                .extracting(DataFile::location)
                .containsExactlyElementsOf(
                        written.stream().map(DataFile::location).collect(Collectors.toList()));
    }

    @Test
    void manyFilesAreListedInAManifestNextToTheMetadataDeletedAfter() throws IOException {
        // more files in one checkpoint than a payload should carry: a few hundred bytes of JSON each
        List<DataFile> written = files(PendingFiles.INLINE_LIMIT / 50);
        PendingFiles pending = PendingFiles.write(
                table,
                WriteResult.builder().addDataFiles(written).build(),
                new TemporaryManifests(
                        table, "0000000000000000000000000000000a", 1, "6f1c1a52-0000-3000-8000-00000000000a"));

        assertThat(pending.inlineFiles()).isZero();
        assertThat(pending.manifests()).hasSize(1);
        assertThat(metadataManifests()).hasSize(1);
        assertThat(Files.size(metadataManifests().get(0)))
                .as("the file is the manifest its description describes")
                .isEqualTo(pending.manifests().get(0).length());
        assertThat(pending.toPayload().bytes().length)
                .as("only the description travels")
                .isLessThan(10_000);
        List<DataFile> read = readBack(pending);
        assertThat(read).hasSize(written.size());
        assertThat(read.get(written.size() - 1).recordCount()).isEqualTo(10L + written.size() - 1);

        pending.deleteManifests(table.io());
        assertThat(metadataManifests()).isEmpty();
    }
}
