package io.sluice.plugin.formats.parquet;

import io.sluice.plugin.formats.testing.TestFormatContext;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.formats.parquet.row.ParquetRowDataBuilder;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
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
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The direct Parquet writer against Flink's: the same random rows (every primitive type, nulls,
 * timestamps before and after 1970, several row groups), the same options, and the files must be
 * the same bytes. Flink's writer is the reference for what a value looks like in a file; equal
 * bytes also mean equal pages, statistics, encodings and row groups.
 */
class DirectParquetWriterTest {

    private static final RowType FLAT = RowType.of(
            new LogicalType[] {
                new BooleanType(),
                new TinyIntType(),
                new SmallIntType(),
                new IntType(false),
                new BigIntType(),
                new FloatType(),
                new DoubleType(),
                new CharType(3),
                new VarCharType(VarCharType.MAX_LENGTH),
                new VarBinaryType(VarBinaryType.MAX_LENGTH),
                new DateType(),
                new TimeType(3),
                new TimestampType(3),
                new TimestampType(9),
                new LocalZonedTimestampType(6),
                new BigIntType(false)
            },
            new String[] {
                "b", "tiny", "small", "i", "l", "f", "d", "c", "s", "bytes", "date", "time", "ts3", "ts9", "ltz", "id"
            });

    @TempDir
    Path dir;

    @ParameterizedTest(name = "utc-timezone={0}")
    @ValueSource(booleans = {true, false})
    void writesTheBytesFlinksWriterWrites(boolean utc) throws Exception {
        long seed = System.nanoTime();
        System.out.println("DirectParquetWriterTest seed " + seed);
        List<RowData> rows = randomRows(new Random(seed), 30_000);
        // small groups and pages: several of each, and the size checks between them
        Configuration conf = ParquetWriterConfiguration.create(
                TestFormatContext.of(FLAT, "block.size", "262144", "page.size", "8192", "dictionary.page.size", "4096")
                        .options());

        Path direct = dir.resolve("direct.parquet");
        Path flink = dir.resolve("flink.parquet");
        ParquetFiles.write(new DirectParquetWriterFactory(FLAT, conf, utc), direct, rows);
        ParquetFiles.write(ParquetRowDataBuilder.createWriterFactory(FLAT, conf, utc), flink, rows);

        ParquetMetadata footer = ParquetFiles.footer(direct);
        assertThat(footer.getBlocks()).as("row groups (seed %d)", seed).hasSizeGreaterThan(2);
        assertThat(footer.getBlocks().stream()
                        .mapToLong(BlockMetaData::getRowCount)
                        .sum())
                .isEqualTo(rows.size());
        assertThat(ParquetFiles.read(direct).toString())
                .as("records (seed %d)", seed)
                .isEqualTo(ParquetFiles.read(flink).toString());
        assertThat(Files.readAllBytes(direct)).as("file bytes (seed %d)", seed).isEqualTo(Files.readAllBytes(flink));
    }

    @Test
    void writesTheBytesFlinksWriterWritesWithTheDefaultOptions() throws Exception {
        List<RowData> rows = randomRows(new Random(7), 2_000);
        Configuration conf =
                ParquetWriterConfiguration.create(TestFormatContext.of(FLAT).options());
        Path direct = dir.resolve("direct.parquet");
        Path flink = dir.resolve("flink.parquet");
        ParquetFiles.write(new DirectParquetWriterFactory(FLAT, conf, true), direct, rows);
        ParquetFiles.write(ParquetRowDataBuilder.createWriterFactory(FLAT, conf, true), flink, rows);
        assertSameBytes(direct, flink, 7);
    }

    @Test
    void theFormatWritesFlatRowsDirectlyAndTheRestThroughFlinksWriter() {
        ParquetFormatFactory format = new ParquetFormatFactory();
        assertThat(format.createBulkWriterFactory(TestFormatContext.of(FLAT)))
                .isInstanceOf(DirectParquetWriterFactory.class);
        // INT64 timestamps, decimals and nested types: Flink's writer
        assertThat(format.createBulkWriterFactory(TestFormatContext.of(FLAT, "write.int64.timestamp", "true")))
                .isNotInstanceOf(DirectParquetWriterFactory.class);
        RowType decimal =
                RowType.of(new LogicalType[] {new IntType(), new DecimalType(10, 2)}, new String[] {"i", "x"});
        assertThat(format.createBulkWriterFactory(TestFormatContext.of(decimal)))
                .isNotInstanceOf(DirectParquetWriterFactory.class);
        RowType array = RowType.of(new LogicalType[] {new ArrayType(new IntType())}, new String[] {"a"});
        assertThat(format.createBulkWriterFactory(TestFormatContext.of(array)))
                .isNotInstanceOf(DirectParquetWriterFactory.class);
    }

    @Test
    void aFileWithNoRowsIsAValidEmptyFile() throws Exception {
        Configuration conf =
                ParquetWriterConfiguration.create(TestFormatContext.of(FLAT).options());
        Path direct = dir.resolve("direct.parquet");
        Path flink = dir.resolve("flink.parquet");
        ParquetFiles.write(new DirectParquetWriterFactory(FLAT, conf, true), direct, List.of());
        ParquetFiles.write(ParquetRowDataBuilder.createWriterFactory(FLAT, conf, true), flink, List.of());
        assertThat(ParquetFiles.read(direct)).isEmpty();
        assertSameBytes(direct, flink, 7);
    }

    /**
     * Parquet writes page headers and the footer a byte at a time; a part file's stream may make
     * each write a system call (the local recoverable one does), so they reach it gathered: a
     * small file of 16 columns in a few writes, and the same bytes as without.
     */
    @Test
    void smallWritesReachTheStreamGathered() throws Exception {
        List<RowData> rows = randomRows(new Random(11), 50);
        Configuration conf =
                ParquetWriterConfiguration.create(TestFormatContext.of(FLAT).options());
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        int[] writes = new int[1];
        FSDataOutputStream counting = new FSDataOutputStream() {
            @Override
            public long getPos() {
                return bytes.size();
            }

            @Override
            public void write(int b) {
                writes[0]++;
                bytes.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                writes[0]++;
                bytes.write(b, off, len);
            }

            @Override
            public void flush() {}

            @Override
            public void sync() {}

            @Override
            public void close() {}
        };
        BulkWriter<RowData> writer = new DirectParquetWriterFactory(FLAT, conf, true).create(counting);
        for (RowData row : rows) {
            writer.addElement(row);
        }
        writer.finish();

        assertThat(writes[0]).as("writes of a %d-byte file", bytes.size()).isLessThan(10);
        Path flink = dir.resolve("flink.parquet");
        ParquetFiles.write(ParquetRowDataBuilder.createWriterFactory(FLAT, conf, true), flink, rows);
        assertThat(bytes.toByteArray()).isEqualTo(Files.readAllBytes(flink));
    }

    private static List<Long> rowGroupSizes(Path file) throws Exception {
        List<Long> rows = new ArrayList<>();
        for (BlockMetaData block : ParquetFiles.footer(file).getBlocks()) {
            rows.add(block.getRowCount());
        }
        return rows;
    }

    /** Fails with the first offset where the files differ, rather than with two arrays. */
    private static void assertSameBytes(Path actual, Path expected, long seed) throws Exception {
        byte[] a = Files.readAllBytes(actual);
        byte[] e = Files.readAllBytes(expected);
        int mismatch = java.util.Arrays.mismatch(a, e);
        assertThat(mismatch)
                .as(
                        "first differing byte of %s (%d bytes) and %s (%d bytes), seed %d",
                        actual, a.length, expected, e.length, seed)
                .isEqualTo(-1);
    }

    private static List<RowData> randomRows(Random random, int count) {
        List<RowData> rows = new ArrayList<>(count);
        for (int n = 0; n < count; n++) {
            GenericRowData row = new GenericRowData(FLAT.getFieldCount());
            row.setField(0, random.nextBoolean());
            row.setField(1, (byte) random.nextInt());
            row.setField(2, (short) random.nextInt());
            row.setField(3, random.nextInt());
            row.setField(4, random.nextLong());
            row.setField(5, random.nextFloat() * 1e6f - 5e5f);
            row.setField(6, random.nextGaussian() * 1e9);
            row.setField(7, StringData.fromString(random.nextBoolean() ? "abc" : "äx"));
            row.setField(8, StringData.fromString(text(random)));
            byte[] bytes = new byte[random.nextInt(20)];
            random.nextBytes(bytes);
            row.setField(9, bytes);
            row.setField(10, random.nextInt(200_000) - 100_000);
            row.setField(11, random.nextInt(86_400_000));
            row.setField(12, timestamp(random, 3));
            row.setField(13, timestamp(random, 9));
            row.setField(14, timestamp(random, 6));
            row.setField(15, (long) n);
            // nulls in every nullable column, runs of them as well as single ones
            for (int i = 0; i < FLAT.getFieldCount(); i++) {
                if (FLAT.getTypeAt(i).isNullable() && random.nextInt(n % 1000 < 50 ? 2 : 10) == 0) {
                    row.setField(i, null);
                }
            }
            rows.add(row);
        }
        return rows;
    }

    private static String text(Random random) {
        // a few repeating values first (dictionary), then unique ones (fallback to plain)
        if (random.nextInt(3) == 0) {
            return "value " + random.nextInt(5);
        }
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(30); i > 0; i--) {
            s.append((char) (random.nextBoolean() ? 'a' + random.nextInt(26) : 0x3b1 + random.nextInt(20)));
        }
        return s.toString();
    }

    private static TimestampData timestamp(Random random, int precision) {
        // 1900 to 2100: before the epoch too, where the day and the time of day are negative
        long millis = (long) (random.nextDouble() * 6_311_390_400_000L) - 2_208_988_800_000L;
        int nanos = precision == 3 ? 0 : random.nextInt(1_000_000);
        if (precision == 6) {
            nanos = nanos / 1000 * 1000;
        }
        return TimestampData.fromEpochMillis(millis, nanos);
    }
}
