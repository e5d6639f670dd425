package io.sluice.spi.distribution;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * Encodes column values so that byte order is value order: a null marker first (nulls sort
 * first), fixed-width numbers big-endian with the sign bit flipped, floating point numbers with
 * all bits flipped when negative, and strings and bytes with {@code 0x00} escaped as {@code 0x00
 * 0xFF} and terminated by {@code 0x00 0x00}, so that a prefix sorts before its extensions and the
 * next column never changes the order decided by this one.
 */
final class OrderedColumnsKey implements DistributionKey {

    private interface Encoder {
        void write(RowData row, ByteArrayOutputStream out);
    }

    private final int[] positions;
    private final Encoder[] encoders;
    /** Reused for every row (a key is used by one thread): a row costs only the array it returns. */
    private final ByteArrayOutputStream out;

    private OrderedColumnsKey(int[] positions, Encoder[] encoders) {
        this.positions = positions;
        this.encoders = encoders;
        this.out = new ByteArrayOutputStream(16 * positions.length);
    }

    static OrderedColumnsKey of(RowType rowType, List<String> columns) {
        int[] positions = new int[columns.size()];
        Encoder[] encoders = new Encoder[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            String column = columns.get(i);
            int position = rowType.getFieldIndex(column);
            if (position < 0) {
                throw new IllegalArgumentException(
                        "Distribution key column '" + column + "' is not a column of " + rowType.getFieldNames());
            }
            positions[i] = position;
            encoders[i] = encoder(column, rowType.getTypeAt(position), position);
        }
        return new OrderedColumnsKey(positions, encoders);
    }

    @Override
    public byte[] of(RowData row) {
        out.reset();
        for (int i = 0; i < positions.length; i++) {
            if (row.isNullAt(positions[i])) {
                out.write(0);
            } else {
                out.write(1);
                encoders[i].write(row, out);
            }
        }
        return out.toByteArray();
    }

    private static Encoder encoder(String column, LogicalType type, int pos) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return (row, out) -> out.write(row.getBoolean(pos) ? 1 : 0);
            case TINYINT:
                return (row, out) -> writeInt(row.getByte(pos), out);
            case SMALLINT:
                return (row, out) -> writeInt(row.getShort(pos), out);
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case INTERVAL_YEAR_MONTH:
                return (row, out) -> writeInt(row.getInt(pos), out);
            case BIGINT:
            case INTERVAL_DAY_TIME:
                return (row, out) -> writeLong(row.getLong(pos), out);
            case FLOAT:
                return (row, out) -> {
                    int bits = Float.floatToIntBits(row.getFloat(pos));
                    writeRawInt(bits < 0 ? ~bits : bits ^ Integer.MIN_VALUE, out);
                };
            case DOUBLE:
                return (row, out) -> {
                    long bits = Double.doubleToLongBits(row.getDouble(pos));
                    writeRawLong(bits < 0 ? ~bits : bits ^ Long.MIN_VALUE, out);
                };
            case DECIMAL: {
                DecimalType decimal = (DecimalType) type;
                if (decimal.getPrecision() > 18) {
                    throw new IllegalArgumentException("Distribution key column '" + column + "' of type " + type
                            + " cannot be ordered as bytes: decimals of more than 18 digits are not supported");
                }
                int precision = decimal.getPrecision();
                int scale = decimal.getScale();
                return (row, out) -> {
                    DecimalData value = row.getDecimal(pos, precision, scale);
                    writeLong(value.toUnscaledLong(), out);
                };
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                int precision = type.getTypeRoot() == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                        ? ((TimestampType) type).getPrecision()
                        : ((LocalZonedTimestampType) type).getPrecision();
                return (row, out) -> {
                    TimestampData ts = row.getTimestamp(pos, precision);
                    writeLong(ts.getMillisecond(), out);
                    writeInt(ts.getNanoOfMillisecond(), out);
                };
            }
            case CHAR:
            case VARCHAR:
                return (row, out) -> writeBytes(row.getString(pos).toBytes(), out);
            case BINARY:
            case VARBINARY:
                return (row, out) -> writeBytes(row.getBinary(pos), out);
            default:
                throw new IllegalArgumentException(
                        "Distribution key column '" + column + "' of type " + type + " cannot be ordered as bytes");
        }
    }

    private static void writeInt(int v, ByteArrayOutputStream out) {
        writeRawInt(v ^ Integer.MIN_VALUE, out);
    }

    private static void writeLong(long v, ByteArrayOutputStream out) {
        writeRawLong(v ^ Long.MIN_VALUE, out);
    }

    private static void writeRawInt(int v, ByteArrayOutputStream out) {
        out.write(v >>> 24);
        out.write(v >>> 16);
        out.write(v >>> 8);
        out.write(v);
    }

    private static void writeRawLong(long v, ByteArrayOutputStream out) {
        writeRawInt((int) (v >>> 32), out);
        writeRawInt((int) v, out);
    }

    private static void writeBytes(byte[] bytes, ByteArrayOutputStream out) {
        for (byte b : bytes) {
            out.write(b);
            if (b == 0) {
                out.write(0xFF);
            }
        }
        out.write(0);
        out.write(0);
    }
}
