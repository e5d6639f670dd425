package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testkit.TestSinkContext;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.plugin.iceberg.Writes.ids;
import static io.sluice.plugin.iceberg.Writes.request;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every write format Iceberg's Flink writers offer is written through this plugin's libraries and
 * read back by Iceberg's generic reader, and the target file size rolls files.
 */
class IcebergFileFormatsTest {

    @TempDir
    Path warehouse;

    private final IcebergTargetFactory target = new IcebergTargetFactory();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"parquet", "orc", "avro"})
    void writesAndRollsFilesOfEveryFormat(String format) throws Exception {
        TestSinkContext context = IcebergSinks.hadoop(warehouse, Writes.ROW)
                .option("write-format", format)
                .option("target-file-size-bytes", "1024")
                .build();
        target.validate(context);
        List<Payload> pending = new ArrayList<>();
        try (TargetWriter writer = target.createWriter(context, new ArrayList<>())) {
            for (long id = 1; id <= 2000; id++) {
                writer.write(Writes.row(id, id % 10 == 0 ? null : "name-" + id), Writes.NO_TIME);
            }
            writer.prepareCommit(true).forEach(c -> pending.add(c.payload()));
        }
        try (TargetCommitter committer = target.createCommitter(context)) {
            committer.commit(request(IcebergSinks.JOB, "00000000000000000000000000000f0f", 1, pending));
        }
        try (CatalogTable table = CatalogTable.load(context.options())) {
            Table t = table.table();
            assertThat(ids(t)).hasSize(2000).doesNotHaveDuplicates();
            List<DataFile> files = new ArrayList<>();
            try (CloseableIterable<FileScanTask> tasks = t.newScan().planFiles()) {
                tasks.forEach(task -> files.add(task.file()));
            }
            assertThat(files).allSatisfy(f -> assertThat(f.format()).isEqualTo(FileFormat.fromString(format)));
            if (!format.equals("avro")) {
                // Avro's writer learns its size only per 64 KB block: these 2000 rows are one block
                assertThat(files).as("rolled at the target file size").hasSizeGreaterThan(1);
            }
        }
    }
}
