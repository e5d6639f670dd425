package io.sluice.plugin.iceberg;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.iceberg.FieldMetrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.parquet.ParquetValueWriter;
import org.apache.iceberg.parquet.TripleWriter;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Writes rows whose fields are all primitive straight into the Parquet columns of an Iceberg data
 * file: each value from its typed {@link RowData} getter into its column's writer, in one loop.
 *
 * <p>The values, the levels and the field metrics (value, null and NaN counts and bounds of float
 * and double columns, which Iceberg cannot take from the footer) are those of Iceberg's own
 * {@code FlinkParquetWriters}, so that both write the same file byte for byte (see its test). What
 * it leaves out is per value: Iceberg's writer asks a field getter for each value, which boxes
 * every number, and passes it through an option writer and a primitive writer to the column.
 * Iceberg's {@code ParquetWriter} still does everything else (row groups, pages, codecs, footer
 * metrics, encryption), from the table's properties as for its own writers.
 *
 * <p>Which rows it writes: see {@link #supports}; for any other row type the plugin leaves the file
 * to Iceberg's writers.
 */
final class FlatParquetRowWriter implements ParquetValueWriter<RowData> {

    private static final int BOOLEAN = 0;
    private static final int TINYINT = 1;
    private static final int SMALLINT = 2;
    private static final int INT = 3;
    private static final int LONG = 4;
    private static final int FLOAT = 5;
    private static final int DOUBLE = 6;
    private static final int STRING = 7;
    private static final int BINARY = 8;
    private static final int TIME_MICROS = 9;
    private static final int TIMESTAMP_MICROS = 10;
    private static final int TIMESTAMP_NANOS = 11;

    private final ColumnDescriptor[] descriptors;
    private final String[] names;
    private final int[] kinds;
    private final int[] precisions;
    private final int[] definitionLevels;
    private final boolean[] optional;
    private final FloatingPointMetrics[] floatingPoint; // null but for float and double columns
    private final ColumnWriter[] columns;

    private FlatParquetRowWriter(Schema schema, RowType rowType, MessageType parquetSchema) {
        int n = rowType.getFieldCount();
        List<ColumnDescriptor> columnsOfFile = parquetSchema.getColumns();
        if (columnsOfFile.size() != n || schema.columns().size() != n) {
            throw new IllegalArgumentException("Not a flat row of " + n + " fields: " + parquetSchema);
        }
        this.descriptors = columnsOfFile.toArray(new ColumnDescriptor[0]);
        this.names = new String[n];
        this.kinds = new int[n];
        this.precisions = new int[n];
        this.definitionLevels = new int[n];
        this.optional = new boolean[n];
        this.floatingPoint = new FloatingPointMetrics[n];
        this.columns = new ColumnWriter[n];
        for (int i = 0; i < n; i++) {
            Types.NestedField field = schema.columns().get(i);
            LogicalType type = rowType.getTypeAt(i);
            names[i] = field.name();
            kinds[i] = kindOf(field.type(), type);
            if (kinds[i] < 0) {
                throw new IllegalArgumentException(
                        "Cannot write field " + field.name() + " " + type + " as " + field.type());
            }
            precisions[i] = timestampPrecision(type);
            definitionLevels[i] = descriptors[i].getMaxDefinitionLevel();
            optional[i] = field.isOptional();
            if (kinds[i] == FLOAT || kinds[i] == DOUBLE) {
                floatingPoint[i] = new FloatingPointMetrics(field.fieldId(), field.type());
            }
        }
    }

    /**
     * The writer of a file of this table schema from rows of this type, for Iceberg's Parquet
     * appender, which hands it the Parquet schema it made of {@code schema}.
     */
    static ParquetValueWriter<RowData> create(Schema schema, RowType rowType, MessageType parquetSchema) {
        return new FlatParquetRowWriter(schema, rowType, parquetSchema);
    }

    /**
     * Whether rows of this type are written here into files of this schema: every field a top-level
     * column of boolean, int, long, float, double, date, time, timestamp (micro or nanosecond),
     * string or binary, with the Flink type Iceberg's writer takes for it. Decimals, UUIDs, fixed,
     * nested and variant types are left to Iceberg's writers.
     */
    static boolean supports(Schema schema, RowType rowType) {
        List<Types.NestedField> fields = schema.columns();
        if (fields.size() != rowType.getFieldCount()) {
            return false;
        }
        for (int i = 0; i < fields.size(); i++) {
            if (kindOf(fields.get(i).type(), rowType.getTypeAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** How a value of this Flink type goes into a column of this Iceberg type; -1: not here. */
    private static int kindOf(Type iceberg, LogicalType flink) {
        Type.TypeID id = iceberg.typeId();
        switch (flink.getTypeRoot()) {
            case BOOLEAN:
                return id == Type.TypeID.BOOLEAN ? BOOLEAN : -1;
            case TINYINT:
                return id == Type.TypeID.INTEGER ? TINYINT : -1;
            case SMALLINT:
                return id == Type.TypeID.INTEGER ? SMALLINT : -1;
            case INTEGER:
                return id == Type.TypeID.INTEGER ? INT : -1;
            case DATE:
                return id == Type.TypeID.DATE ? INT : -1;
            case BIGINT:
                return id == Type.TypeID.LONG ? LONG : -1;
            case FLOAT:
                return id == Type.TypeID.FLOAT ? FLOAT : -1;
            case DOUBLE:
                return id == Type.TypeID.DOUBLE ? DOUBLE : -1;
            case CHAR:
            case VARCHAR:
                return id == Type.TypeID.STRING ? STRING : -1;
            case BINARY:
            case VARBINARY:
                return id == Type.TypeID.BINARY ? BINARY : -1;
            case TIME_WITHOUT_TIME_ZONE:
                return id == Type.TypeID.TIME ? TIME_MICROS : -1;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                if (id == Type.TypeID.TIMESTAMP) {
                    return TIMESTAMP_MICROS;
                }
                return id == Type.TypeID.TIMESTAMP_NANO ? TIMESTAMP_NANOS : -1;
            default:
                return -1;
        }
    }

    /** The precision to read a timestamp of this type with, or -1 if it is no timestamp. */
    private static int timestampPrecision(LogicalType flink) {
        switch (flink.getTypeRoot()) {
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return ((TimestampType) flink).getPrecision();
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return ((LocalZonedTimestampType) flink).getPrecision();
            default:
                return -1;
        }
    }

    @Override
    public void write(int repetitionLevel, RowData row) {
        for (int i = 0; i < kinds.length; i++) {
            ColumnWriter column = columns[i];
            int d = definitionLevels[i];
            if (row.isNullAt(i)) {
                writeNull(i, repetitionLevel);
                continue;
            }
            switch (kinds[i]) {
                case BOOLEAN:
                    column.write(row.getBoolean(i), repetitionLevel, d);
                    break;
                case TINYINT:
                    column.write((int) row.getByte(i), repetitionLevel, d);
                    break;
                case SMALLINT:
                    column.write((int) row.getShort(i), repetitionLevel, d);
                    break;
                case INT:
                    column.write(row.getInt(i), repetitionLevel, d);
                    break;
                case LONG:
                    column.write(row.getLong(i), repetitionLevel, d);
                    break;
                case FLOAT:
                    float f = row.getFloat(i);
                    column.write(f, repetitionLevel, d);
                    floatingPoint[i].add(f);
                    break;
                case DOUBLE:
                    double v = row.getDouble(i);
                    column.write(v, repetitionLevel, d);
                    floatingPoint[i].add(v);
                    break;
                case STRING:
                    // Parquet copies a reused array wherever it keeps a value (statistics, dictionary)
                    column.write(Binary.fromReusedByteArray(row.getString(i).toBytes()), repetitionLevel, d);
                    break;
                case BINARY:
                    column.write(Binary.fromReusedByteArray(row.getBinary(i)), repetitionLevel, d);
                    break;
                case TIME_MICROS:
                    column.write(row.getInt(i) * 1000L, repetitionLevel, d);
                    break;
                case TIMESTAMP_MICROS:
                    TimestampData micros = row.getTimestamp(i, precisions[i]);
                    column.write(
                            micros.getMillisecond() * 1000 + micros.getNanoOfMillisecond() / 1000, repetitionLevel, d);
                    break;
                case TIMESTAMP_NANOS:
                    TimestampData nanos = row.getTimestamp(i, precisions[i]);
                    column.write(
                            nanos.getMillisecond() * 1_000_000L + nanos.getNanoOfMillisecond(), repetitionLevel, d);
                    break;
                default:
                    throw new IllegalStateException("kind " + kinds[i]);
            }
        }
    }

    private void writeNull(int i, int repetitionLevel) {
        if (!optional[i]) {
            // Iceberg's writer would fail on it too, with a NullPointerException; and a BinaryRowData's
            // value bytes of a null field are not to be written as a value (FLINK-37245)
            throw new IllegalArgumentException("Null value in the required column " + names[i]
                    + " of an Iceberg table: the table does not take nulls there");
        }
        columns[i].writeNull(repetitionLevel, definitionLevels[i] - 1);
        if (floatingPoint[i] != null) {
            floatingPoint[i].nulls++;
        }
    }

    @Override
    public void setColumnStore(ColumnWriteStore columnStore) {
        for (int i = 0; i < descriptors.length; i++) {
            columns[i] = columnStore.getColumnWriter(descriptors[i]);
        }
    }

    /**
     * Not asked for: Iceberg's appender writes through the root writer only; only composite writers
     * ask their children for their columns, and this writer is never a child.
     */
    @Override
    public List<TripleWriter<?>> columns() {
        throw new UnsupportedOperationException("FlatParquetRowWriter is a root writer and has no triple writers");
    }

    @Override
    public Stream<FieldMetrics<?>> metrics() {
        List<FieldMetrics<?>> metrics = new ArrayList<>();
        for (FloatingPointMetrics m : floatingPoint) {
            if (m != null) {
                metrics.add(m.build());
            }
        }
        return metrics.stream();
    }

    /**
     * What Iceberg cannot read from a Parquet footer of a float or double column: how many values
     * are NaN, and bounds that leave the NaNs out; counted as Iceberg's own writers count them.
     */
    private static final class FloatingPointMetrics {
        private final int id;
        private final Type type;
        private long values; // not null
        private long nulls;
        private long nans;
        private double lower = Double.POSITIVE_INFINITY;
        private double upper = Double.NEGATIVE_INFINITY;

        FloatingPointMetrics(int id, Type type) {
            this.id = id;
            this.type = type;
        }

        void add(double value) {
            values++;
            if (Double.isNaN(value)) {
                nans++;
            } else {
                // Double.compare, not <: -0.0 is below 0.0, as in Iceberg's bounds
                if (Double.compare(value, lower) < 0) {
                    lower = value;
                }
                if (Double.compare(value, upper) > 0) {
                    upper = value;
                }
            }
        }

        FieldMetrics<?> build() {
            boolean bounded = values - nans > 0;
            if (type.typeId() == Type.TypeID.FLOAT) {
                return new FieldMetrics<>(
                        id,
                        values + nulls,
                        nulls,
                        nans,
                        bounded ? (float) lower : null,
                        bounded ? (float) upper : null,
                        type);
            }
            return new FieldMetrics<>(
                    id, values + nulls, nulls, nans, bounded ? lower : null, bounded ? upper : null, type);
        }
    }
}
