package io.sluice.plugin.iceberg;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.flink.sink.RowDataTaskWriterFactory;
import org.apache.iceberg.flink.sink.TaskWriterFactory;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link FlatParquetRowWriter} against Iceberg's own Flink writer, the oracle: the same random rows
 * (from a printed seed: nulls, NaNs, signed zeros, infinities, extremes, empty and non-ASCII
 * strings, as {@code GenericRowData} and as {@code BinaryRowData}) through Iceberg's
 * {@code RowDataTaskWriterFactory} and through the plugin's {@link AppendTaskWriterFactory} give
 * the same files byte for byte, with the same metrics, in several row groups and rolled files,
 * unpartitioned and partitioned; and an independent reader reads every row back.
 */
class FlatParquetRowWriterTest {

    static final int ROWS = 20_000;

    @TempDir
    java.nio.file.Path warehouse;

    static Schema schema(boolean nanos) {
        List<Types.NestedField> fields = new ArrayList<>(List.of(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "flag", Types.BooleanType.get()),
                Types.NestedField.optional(3, "tiny", Types.IntegerType.get()),
                Types.NestedField.optional(4, "small", Types.IntegerType.get()),
                Types.NestedField.optional(5, "i", Types.IntegerType.get()),
                Types.NestedField.optional(6, "f", Types.FloatType.get()),
                Types.NestedField.optional(7, "d", Types.DoubleType.get()),
                Types.NestedField.required(8, "rd", Types.DoubleType.get()),
                Types.NestedField.optional(9, "s", Types.StringType.get()),
                Types.NestedField.optional(10, "b", Types.BinaryType.get()),
                Types.NestedField.optional(11, "day", Types.DateType.get()),
                Types.NestedField.optional(12, "t", Types.TimeType.get()),
                Types.NestedField.optional(13, "ts", Types.TimestampType.withoutZone()),
                Types.NestedField.optional(14, "tsz", Types.TimestampType.withZone())));
        if (nanos) {
            fields.add(Types.NestedField.optional(15, "tsn", Types.TimestampNanoType.withoutZone()));
        }
        return new Schema(fields);
    }

    static RowType rowType(boolean nanos) {
        List<LogicalType> types = new ArrayList<>(List.of(
                new BigIntType(false),
                new BooleanType(),
                new TinyIntType(),
                new SmallIntType(),
                new IntType(),
                new FloatType(),
                new DoubleType(),
                new DoubleType(false),
                new VarCharType(VarCharType.MAX_LENGTH),
                new VarBinaryType(VarBinaryType.MAX_LENGTH),
                new DateType(),
                new TimeType(),
                new TimestampType(6),
                new LocalZonedTimestampType(3)));
        if (nanos) {
            types.add(new TimestampType(9));
        }
        // the table's names: Iceberg's writer pairs the row's fields with the columns by name
        String[] names =
                schema(nanos).columns().stream().map(Types.NestedField::name).toArray(String[]::new);
        return RowType.of(types.toArray(new LogicalType[0]), names);
    }

    @ParameterizedTest(name = "format v{0}, partitioned {1}")
    @CsvSource({"2, false", "2, true", "3, false", "3, true"})
    void writesTheFilesOfIcebergsOwnWriterByteForByte(int formatVersion, boolean partitioned) throws Exception {
        long seed = System.nanoTime();
        System.out.println("FlatParquetRowWriterTest seed: " + seed);
        boolean nanos = formatVersion >= 3;
        Schema schema = schema(nanos);
        RowType rowType = rowType(nanos);
        PartitionSpec spec = partitioned
                ? PartitionSpec.builderFor(schema)
                        .bucket("id", 3)
                        .identity("flag")
                        .build()
                : PartitionSpec.unpartitioned();
        Table table = new HadoopTables(new Configuration())
                .create(
                        schema,
                        spec,
                        Map.of(
                                TableProperties.FORMAT_VERSION, String.valueOf(formatVersion),
                                // several row groups and pages per file, and several files
                                TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "65536",
                                TableProperties.PARQUET_PAGE_SIZE_BYTES, "8192"),
                        warehouse.resolve("t").toUri().toString());
        List<RowData> rows = randomRows(new Random(seed), rowType, nanos);

        AppendTaskWriterFactory flat = new AppendTaskWriterFactory(
                table, rowType, 256 * 1024, org.apache.iceberg.FileFormat.PARQUET, Map.of());
        assertThat(flat.writesFlatParquet()).isTrue();
        RowDataTaskWriterFactory iceberg = new RowDataTaskWriterFactory(
                table, rowType, 256 * 1024, org.apache.iceberg.FileFormat.PARQUET, Map.of(), null, false);

        List<DataFile> ours = write(flat, rows);
        List<DataFile> theirs = write(iceberg, rows);

        assertThat(ours).hasSizeGreaterThan(partitioned ? 6 : 2).hasSameSizeAs(theirs);
        for (int i = 0; i < ours.size(); i++) {
            DataFile a = ours.get(i);
            DataFile b = theirs.get(i);
            assertThat(Files.readAllBytes(Paths.get(java.net.URI.create(a.location()))))
                    .as("file %s (seed %s)", a.location(), seed)
                    .isEqualTo(Files.readAllBytes(Paths.get(java.net.URI.create(b.location()))));
            assertThat(a.partition()).isEqualTo(b.partition());
            assertThat(a.recordCount()).isEqualTo(b.recordCount());
            assertThat(a.fileSizeInBytes()).isEqualTo(b.fileSizeInBytes());
            assertThat(a.columnSizes()).isEqualTo(b.columnSizes());
            assertThat(a.valueCounts()).isEqualTo(b.valueCounts());
            assertThat(a.nullValueCounts()).isEqualTo(b.nullValueCounts());
            assertThat(a.nanValueCounts()).as("NaN counts (seed %s)", seed).isEqualTo(b.nanValueCounts());
            assertThat(a.lowerBounds()).as("lower bounds (seed %s)", seed).isEqualTo(b.lowerBounds());
            assertThat(a.upperBounds()).as("upper bounds (seed %s)", seed).isEqualTo(b.upperBounds());
            assertThat(a.splitOffsets()).isEqualTo(b.splitOffsets());
        }
        assertThat(readIds(table, schema, ours))
                .as("ids read back by Iceberg's generic reader")
                .hasSize(ROWS)
                .containsExactlyInAnyOrderElementsOf(ids(rows));
    }

    @Test
    void aNullInARequiredColumnIsAnErrorNamingTheColumn() throws Exception {
        Schema schema = schema(false);
        RowType rowType = rowType(false);
        Table table = new HadoopTables(new Configuration())
                .create(
                        schema,
                        PartitionSpec.unpartitioned(),
                        warehouse.resolve("r").toUri().toString());
        AppendTaskWriterFactory flat =
                new AppendTaskWriterFactory(table, rowType, 1 << 20, org.apache.iceberg.FileFormat.PARQUET, Map.of());
        flat.initialize(0, 0);
        GenericRowData row = new GenericRowData(rowType.getFieldCount());
        row.setField(0, 1L); // rd, required, left null
        try (TaskWriter<RowData> writer = flat.create()) {
            assertThatThrownBy(() -> writer.write(row))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("required column rd");
        }
    }

    @Test
    void leavesWhatItDoesNotWriteToIcebergsWriters() {
        assertThat(FlatParquetRowWriter.supports(schema(true), rowType(true))).isTrue();
        Schema decimal = new Schema(Types.NestedField.optional(1, "x", Types.DecimalType.of(10, 2)));
        assertThat(FlatParquetRowWriter.supports(decimal, RowType.of(new DecimalType(10, 2))))
                .isFalse();
        Schema uuid = new Schema(Types.NestedField.optional(1, "x", Types.UUIDType.get()));
        assertThat(FlatParquetRowWriter.supports(uuid, RowType.of(new VarBinaryType(16))))
                .isFalse();
        Schema fixed = new Schema(Types.NestedField.optional(1, "x", Types.FixedType.ofLength(4)));
        assertThat(FlatParquetRowWriter.supports(fixed, RowType.of(new VarBinaryType(4))))
                .isFalse();
        Schema nested = new Schema(Types.NestedField.optional(
                1, "x", Types.StructType.of(Types.NestedField.optional(2, "y", Types.LongType.get()))));
        assertThat(FlatParquetRowWriter.supports(nested, RowType.of(RowType.of(new BigIntType()))))
                .isFalse();
        // a Flink type Iceberg's writer would not take for the column
        Schema longs = new Schema(Types.NestedField.optional(1, "x", Types.LongType.get()));
        assertThat(FlatParquetRowWriter.supports(longs, RowType.of(new IntType())))
                .isFalse();
    }

    static List<DataFile> write(TaskWriterFactory<RowData> factory, List<RowData> rows) throws Exception {
        factory.initialize(0, 0);
        List<DataFile> files;
        try (TaskWriter<RowData> writer = factory.create()) {
            for (RowData row : rows) {
                writer.write(row);
            }
            files = new ArrayList<>(List.of(writer.dataFiles()));
        }
        // the files of both writers in the order they were opened: the last number of the name
        files.sort(Comparator.comparingInt(FlatParquetRowWriterTest::fileCounter));
        return files;
    }

    private static int fileCounter(DataFile file) {
        String name = file.location().substring(file.location().lastIndexOf('/') + 1);
        String stem = name.substring(0, name.indexOf('.'));
        return Integer.parseInt(stem.substring(stem.lastIndexOf('-') + 1));
    }

    private static Set<Long> readIds(Table table, Schema schema, List<DataFile> files) throws Exception {
        Set<Long> ids = new HashSet<>();
        List<Long> all = new ArrayList<>();
        for (DataFile file : files) {
            try (CloseableIterable<Record> records = Parquet.read(table.io().newInputFile(file.location()))
                    .project(schema)
                    .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema))
                    .build()) {
                for (Record record : records) {
                    all.add((Long) record.getField("id"));
                }
            }
        }
        ids.addAll(all);
        assertThat(all).hasSameSizeAs(ids);
        return ids;
    }

    private static List<Long> ids(List<RowData> rows) {
        List<Long> ids = new ArrayList<>();
        rows.forEach(row -> ids.add(row.getLong(0)));
        return ids;
    }

    private static final double[] SPECIAL_DOUBLES = {
        Double.NaN,
        -0.0,
        0.0,
        Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY,
        Double.MIN_VALUE,
        Double.MAX_VALUE,
        -Double.MAX_VALUE
    };
    private static final String[] WORDS = {"", "a", "ä€", "𝄞 music", "same", "same", "zzzz"};

    static List<RowData> randomRows(Random random, RowType rowType, boolean nanos) {
        RowDataSerializer serializer = new RowDataSerializer(rowType);
        List<RowData> rows = new ArrayList<>(ROWS);
        for (int n = 0; n < ROWS; n++) {
            GenericRowData row = new GenericRowData(rowType.getFieldCount());
            row.setField(0, (long) n * 7919 - 1_000_000);
            row.setField(1, maybeNull(random, random.nextBoolean()));
            row.setField(2, maybeNull(random, (byte) random.nextInt()));
            row.setField(3, maybeNull(random, (short) random.nextInt()));
            row.setField(4, maybeNull(random, random.nextInt()));
            // a quarter NaN
            row.setField(5, maybeNull(random, random.nextInt(4) == 0 ? Float.NaN : random.nextFloat() - 0.5f));
            row.setField(6, maybeNull(random, randomDouble(random)));
            row.setField(7, randomDouble(random));
            row.setField(8, maybeNull(random, StringData.fromString(randomString(random))));
            byte[] bytes = new byte[random.nextInt(12)];
            random.nextBytes(bytes);
            row.setField(9, maybeNull(random, bytes));
            row.setField(10, maybeNull(random, random.nextInt(40_000) - 20_000));
            row.setField(11, maybeNull(random, random.nextInt(86_400_000)));
            long millis = random.nextLong() % 4_000_000_000_000L;
            row.setField(12, maybeNull(random, TimestampData.fromEpochMillis(millis, random.nextInt(1_000_000))));
            row.setField(13, maybeNull(random, TimestampData.fromEpochMillis(millis)));
            if (nanos) {
                row.setField(14, maybeNull(random, TimestampData.fromEpochMillis(millis, random.nextInt(1_000_000))));
            }
            // half of them as a job's operators hand them over, in binary form
            rows.add(random.nextBoolean() ? row : serializer.toBinaryRow(row).copy());
        }
        return rows;
    }

    private static double randomDouble(Random random) {
        return random.nextInt(5) == 0
                ? SPECIAL_DOUBLES[random.nextInt(SPECIAL_DOUBLES.length)]
                : (random.nextDouble() - 0.5) * 1e6;
    }

    private static String randomString(Random random) {
        if (random.nextInt(3) == 0) {
            return WORDS[random.nextInt(WORDS.length)];
        }
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(24);
        for (int i = 0; i < length; i++) {
            s.append((char) ('a' + random.nextInt(26)));
        }
        return s.toString();
    }

    private static Object maybeNull(Random random, Object value) {
        return random.nextInt(10) == 0 ? null : value;
    }
}
