package io.sluice.plugin.formats.avro;

import io.sluice.plugin.formats.testing.BulkFiles;
import io.sluice.plugin.formats.testing.FormatFiles;
import io.sluice.plugin.formats.testing.JavaValues;
import io.sluice.plugin.formats.testing.NestedRows;
import io.sluice.plugin.formats.testing.SampleRows;
import io.sluice.plugin.formats.testing.TestFormatContext;

import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AvroFormatFactoryTest {

    @TempDir
    Path dir;

    private final AvroFormatFactory factory = new AvroFormatFactory();

    @Test
    void declaresFlinksAvroOptions() {
        assertThat(factory.identifier()).isEqualTo("avro");
        assertThat(factory)
                .isInstanceOf(io.sluice.spi.format.BulkWritingFormat.class)
                .isNotInstanceOf(io.sluice.spi.format.RowEncodingFormat.class);
        assertThat(factory)
                .isInstanceOf(io.sluice.spi.format.BulkReadingFormat.class)
                .isNotInstanceOf(io.sluice.spi.format.StreamReadingFormat.class);
        assertThat(factory.optionalOptions().stream().map(ConfigOption::key))
                .containsExactlyInAnyOrder("codec", "timestamp_mapping.legacy");
        assertThat(AvroFormatFactory.CODEC.defaultValue()).isEqualTo("snappy");
        assertThat(AvroFormatFactory.TIMESTAMP_LEGACY_MAPPING.defaultValue()).isTrue();
        assertThat(format(SampleRows.ROW_TYPE).isSplittable()).isTrue();
    }

    @Test
    void roundTripsEveryColumnTypeNullsAndNestedValues() throws Exception {
        Path file = write(NestedRows.ROW_TYPE, NestedRows.ALL);

        assertThat(read(file, NestedRows.ROW_TYPE)).isEqualTo(JavaValues.of(NestedRows.ROW_TYPE, NestedRows.ALL));
    }

    @ParameterizedTest
    @ValueSource(strings = {"null", "deflate", "snappy", "bzip2", "xz", "zstandard"})
    void compressesWithEveryCodec(String codec) throws Exception {
        Path file = write(SampleRows.ROW_TYPE, SampleRows.ALL, "codec", codec);

        try (DataFileReader<GenericRecord> reader = avroReader(file)) {
            assertThat(reader.getMetaString(DataFileConstants.CODEC)).isEqualTo(codec);
        }
        assertThat(read(file, SampleRows.ROW_TYPE)).isEqualTo(JavaValues.of(SampleRows.ROW_TYPE, SampleRows.ALL));
    }

    @Test
    void writesRecordsAvrosOwnReaderUnderstands() throws Exception {
        List<GenericRecord> records = readWithAvro(write(NestedRows.ROW_TYPE, NestedRows.ALL));

        assertThat(records).hasSize(4);
        GenericRecord full = records.get(0);
        assertThat(full.getSchema().getType()).isEqualTo(Schema.Type.RECORD);
        assertThat(full.get("s").toString()).isEqualTo(SampleRows.TEXT);
        assertThat(full.get("i")).isEqualTo(SampleRows.INT);
        assertThat(full.get("l")).isEqualTo(SampleRows.LONG);
        assertThat(full.get("d")).isEqualTo(SampleRows.DOUBLE);
        assertThat(full.get("b")).isEqualTo(true);
        assertThat(decimal(full)).isEqualTo(SampleRows.DECIMAL);
        assertThat(LocalDate.ofEpochDay((Integer) full.get("dt"))).isEqualTo(SampleRows.DATE);
        // the legacy mapping: timestamp-millis of the wall-clock time taken as UTC
        assertThat(Instant.ofEpochMilli((Long) full.get("ts")))
                .isEqualTo(SampleRows.TIMESTAMP.toInstant(ZoneOffset.UTC));
        assertThat(strings((List<?>) full.get("tags"))).containsExactly("a", null, "c");
        assertThat(strings((Map<?, ?>) full.get("scores")))
                .containsEntry("x", "1")
                .containsEntry("y", null);
        assertThat(((GenericRecord) full.get("address")).get("city").toString()).isEqualTo("Berlin");

        GenericRecord nulls = records.get(1);
        for (Schema.Field field : nulls.getSchema().getFields()) {
            assertThat(nulls.get(field.name())).as(field.name()).isNull();
        }
        assertThat((List<?>) records.get(3).get("tags")).isEmpty();
    }

    @Test
    void mapsTimestampsToLocalTimestampsWithoutTheLegacyMapping() throws Exception {
        Path file = write(SampleRows.ROW_TYPE, SampleRows.ALL, "timestamp_mapping.legacy", "false");

        try (DataFileReader<GenericRecord> reader = avroReader(file)) {
            Schema ts = reader.getSchema().getField("ts").schema().getTypes().get(1);
            assertThat(ts.getLogicalType()).isEqualTo(LogicalTypes.localTimestampMillis());
        }
        assertThat(read(file, SampleRows.ROW_TYPE, "timestamp_mapping.legacy", "false"))
                .isEqualTo(JavaValues.of(SampleRows.ROW_TYPE, SampleRows.ALL));
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
    void namesTheFileOfATruncatedAvroFile() throws Exception {
        Path file = write(SampleRows.ROW_TYPE, SampleRows.ALL);
        BulkFiles.truncate(file, 0.1);

        assertThatThrownBy(() -> read(file, SampleRows.ROW_TYPE))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot open avro file " + FormatFiles.flinkPath(file));
    }

    @Test
    void namesTheFileOfAFileCutInsideItsLastBlock() throws Exception {
        // Avro's own reader would end quietly before the cut block
        Path file = write(SampleRows.ROW_TYPE, SampleRows.ALL, "codec", "deflate");
        BulkFiles.truncate(file, 0.9);

        assertThatThrownBy(() -> read(file, SampleRows.ROW_TYPE))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot open avro file " + FormatFiles.flinkPath(file))
                .hasMessageContaining("incomplete");
    }

    @Test
    void namesTheFileOfACorruptBlock() throws Exception {
        Path file = write(SampleRows.ROW_TYPE, SampleRows.ALL, "codec", "deflate");
        BulkFiles.scribble(file);

        assertThatThrownBy(() -> read(file, SampleRows.ROW_TYPE))
                .isInstanceOfAny(IOException.class, UncheckedIOException.class)
                .hasMessageContaining("avro file " + FormatFiles.flinkPath(file));
    }

    @Test
    void rejectsAnUnknownCodec() {
        assertThatThrownBy(() ->
                        factory.createBulkWriterFactory(TestFormatContext.of(SampleRows.ROW_TYPE, "codec", "lzo")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'codec'")
                .hasMessageContaining("'lzo'")
                .hasMessageContaining("'avro'");
    }

    @Test
    void rejectsATypeAvroCannotHold() {
        RowType nanos = RowType.of(new LogicalType[] {new TimestampType(9)}, new String[] {"t"});

        assertThatThrownBy(() -> factory.createBulkWriterFactory(TestFormatContext.of(nanos)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'avro'")
                .hasMessageContaining("TIMESTAMP(9)");
    }

    private Path write(RowType type, List<RowData> rows, String... options) throws Exception {
        Path file = dir.resolve("part-" + System.nanoTime() + ".avro");
        FormatFiles.write(factory.createBulkWriterFactory(TestFormatContext.of(type, options)), file, rows);
        return file;
    }

    private List<List<Object>> read(Path file, RowType type, String... options) throws Exception {
        return FormatFiles.read(format(type, options), type, file);
    }

    private BulkFormat<RowData, FileSourceSplit> format(RowType type, String... options) {
        return factory.createBulkFormat(TestFormatContext.of(type, options));
    }

    private static DataFileReader<GenericRecord> avroReader(Path file) throws IOException {
        return new DataFileReader<>(file.toFile(), new GenericDatumReader<>());
    }

    private static List<GenericRecord> readWithAvro(Path file) throws IOException {
        List<GenericRecord> records = new ArrayList<>();
        try (DataFileReader<GenericRecord> reader = avroReader(file)) {
            reader.forEach(records::add);
        }
        return records;
    }

    private static java.math.BigDecimal decimal(GenericRecord record) {
        Schema schema = record.getSchema().getField("dec").schema().getTypes().get(1);
        return new Conversions.DecimalConversion()
                .fromBytes((ByteBuffer) record.get("dec"), schema, schema.getLogicalType());
    }

    private static List<String> strings(List<?> values) {
        return values.stream().map(v -> v == null ? null : v.toString()).collect(Collectors.toList());
    }

    private static Map<String, String> strings(Map<?, ?> values) {
        Map<String, String> result = new java.util.HashMap<>();
        values.forEach((k, v) -> result.put(k.toString(), v == null ? null : v.toString()));
        return result;
    }
}
