package io.sluice.plugin.formats.parquet;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.local.LocalFileSystem;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/** Writes Parquet files through a format's writer and reads them back with parquet-java alone. */
final class ParquetFiles {

    // Julian day number of 1970-01-01, the base of INT96 timestamps
    private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;

    private ParquetFiles() {}

    /** Writes the rows to a new local file, as a sink's part file would be written. */
    static void write(BulkWriter.Factory<RowData> factory, Path file, List<RowData> rows) throws IOException {
        org.apache.flink.core.fs.Path path = new org.apache.flink.core.fs.Path(file.toUri());
        try (FSDataOutputStream out = LocalFileSystem.getSharedInstance().create(path, WriteMode.OVERWRITE)) {
            BulkWriter<RowData> writer = factory.create(out);
            for (RowData row : rows) {
                writer.addElement(row);
            }
            writer.finish();
        }
    }

    /** Every record of the file. */
    static List<Group> read(Path file) throws IOException {
        List<Group> records = new ArrayList<>();
        try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(), hadoopPath(file))
                .withConf(new Configuration())
                .build()) {
            for (Group record = reader.read(); record != null; record = reader.read()) {
                records.add(record);
            }
        }
        return records;
    }

    /** The file's footer: schema, row groups and column chunk metadata. */
    static ParquetMetadata footer(Path file) throws IOException {
        try (ParquetFileReader reader =
                ParquetFileReader.open(HadoopInputFile.fromPath(hadoopPath(file), new Configuration()))) {
            return reader.getFooter();
        }
    }

    /** Whether the record has no value for the field, Parquet's way of storing null. */
    static boolean isNull(Group record, String field) {
        return record.getFieldRepetitionCount(field) == 0;
    }

    /** A decimal in any of the physical types Parquet allows for one. */
    static BigDecimal decimal(Group record, String field, int scale) {
        PrimitiveType type = record.getType().getType(field).asPrimitiveType();
        switch (type.getPrimitiveTypeName()) {
            case INT32:
                return BigDecimal.valueOf(record.getInteger(field, 0), scale);
            case INT64:
                return BigDecimal.valueOf(record.getLong(field, 0), scale);
            default:
                return new BigDecimal(new BigInteger(record.getBinary(field, 0).getBytes()), scale);
        }
    }

    /** A DATE column: days since the epoch. */
    static LocalDate date(Group record, String field) {
        return LocalDate.ofEpochDay(record.getInteger(field, 0));
    }

    /**
     * An INT96 timestamp read as a UTC wall-clock time: eight little-endian bytes of nanoseconds
     * of the day, then four of the Julian day.
     */
    static LocalDateTime int96(Group record, String field) {
        Binary value = record.getInt96(field, 0);
        ByteBuffer bytes = value.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        long nanosOfDay = bytes.getLong();
        long julianDay = bytes.getInt();
        return LocalDate.ofEpochDay(julianDay - JULIAN_DAY_OF_EPOCH)
                .atStartOfDay()
                .plusNanos(nanosOfDay);
    }

    private static org.apache.hadoop.fs.Path hadoopPath(Path file) {
        return new org.apache.hadoop.fs.Path(file.toUri());
    }
}
