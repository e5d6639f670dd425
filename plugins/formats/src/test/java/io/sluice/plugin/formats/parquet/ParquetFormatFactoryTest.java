package io.sluice.plugin.formats.parquet;

import io.sluice.plugin.formats.testing.SampleRows;
import io.sluice.plugin.formats.testing.TestFormatContext;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.YearMonthIntervalType;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParquetFormatFactoryTest {

    @TempDir
    Path dir;

    private final ParquetFormatFactory factory = new ParquetFormatFactory();

    @Test
    void declaresFlinksParquetOptions() {
        assertThat(factory.identifier()).isEqualTo("parquet");
        assertThat(factory)
                .isInstanceOf(io.sluice.spi.format.BulkWritingFormat.class)
                .isNotInstanceOf(io.sluice.spi.format.RowEncodingFormat.class);
        assertThat(factory.optionalOptions().stream().map(ConfigOption::key))
                .containsExactlyInAnyOrder(
                        "utc-timezone",
                        "timestamp.time.unit",
                        "write.int64.timestamp",
                        "compression",
                        "block.size",
                        "page.size",
                        "dictionary.page.size",
                        "enable.dictionary",
                        "writer.version");
        assertThat(ParquetOptions.UTC_TIMEZONE.defaultValue()).isFalse();
        assertThat(ParquetOptions.COMPRESSION.defaultValue()).isEqualTo("SNAPPY");
    }

    @Test
    void writesEveryColumnTypeAndNulls() throws Exception {
        Path file = write(SampleRows.ALL, "utc-timezone", "true");

        List<Group> records = ParquetFiles.read(file);

        assertThat(records).hasSize(3);
        Group full = records.get(0);
        assertThat(full.getString("s", 0)).isEqualTo(SampleRows.TEXT);
        assertThat(full.getInteger("i", 0)).isEqualTo(SampleRows.INT);
        assertThat(full.getLong("l", 0)).isEqualTo(SampleRows.LONG);
        assertThat(full.getDouble("d", 0)).isEqualTo(SampleRows.DOUBLE);
        assertThat(full.getBoolean("b", 0)).isTrue();
        assertThat(ParquetFiles.decimal(full, "dec", 2)).isEqualTo(SampleRows.DECIMAL);
        assertThat(ParquetFiles.date(full, "dt")).isEqualTo(SampleRows.DATE);
        assertThat(ParquetFiles.int96(full, "ts")).isEqualTo(SampleRows.TIMESTAMP);

        Group nulls = records.get(1);
        for (String field : SampleRows.ROW_TYPE.getFieldNames()) {
            assertThat(ParquetFiles.isNull(nulls, field)).as(field).isTrue();
        }

        Group negative = records.get(2);
        assertThat(negative.getInteger("i", 0)).isEqualTo(-7);
        assertThat(negative.getDouble("d", 0)).isEqualTo(-0.25);
        assertThat(negative.getBoolean("b", 0)).isFalse();
        assertThat(ParquetFiles.decimal(negative, "dec", 2)).isEqualTo(SampleRows.NEGATIVE_DECIMAL);
        assertThat(ParquetFiles.date(negative, "dt")).isEqualTo(SampleRows.NEGATIVE_DATE);
        assertThat(ParquetFiles.int96(negative, "ts")).isEqualTo(SampleRows.NEGATIVE_TIMESTAMP);
    }

    @Test
    void writesLogicalTypesParquetReadersUnderstand() throws Exception {
        ParquetMetadata footer = ParquetFiles.footer(write(SampleRows.ALL));

        var schema = footer.getFileMetaData().getSchema();
        assertThat(schema.getType("s").getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.stringType());
        assertThat(schema.getType("dec").getLogicalTypeAnnotation())
                .isEqualTo(LogicalTypeAnnotation.decimalType(2, 10));
        assertThat(schema.getType("dt").getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.dateType());
        assertThat(schema.getType("ts").asPrimitiveType().getPrimitiveTypeName())
                .isEqualTo(PrimitiveTypeName.INT96);
    }

    @Test
    void convertsTimestampsFromTheLocalZoneUnlessUtcIsAsked() throws Exception {
        Group record = ParquetFiles.read(write(List.of(SampleRows.FULL))).get(0);

        LocalDateTime inUtc = SampleRows.TIMESTAMP
                .atZone(ZoneId.systemDefault())
                .withZoneSameInstant(ZoneOffset.UTC)
                .toLocalDateTime();
        assertThat(ParquetFiles.int96(record, "ts")).isEqualTo(inUtc);
    }

    @Test
    void writesInt64TimestampsInTheChosenUnit() throws Exception {
        Path file = write(List.of(SampleRows.FULL), "write.int64.timestamp", "true", "timestamp.time.unit", "MILLIS");

        var type = ParquetFiles.footer(file).getFileMetaData().getSchema().getType("ts");
        assertThat(type.asPrimitiveType().getPrimitiveTypeName()).isEqualTo(PrimitiveTypeName.INT64);
        assertThat(((TimestampLogicalTypeAnnotation) type.getLogicalTypeAnnotation()).getUnit())
                .isEqualTo(LogicalTypeAnnotation.TimeUnit.MILLIS);
        long millis = ParquetFiles.read(file).get(0).getLong("ts", 0);
        assertThat(millis)
                .isEqualTo(SampleRows.TIMESTAMP.toInstant(ZoneOffset.UTC).toEpochMilli());
    }

    @Test
    void refusesATimestampThatInt64NanosCannotHoldInsteadOfStoringAnotherYear() throws Exception {
        String[] nanos = {"write.int64.timestamp", "true", "timestamp.time.unit", "nanos", "utc-timezone", "true"};
        for (LocalDateTime outside : List.of(LocalDateTime.of(2263, 1, 1, 0, 0), LocalDateTime.of(1600, 1, 1, 0, 0))) {
            org.apache.flink.table.data.GenericRowData row = copyOf(SampleRows.FULL);
            row.setField(7, org.apache.flink.table.data.TimestampData.fromLocalDateTime(outside));
            assertThatThrownBy(() -> write(List.of(row), nanos))
                    .isInstanceOf(io.sluice.spi.NonRecoverableException.class)
                    .hasMessageContaining("Column 'ts'")
                    .hasMessageContaining(outside.toString().substring(0, 4))
                    .hasMessageContaining("parquet.timestamp.time.unit");
        }
        // the last whole second both ends can hold, read back as written
        for (LocalDateTime inside :
                List.of(LocalDateTime.of(2262, 4, 11, 23, 47, 16), LocalDateTime.of(1677, 9, 21, 0, 12, 44))) {
            org.apache.flink.table.data.GenericRowData row = copyOf(SampleRows.FULL);
            row.setField(7, org.apache.flink.table.data.TimestampData.fromLocalDateTime(inside));
            long stored = ParquetFiles.read(write(List.of(row), nanos)).get(0).getLong("ts", 0);
            assertThat(stored).isEqualTo(inside.toEpochSecond(ZoneOffset.UTC) * 1_000_000_000L);
        }
    }

    private static org.apache.flink.table.data.GenericRowData copyOf(RowData row) {
        org.apache.flink.table.data.GenericRowData copy =
                new org.apache.flink.table.data.GenericRowData(row.getArity());
        for (int i = 0; i < row.getArity(); i++) {
            copy.setField(i, ((org.apache.flink.table.data.GenericRowData) row).getField(i));
        }
        return copy;
    }

    @Test
    void compressesWithSnappyByDefault() throws Exception {
        assertThat(codecs(write(SampleRows.ALL))).containsOnly(CompressionCodecName.SNAPPY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"UNCOMPRESSED", "SNAPPY", "GZIP", "ZSTD", "LZ4", "LZ4_RAW", "gzip"})
    void compressesWithEveryBundledCodec(String codec) throws Exception {
        Path file = write(SampleRows.ALL, "compression", codec);

        assertThat(codecs(file)).containsOnly(CompressionCodecName.valueOf(codec.toUpperCase()));
        assertThat(ParquetFiles.read(file).get(0).getString("s", 0)).isEqualTo(SampleRows.TEXT);
    }

    @Test
    void passesTheWriterSettingsToParquet() throws Exception {
        List<RowData> many = IntStream.range(0, 20_000)
                .mapToObj(i -> (RowData) GenericRowData.of(StringData.fromString("row " + i)))
                .collect(Collectors.toList());
        RowType oneString = RowType.of(new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH)}, new String[] {"s"});
        BulkWriter.Factory<RowData> writer = factory.createBulkWriterFactory(TestFormatContext.of(
                oneString,
                "block.size",
                "4096",
                "page.size",
                "1024",
                "dictionary.page.size",
                "1024",
                "enable.dictionary",
                "false",
                "writer.version",
                "v2"));
        Path file = dir.resolve("many.parquet");
        ParquetFiles.write(writer, file, many);

        ParquetMetadata footer = ParquetFiles.footer(file);
        assertThat(footer.getBlocks()).as("row groups of at most 4 KiB").hasSizeGreaterThan(1);
        for (BlockMetaData block : footer.getBlocks()) {
            for (ColumnChunkMetaData column : block.getColumns()) {
                assertThat(column.getEncodings()).doesNotContain(Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY);
            }
        }
        List<Group> records = ParquetFiles.read(file);
        assertThat(records).hasSize(many.size());
        assertThat(records.get(19_999).getString("s", 0)).isEqualTo("row 19999");
    }

    @Test
    void rejectsAnUnknownCodec() {
        assertBadOption("compression", "FOO");
    }

    @Test
    void rejectsCodecsWhoseLibraryIsNotBundled() {
        assertBadOption("compression", "LZO");
        assertBadOption("compression", "BROTLI");
    }

    @Test
    void rejectsBadSizesVersionsAndUnits() {
        assertBadOption("block.size", "-1");
        assertBadOption("page.size", "0");
        assertBadOption("dictionary.page.size", "lots");
        assertBadOption("writer.version", "v3");
        assertBadOption("timestamp.time.unit", "hours");
        assertBadOption("enable.dictionary", "perhaps");
    }

    @Test
    void rejectsAColumnTypeParquetCannotHold() {
        RowType interval = RowType.of(
                new LogicalType[] {new YearMonthIntervalType(YearMonthIntervalType.YearMonthResolution.YEAR_TO_MONTH)},
                new String[] {"span"});

        assertThatThrownBy(() -> factory.createBulkWriterFactory(TestFormatContext.of(interval)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'parquet'")
                .hasMessageContaining(interval.asSummaryString());
    }

    private void assertBadOption(String key, String value) {
        assertThatThrownBy(() -> factory.createBulkWriterFactory(TestFormatContext.of(SampleRows.ROW_TYPE, key, value)))
                .as(key + "=" + value)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(key)
                .hasMessageContaining(value);
    }

    private Path write(List<RowData> rows, String... options) throws Exception {
        Path file = dir.resolve("part-" + System.nanoTime() + ".parquet");
        ParquetFiles.write(
                factory.createBulkWriterFactory(TestFormatContext.of(SampleRows.ROW_TYPE, options)), file, rows);
        return file;
    }

    private static List<CompressionCodecName> codecs(Path file) throws Exception {
        return ParquetFiles.footer(file).getBlocks().stream()
                .flatMap(block -> block.getColumns().stream())
                .map(ColumnChunkMetaData::getCodec)
                .collect(Collectors.toList());
    }
}
