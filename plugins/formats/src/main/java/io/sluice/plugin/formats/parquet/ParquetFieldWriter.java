package io.sluice.plugin.formats.parquet;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;

import java.sql.Timestamp;

import static org.apache.flink.formats.parquet.vector.reader.TimestampColumnReader.JULIAN_EPOCH_OFFSET_DAYS;
import static org.apache.flink.formats.parquet.vector.reader.TimestampColumnReader.MILLIS_IN_DAY;
import static org.apache.flink.formats.parquet.vector.reader.TimestampColumnReader.NANOS_PER_MILLISECOND;
import static org.apache.flink.formats.parquet.vector.reader.TimestampColumnReader.NANOS_PER_SECOND;

/**
 * Writes one top-level field of a row straight into its Parquet column: the value the same as
 * Flink's {@code ParquetRowDataWriter} writes it (so Flink's reader, and every other, reads the
 * same), without the record consumer between row and column, which tracks the fields of every
 * row in a bit set and looks each column up per value.
 *
 * <p>A null is written as Flink's writer leaves it to Parquet: repetition and definition level 0,
 * also in a {@code NOT NULL} column.
 */
abstract class ParquetFieldWriter {

    private ColumnWriter column;
    private int definedLevel;

    /** The column of the current row group; a new row group has new columns. */
    final void bind(ColumnWriter column, int maxDefinitionLevel) {
        this.column = column;
        this.definedLevel = maxDefinitionLevel;
    }

    final void write(RowData row, int pos) {
        if (row.isNullAt(pos)) {
            column.writeNull(0, 0);
        } else {
            writeValue(row, pos, column, definedLevel);
        }
    }

    abstract void writeValue(RowData row, int pos, ColumnWriter column, int d);

    /**
     * The writer of a field of this type, or null where this class does not write the type (then
     * the row goes to Flink's writer). Timestamps: INT96, as Flink writes them by default.
     */
    static ParquetFieldWriter forType(LogicalType type, boolean utcTimestamp) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new BooleanField();
            case TINYINT:
                return new ByteField();
            case SMALLINT:
                return new ShortField();
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return new IntField();
            case BIGINT:
                return new LongField();
            case FLOAT:
                return new FloatField();
            case DOUBLE:
                return new DoubleField();
            case CHAR:
            case VARCHAR:
                return new StringField();
            case BINARY:
            case VARBINARY:
                return new BytesField();
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return new Int96TimestampField(((TimestampType) type).getPrecision(), utcTimestamp);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new Int96TimestampField(((LocalZonedTimestampType) type).getPrecision(), utcTimestamp);
            default:
                return null;
        }
    }

    private static final class BooleanField extends ParquetFieldWriter {
        @Override
        void writeValue(RowData row, int pos, ColumnWriter column, int d) {
            column.write(row.getBoolean(pos), 0, d);
        }
    }

    private static final class ByteField extends ParquetFieldWriter {
        @Override
        void writeValue(RowData row, int pos, ColumnWriter column, int d) {
            column.write((int) row.getByte(pos), 0, d);
        }
    }

    private static final class ShortField extends ParquetFieldWriter {
        @Override
        void writeValue(RowData row, int pos, ColumnWriter column, int d) {
            column.write((int) row.getShort(pos), 0, d);
        }
    }

    private static final class IntField extends ParquetFieldWriter {
        @Override
        void writeValue(RowData row, int pos, ColumnWriter column, int d) {
            column.write(row.getInt(pos), 0, d);
        }
    }

    private static final class LongField extends ParquetFieldWriter {
        @Override
        void writeValue(RowData row, int pos, ColumnWriter column, int d) {
            column.write(row.getLong(pos), 0, d);
        }
    }

    private static final class FloatField extends ParquetFieldWriter {
        @Override
        void writeValue(RowData row, int pos, ColumnWriter column, int d) {
            column.write(row.getFloat(pos), 0, d);
        }
    }

    private static final class DoubleField extends ParquetFieldWriter {
        @Override
        void writeValue(RowData row, int pos, ColumnWriter column, int d) {
            column.write(row.getDouble(pos), 0, d);
        }
    }

    private static final class StringField extends ParquetFieldWriter {
        @Override
        void writeValue(RowData row, int pos, ColumnWriter column, int d) {
            // Parquet copies a reused array wherever it keeps a value (statistics, dictionary)
            column.write(Binary.fromReusedByteArray(row.getString(pos).toBytes()), 0, d);
        }
    }

    private static final class BytesField extends ParquetFieldWriter {
        @Override
        void writeValue(RowData row, int pos, ColumnWriter column, int d) {
            column.write(Binary.fromReusedByteArray(row.getBinary(pos)), 0, d);
        }
    }

    /**
     * INT96: nanoseconds of the day (8 bytes) then the Julian day (4 bytes), little-endian, in one
     * array per column that every row reuses. From UTC epoch millis, or (not {@code utc}) from the
     * wall-clock time in the JVM's zone, the two ways Flink writes them.
     */
    private static final class Int96TimestampField extends ParquetFieldWriter {
        private final int precision;
        private final boolean utc;
        private final byte[] bytes = new byte[12];

        Int96TimestampField(int precision, boolean utc) {
            this.precision = precision;
            this.utc = utc;
        }

        @Override
        void writeValue(RowData row, int pos, ColumnWriter column, int d) {
            TimestampData value = row.getTimestamp(pos, precision);
            long millis;
            long nanosOfDay;
            if (utc) {
                millis = value.getMillisecond();
                nanosOfDay = (millis % MILLIS_IN_DAY) * NANOS_PER_MILLISECOND + value.getNanoOfMillisecond();
            } else {
                Timestamp local = value.toTimestamp();
                millis = local.getTime();
                nanosOfDay = ((millis % MILLIS_IN_DAY) / 1000) * NANOS_PER_SECOND + local.getNanos();
            }
            // Java's truncating division, as Flink's writer divides: both files read the same
            int julianDay = (int) (millis / MILLIS_IN_DAY + JULIAN_EPOCH_OFFSET_DAYS);
            putLongLittleEndian(nanosOfDay);
            putIntLittleEndian(julianDay);
            column.write(Binary.fromReusedByteArray(bytes), 0, d);
        }

        private void putLongLittleEndian(long v) {
            for (int i = 0; i < 8; i++) {
                bytes[i] = (byte) (v >>> (8 * i));
            }
        }

        private void putIntLittleEndian(int v) {
            for (int i = 0; i < 4; i++) {
                bytes[8 + i] = (byte) (v >>> (8 * i));
            }
        }
    }
}
