package io.sluice.plugin.formats.parquet;

import io.sluice.plugin.formats.testing.BulkFiles;
import io.sluice.plugin.formats.testing.FormatFiles;
import io.sluice.plugin.formats.testing.JavaValues;
import io.sluice.plugin.formats.testing.NestedRows;
import io.sluice.plugin.formats.testing.SampleRows;
import io.sluice.plugin.formats.testing.TestFormatContext;

import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParquetReaderTest {

    @TempDir
    Path dir;

    private final ParquetFormatFactory factory = new ParquetFormatFactory();

    @Test
    void readsInBatches() {
        assertThat(factory)
                .isInstanceOf(io.sluice.spi.format.BulkReadingFormat.class)
                .isNotInstanceOf(io.sluice.spi.format.StreamReadingFormat.class);
        assertThat(factory.createBulkFormat(TestFormatContext.of(SampleRows.ROW_TYPE))
                        .isSplittable())
                .isTrue();
    }

    @Test
    void roundTripsEveryColumnTypeNullsAndNestedValues() throws Exception {
        Path file = write(NestedRows.ROW_TYPE, NestedRows.WITHOUT_EMPTY_COLLECTIONS);

        assertThat(read(file, NestedRows.ROW_TYPE))
                .isEqualTo(JavaValues.of(NestedRows.ROW_TYPE, NestedRows.WITHOUT_EMPTY_COLLECTIONS));
    }

    @Test
    void roundTripsFractionsOfASecondBeforeTheEpochInUtc() throws Exception {
        Path int96 = write(SampleRows.ROW_TYPE, SampleRows.ALL, "utc-timezone", "true");
        Path int64 = write(
                SampleRows.ROW_TYPE,
                SampleRows.ALL,
                "utc-timezone",
                "true",
                "write.int64.timestamp",
                "true",
                "timestamp.time.unit",
                "millis");

        List<List<Object>> expected = JavaValues.of(SampleRows.ROW_TYPE, SampleRows.ALL);
        assertThat(read(int96, SampleRows.ROW_TYPE, "utc-timezone", "true")).isEqualTo(expected);
        assertThat(read(int64, SampleRows.ROW_TYPE, "utc-timezone", "true")).isEqualTo(expected);
    }

    @Test
    void readsTheRequestedColumnsByNameAndNullForMissingOnes() throws Exception {
        Path file = write(NestedRows.ROW_TYPE, NestedRows.WITHOUT_EMPTY_COLLECTIONS);
        RowType projection = RowType.of(
                new LogicalType[] {NestedRows.ADDRESS, new IntType(), new VarCharType(10)},
                new String[] {"address", "absent", "s"});

        assertThat(read(file, projection))
                .containsExactly(
                        Arrays.asList(List.of("Berlin", 10115), null, SampleRows.TEXT),
                        Arrays.asList(null, null, null),
                        Arrays.asList(Arrays.asList(null, -1), null, "plain"));
    }

    @Test
    void readsEveryRowOnceWhenTheFileIsSplit() throws Exception {
        Path file = write(NestedRows.ROW_TYPE, NestedRows.WITHOUT_EMPTY_COLLECTIONS);

        assertThat(BulkFiles.readInTwoSplits(format(NestedRows.ROW_TYPE), NestedRows.ROW_TYPE, file))
                .isEqualTo(JavaValues.of(NestedRows.ROW_TYPE, NestedRows.WITHOUT_EMPTY_COLLECTIONS));
    }

    @Test
    void namesTheFileOfATruncatedParquetFile() throws Exception {
        Path file = write(SampleRows.ROW_TYPE, SampleRows.ALL);
        BulkFiles.truncate(file, 0.5);

        assertThatThrownBy(() -> read(file, SampleRows.ROW_TYPE))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot open parquet file " + FormatFiles.flinkPath(file))
                .hasMessageContaining("bytes 0 to " + Files.size(file))
                .hasMessageContaining("not a Parquet file");
    }

    @Test
    void namesTheFileOfSomethingElseThanParquet() throws Exception {
        Path file = dir.resolve("not.parquet");
        Files.write(file, "a,b,c\n1,2,3\n".repeat(10).getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> read(file, SampleRows.ROW_TYPE))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(FormatFiles.flinkPath(file).toString());
    }

    private Path write(RowType type, List<RowData> rows, String... options) throws Exception {
        Path file = dir.resolve("part-" + System.nanoTime() + ".parquet");
        FormatFiles.write(factory.createBulkWriterFactory(TestFormatContext.of(type, options)), file, rows);
        return file;
    }

    private List<List<Object>> read(Path file, RowType type, String... options) throws Exception {
        return FormatFiles.read(format(type, options), type, file);
    }

    private BulkFormat<RowData, FileSourceSplit> format(RowType type, String... options) {
        return factory.createBulkFormat(TestFormatContext.of(type, options));
    }
}
