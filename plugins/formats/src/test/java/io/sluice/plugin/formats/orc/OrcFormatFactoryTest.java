package io.sluice.plugin.formats.orc;

import io.sluice.plugin.formats.testing.BulkFiles;
import io.sluice.plugin.formats.testing.FormatFiles;
import io.sluice.plugin.formats.testing.JavaValues;
import io.sluice.plugin.formats.testing.NestedRows;
import io.sluice.plugin.formats.testing.SampleRows;
import io.sluice.plugin.formats.testing.TestFormatContext;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.YearMonthIntervalType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrcFormatFactoryTest {

    @TempDir
    Path dir;

    private final OrcFormatFactory factory = new OrcFormatFactory();

    @Test
    void declaresOrcsWriterOptionsWithoutPrefix() {
        assertThat(factory.identifier()).isEqualTo("orc");
        assertThat(factory)
                .isInstanceOf(io.sluice.spi.format.BulkWritingFormat.class)
                .isNotInstanceOf(io.sluice.spi.format.RowEncodingFormat.class);
        assertThat(factory)
                .isInstanceOf(io.sluice.spi.format.BulkReadingFormat.class)
                .isNotInstanceOf(io.sluice.spi.format.StreamReadingFormat.class);
        assertThat(factory.optionalOptions().stream().map(ConfigOption::key))
                .containsExactlyInAnyOrder(
                        "compress",
                        "compress.size",
                        "stripe.size",
                        "row.index.stride",
                        "bloom.filter.columns",
                        "bloom.filter.fpp",
                        "dictionary.key.threshold");
        assertThat(OrcOptions.COMPRESS.defaultValue()).isEqualTo("ZLIB");
        assertThat(OrcOptions.orcKey(OrcOptions.COMPRESS)).isEqualTo("orc.compress");
        assertThat(format(SampleRows.ROW_TYPE).isSplittable()).isTrue();
    }

    @Test
    void roundTripsEveryColumnTypeNullsAndNestedValues() throws Exception {
        Path file = write(NestedRows.ROW_TYPE, NestedRows.ALL);

        assertThat(read(file, NestedRows.ROW_TYPE)).isEqualTo(JavaValues.of(NestedRows.ROW_TYPE, NestedRows.ALL));
    }

    @ParameterizedTest
    @ValueSource(strings = {"NONE", "ZLIB", "SNAPPY", "LZO", "LZ4", "zlib"})
    void compressesWithEveryCodec(String codec) throws Exception {
        Path file = write(NestedRows.ROW_TYPE, NestedRows.ALL, "compress", codec);

        try (Reader reader = orcReader(file)) {
            assertThat(reader.getCompressionKind()).isEqualTo(CompressionKind.valueOf(codec.toUpperCase(Locale.ROOT)));
        }
        assertThat(read(file, NestedRows.ROW_TYPE)).isEqualTo(JavaValues.of(NestedRows.ROW_TYPE, NestedRows.ALL));
    }

    @Test
    void writesFilesOrcsOwnReaderUnderstands() throws Exception {
        Path file = write(NestedRows.ROW_TYPE, NestedRows.ALL, "bloom.filter.columns", "s,i");

        try (Reader reader = orcReader(file)) {
            assertThat(reader.getNumberOfRows()).isEqualTo(4);
            assertThat(reader.getSchema().toString())
                    .isEqualTo("struct<s:string,i:int,l:bigint,d:double,b:boolean,dec:decimal(10,2),"
                            + "dt:date,ts:timestamp,tags:array<string>,"
                            + "scores:map<string,int>,address:struct<city:string,zip:int>>");
            VectorizedRowBatch batch = reader.getSchema().createRowBatch();
            try (RecordReader rows = reader.rows()) {
                assertThat(rows.nextBatch(batch)).isTrue();
            }
            assertThat(batch.size).isEqualTo(4);
            assertThat(((BytesColumnVector) batch.cols[0]).toString(0)).isEqualTo(SampleRows.TEXT);
            assertThat(((LongColumnVector) batch.cols[1]).vector[0]).isEqualTo(SampleRows.INT);
            assertThat(((LongColumnVector) batch.cols[2]).vector[0]).isEqualTo(SampleRows.LONG);
            assertThat(((DoubleColumnVector) batch.cols[3]).vector[0]).isEqualTo(SampleRows.DOUBLE);
            assertThat(((LongColumnVector) batch.cols[4]).vector[0]).isEqualTo(1);
            assertThat(((DecimalColumnVector) batch.cols[5])
                            .vector[0]
                            .getHiveDecimal()
                            .bigDecimalValue())
                    .isEqualByComparingTo(SampleRows.DECIMAL);
            assertThat(LocalDate.ofEpochDay(((LongColumnVector) batch.cols[6]).vector[0]))
                    .isEqualTo(SampleRows.DATE);
            assertThat(((TimestampColumnVector) batch.cols[7])
                            .asScratchTimestamp(0)
                            .toLocalDateTime())
                    .isEqualTo(SampleRows.TIMESTAMP);
            ListColumnVector tags = (ListColumnVector) batch.cols[8];
            assertThat(tags.lengths[0]).isEqualTo(3);
            assertThat(((BytesColumnVector) tags.child).toString((int) tags.offsets[0]))
                    .isEqualTo("a");
            assertThat(tags.child.isNull[(int) tags.offsets[0] + 1]).isTrue();
            assertThat(((MapColumnVector) batch.cols[9]).lengths[0]).isEqualTo(2);
            StructColumnVector address = (StructColumnVector) batch.cols[10];
            assertThat(((BytesColumnVector) address.fields[0]).toString(0)).isEqualTo("Berlin");
            for (int column = 0; column < batch.numCols; column++) {
                assertThat(batch.cols[column].isNull[1])
                        .as("column %d of the null row", column)
                        .isTrue();
            }
            assertThat(tags.lengths[3]).isZero();
        }
    }

    @Test
    void readsTheRequestedColumnsByNameAndNullForMissingOnes() throws Exception {
        Path file = write(NestedRows.ROW_TYPE, NestedRows.ALL);
        RowType projection = RowType.of(
                new LogicalType[] {NestedRows.ADDRESS, new IntType(), new VarCharType(VarCharType.MAX_LENGTH)},
                new String[] {"address", "absent", "s"});

        assertThat(read(file, projection))
                .containsExactly(
                        Arrays.asList(List.of("Berlin", 10115), null, SampleRows.TEXT),
                        Arrays.asList(null, null, null),
                        Arrays.asList(Arrays.asList(null, -1), null, "plain"),
                        Arrays.asList(List.of("", 0), null, SampleRows.TEXT));
    }

    @Test
    void readsEveryRowOnceWhenTheFileIsSplit() throws Exception {
        Path file = write(NestedRows.ROW_TYPE, NestedRows.ALL);

        assertThat(BulkFiles.readInTwoSplits(format(NestedRows.ROW_TYPE), NestedRows.ROW_TYPE, file))
                .isEqualTo(JavaValues.of(NestedRows.ROW_TYPE, NestedRows.ALL));
    }

    @Test
    void namesTheFileOfATruncatedOrcFile() throws Exception {
        Path file = write(SampleRows.ROW_TYPE, SampleRows.ALL);
        BulkFiles.truncate(file, 0.5);

        assertThatThrownBy(() -> read(file, SampleRows.ROW_TYPE))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot open orc file " + FormatFiles.flinkPath(file))
                .hasMessageContaining("bytes 0 to " + Files.size(file));
    }

    @Test
    void namesTheFileOfSomethingElseThanOrc() throws Exception {
        Path file = dir.resolve("not.orc");
        Files.write(file, "a,b,c\n1,2,3\n".repeat(10).getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> read(file, SampleRows.ROW_TYPE))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(FormatFiles.flinkPath(file).toString());
    }

    @Test
    void rejectsBadOptionValues() {
        assertBadOption("compress", "ZSTD");
        assertBadOption("compress", "brotli");
        assertBadOption("stripe.size", "0");
        assertBadOption("compress.size", "-1");
        assertBadOption("row.index.stride", "many");
        assertBadOption("bloom.filter.fpp", "1.5");
        assertBadOption("dictionary.key.threshold", "-0.1");
        assertBadOption("bloom.filter.columns", "s,nope");
    }

    @Test
    void rejectsATypeOrcCannotHold() {
        RowType interval = RowType.of(
                new LogicalType[] {new YearMonthIntervalType(YearMonthIntervalType.YearMonthResolution.YEAR_TO_MONTH)},
                new String[] {"span"});

        assertThatThrownBy(() -> factory.createBulkWriterFactory(TestFormatContext.of(interval)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'orc'")
                .hasMessageContaining(interval.asSummaryString());
    }

    private void assertBadOption(String key, String value) {
        assertThatThrownBy(() -> factory.createBulkWriterFactory(TestFormatContext.of(SampleRows.ROW_TYPE, key, value)))
                .as(key + "=" + value)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(key)
                .hasMessageContaining(value);
    }

    private Path write(RowType type, List<RowData> rows, String... options) throws Exception {
        Path file = dir.resolve("part-" + System.nanoTime() + ".orc");
        FormatFiles.write(factory.createBulkWriterFactory(TestFormatContext.of(type, options)), file, rows);
        return file;
    }

    private List<List<Object>> read(Path file, RowType type) throws Exception {
        return FormatFiles.read(format(type), type, file);
    }

    private BulkFormat<RowData, FileSourceSplit> format(RowType type) {
        return factory.createBulkFormat(TestFormatContext.of(type));
    }

    private static Reader orcReader(Path file) throws IOException {
        return OrcFile.createReader(
                new org.apache.hadoop.fs.Path(file.toUri()), OrcFile.readerOptions(new Configuration()));
    }
}
