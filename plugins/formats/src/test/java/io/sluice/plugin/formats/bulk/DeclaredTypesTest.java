package io.sluice.plugin.formats.bulk;

import io.sluice.plugin.formats.avro.AvroFormatFactory;
import io.sluice.plugin.formats.orc.OrcFormatFactory;
import io.sluice.plugin.formats.parquet.ParquetFormatFactory;
import io.sluice.plugin.formats.testing.FormatFiles;
import io.sluice.plugin.formats.testing.TestFormatContext;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.hive.serde2.io.HiveDecimalWritable;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A column declared with a type its file does not hold exactly is an error naming the file, the
 * column and both types, found when the reader opens the file, before any row; a declaration
 * the file's values fit reads them exactly. Files are written by parquet-java, ORC's core writer
 * and Avro's own writer with explicit schemas, not by Sluice.
 */
class DeclaredTypesTest {

    @TempDir
    Path dir;

    // one column 'v' of each kind, with one value: 12345678.91 / 7 / 'x7' / 2^40 / a nanosecond timestamp
    private static final String PARQUET_SCHEMA = "message m { required int64 amount (DECIMAL(10, 2));"
            + " required int32 small; required binary name (STRING); required int64 big;"
            + " required int64 ts (TIMESTAMP(NANOS, false)); }";

    private Path parquetFile() throws IOException {
        Path file = dir.resolve("independent.parquet");
        MessageType schema = MessageTypeParser.parseMessageType(PARQUET_SCHEMA);
        Configuration conf = new Configuration();
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
                .withType(schema)
                .withConf(conf)
                .build()) {
            Group g = new SimpleGroupFactory(schema).newGroup();
            g.add("amount", 1234567891L);
            g.add("small", 7);
            g.add("name", "x7");
            g.add("big", 1L << 40);
            g.add("ts", 1_700_000_000_123_456_789L);
            writer.write(g);
        }
        return file;
    }

    private Path orcFile() throws IOException {
        Path file = dir.resolve("independent.orc");
        TypeDescription schema =
                TypeDescription.fromString("struct<amount:decimal(10,2),small:int,name:string,big:bigint>");
        try (Writer writer = OrcFile.createWriter(
                new org.apache.hadoop.fs.Path(file.toUri()),
                OrcFile.writerOptions(new Configuration()).setSchema(schema))) {
            VectorizedRowBatch batch = schema.createRowBatch();
            batch.size = 1;
            ((DecimalColumnVector) batch.cols[0]).set(0, new HiveDecimalWritable("12345678.91"));
            ((LongColumnVector) batch.cols[1]).vector[0] = 7;
            ((BytesColumnVector) batch.cols[2]).setVal(0, "x7".getBytes(StandardCharsets.UTF_8));
            ((LongColumnVector) batch.cols[3]).vector[0] = 1L << 40;
            writer.addRowBatch(batch);
        }
        return file;
    }

    private static final String AVRO_DECIMAL = "BYTES DECIMAL(10,2)";

    /** Written by Avro's own writer: a decimal(10, 2) as bytes, a timestamp in microseconds. */
    private Path avroFile() throws IOException {
        Path file = dir.resolve("independent.avro");
        org.apache.avro.Schema schema = new org.apache.avro.Schema.Parser()
                .parse("{\"type\": \"record\", \"name\": \"r\","
                        + " \"fields\": [{\"name\": \"amount\", \"type\": {\"type\": \"bytes\", \"logicalType\": \"decimal\","
                        + " \"precision\": 10, \"scale\": 2}}, {\"name\": \"ts\", \"type\": [\"null\", {\"type\": \"long\","
                        + " \"logicalType\": \"timestamp-micros\"}]}]}");
        org.apache.avro.generic.GenericRecord record = new org.apache.avro.generic.GenericData.Record(schema);
        record.put(
                "amount",
                java.nio.ByteBuffer.wrap(
                        new BigDecimal("12345678.91").unscaledValue().toByteArray()));
        record.put("ts", 1_700_000_000_123_456L);
        try (org.apache.avro.file.DataFileWriter<org.apache.avro.generic.GenericRecord> writer =
                new org.apache.avro.file.DataFileWriter<>(new org.apache.avro.generic.GenericDatumWriter<>(schema))) {
            writer.create(schema, file.toFile());
            writer.append(record);
        }
        return file;
    }

    private Path file(String format) throws IOException {
        return format.equals("parquet") ? parquetFile() : format.equals("orc") ? orcFile() : avroFile();
    }

    private static RowType declared(String column, LogicalType type) {
        return RowType.of(new LogicalType[] {type}, new String[] {column});
    }

    static Stream<Arguments> mismatches() {
        return Stream.of(
                Arguments.of("parquet", "amount", DataTypes.DECIMAL(3, 1), "INT64 DECIMAL(10,2)", "scale 2"),
                Arguments.of("parquet", "amount", DataTypes.DECIMAL(9, 2), "INT64 DECIMAL(10,2)", "precision 10"),
                Arguments.of("parquet", "name", DataTypes.INT(), "BINARY STRING", "not an integer"),
                Arguments.of("parquet", "small", DataTypes.STRING(), "INT32", "not a string"),
                Arguments.of("parquet", "big", DataTypes.INT(), "INT64", "64-bit"),
                Arguments.of("parquet", "small", DataTypes.BIGINT(), "INT32", "not a 64-bit integer"),
                Arguments.of("parquet", "ts", DataTypes.TIMESTAMP(3), "INT64 TIMESTAMP(NANOS,false)", "precision 9"),
                Arguments.of("parquet", "amount", DataTypes.DOUBLE(), "INT64 DECIMAL(10,2)", "not a double"),
                Arguments.of("orc", "name", DataTypes.INT(), "string", "not an integer"),
                Arguments.of("orc", "amount", DataTypes.DECIMAL(3, 1), "decimal(10,2)", "scale 2"),
                Arguments.of("orc", "amount", DataTypes.DECIMAL(12, 3), "decimal(10,2)", "scale 2"),
                Arguments.of("orc", "big", DataTypes.INT(), "bigint", "wider integer"),
                Arguments.of("orc", "small", DataTypes.STRING(), "int", "not a string"),
                Arguments.of("orc", "name", DataTypes.DATE(), "string", "not a date"),
                Arguments.of("avro", "amount", DataTypes.DECIMAL(10, 1), AVRO_DECIMAL, "scale differs"),
                Arguments.of("avro", "amount", DataTypes.DECIMAL(9, 2), AVRO_DECIMAL, "more digits"),
                Arguments.of("avro", "ts", DataTypes.TIMESTAMP(3), "LONG timestamp-micros", "as milliseconds"),
                // what Avro's own schema resolution refuses, named as the others (issue 31)
                Arguments.of("avro", "amount", DataTypes.INT(), AVRO_DECIMAL, "cannot read the file's values as INT"),
                Arguments.of(
                        "avro", "ts", DataTypes.STRING(), "LONG timestamp-micros", "cannot read the file's values"));
    }

    @ParameterizedTest(name = "{0}: {1} declared {2}")
    @MethodSource("mismatches")
    void aTypeTheFileDoesNotHoldIsAnErrorNamingFileColumnAndTypes(
            String format, String column, org.apache.flink.table.types.DataType declared, String fileType, String why)
            throws Exception {
        Path file = file(format);
        RowType rowType = declared(column, declared.getLogicalType());
        assertThatThrownBy(() -> FormatFiles.read(bulkFormat(format, rowType), rowType, file))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot open " + format + " file " + FormatFiles.flinkPath(file))
                .hasMessageContaining("column '" + column + "' is " + fileType + " in the file")
                .hasMessageContaining("declares " + rowType.getTypeAt(0).asSummaryString())
                .hasMessageContaining(why);
    }

    static Stream<Arguments> fits() {
        return Stream.of(
                Arguments.of("parquet", "amount", DataTypes.DECIMAL(10, 2), new BigDecimal("12345678.91")),
                Arguments.of("parquet", "small", DataTypes.INT(), 7),
                Arguments.of("parquet", "big", DataTypes.BIGINT(), 1L << 40),
                Arguments.of("parquet", "name", DataTypes.STRING(), "x7"),
                Arguments.of("orc", "amount", DataTypes.DECIMAL(12, 2), new BigDecimal("12345678.91")),
                Arguments.of("orc", "small", DataTypes.BIGINT(), 7L),
                Arguments.of("orc", "name", DataTypes.STRING(), "x7"),
                Arguments.of("avro", "amount", DataTypes.DECIMAL(12, 2), new BigDecimal("12345678.91")));
    }

    @ParameterizedTest(name = "{0}: {1} declared {2}")
    @MethodSource("fits")
    void aTypeTheValuesFitReadsThemExactly(
            String format, String column, org.apache.flink.table.types.DataType declared, Object expected)
            throws Exception {
        Path file = file(format);
        RowType rowType = declared(column, declared.getLogicalType());
        List<List<Object>> rows = FormatFiles.read(bulkFormat(format, rowType), rowType, file);
        assertThat(rows).containsExactly(List.of(expected));
    }

    private static org.apache.flink.connector.file.src.reader.BulkFormat<
                    org.apache.flink.table.data.RowData, org.apache.flink.connector.file.src.FileSourceSplit>
            bulkFormat(String format, RowType rowType) {
        return format.equals("parquet")
                ? new ParquetFormatFactory().createBulkFormat(TestFormatContext.of(rowType))
                : format.equals("orc")
                        ? new OrcFormatFactory().createBulkFormat(TestFormatContext.of(rowType))
                        : new AvroFormatFactory().createBulkFormat(TestFormatContext.of(rowType));
    }
}
