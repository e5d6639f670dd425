package io.sluice.plugin.iceberg;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.parquet.ColumnIterator;
import org.apache.iceberg.parquet.ParquetValueReaders;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;

import javax.annotation.Nullable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the Parquet columns of an Iceberg data file whose projected fields are all primitive
 * straight into a {@link BinaryRowData}: each value from its column's typed iterator into the row,
 * in one loop.
 *
 * <p>The values are those of Iceberg's own {@code FlinkParquetReaders} (its test reads the same
 * files both ways). What it leaves out is per value: Iceberg's reader builds a {@code
 * GenericRowData}, which boxes every number, through an option reader and a primitive reader per
 * field; and a binary row is copied, downstream, by one array copy instead of field by field.
 * Iceberg's {@code ParquetReader} still does everything else (projection by field id, name
 * mapping, row-group filtering, splits, decryption).
 *
 * <p>The row is reused: the next {@link #read} overwrites it, so its reader copies it (as the
 * framework's scan reader does) before it reads on.
 *
 * <p>Which files it reads: see {@link #create}; for any other the plugin reads with Iceberg's readers.
 */
final class FlatParquetRowReader extends ParquetValueReaders.PrimitiveReader<RowData> {

    private static final int BOOLEAN = 0;
    private static final int INT = 1;
    private static final int LONG = 2;
    private static final int FLOAT = 3;
    private static final int DOUBLE = 4;
    private static final int STRING = 5;
    private static final int BINARY = 6;
    private static final int TIME_MICROS = 7;
    private static final int TIMESTAMP_MICROS = 8;
    private static final int TIMESTAMP_NANOS = 9;

    private final ColumnDescriptor[] descriptors;
    private final ColumnIterator<?>[] columns;
    private final int[] kinds;
    private final boolean[] optional;
    private final BinaryRowData row;
    private final BinaryRowWriter writer;

    private FlatParquetRowReader(List<ColumnDescriptor> descriptors, int[] kinds) {
        // a primitive reader of the first column only for Iceberg's reader interface, whose column
        // types are Iceberg's own: a root reader's columns are never asked for
        super(descriptors.get(0));
        int n = kinds.length;
        this.descriptors = descriptors.toArray(new ColumnDescriptor[0]);
        this.columns = new ColumnIterator<?>[n];
        this.kinds = kinds;
        this.optional = new boolean[n];
        for (int i = 0; i < n; i++) {
            columns[i] = i == 0 ? column : new Column(this.descriptors[i]).iterator();
            optional[i] = this.descriptors[i].getMaxDefinitionLevel() > 0;
        }
        this.row = new BinaryRowData(n);
        this.writer = new BinaryRowWriter(row);
    }

    /**
     * The reader of a file of this (projected, id-mapped) Parquet schema for the expected schema,
     * or null if it is not one to read here. It is when every expected field is a top-level
     * primitive column of the file, of boolean, int, date, long, float, double, string, binary,
     * time (microseconds) or timestamp (micro- or nanoseconds), stored as Iceberg writes that type
     * (no promotion, no other annotation), and none is a metadata column or a constant of the
     * task ({@code idToConstant}: identity partition values, which Iceberg reads from the task).
     */
    @Nullable
    static FlatParquetRowReader create(Schema expected, MessageType fileSchema, Map<Integer, ?> idToConstant) {
        List<Types.NestedField> fields = expected.columns();
        if (fields.isEmpty()) {
            return null;
        }
        List<ColumnDescriptor> descriptors = new ArrayList<>(fields.size());
        int[] kinds = new int[fields.size()];
        for (int i = 0; i < fields.size(); i++) {
            Types.NestedField field = fields.get(i);
            if (MetadataColumns.isMetadataColumn(field.fieldId()) || idToConstant.containsKey(field.fieldId())) {
                return null;
            }
            PrimitiveType column = topLevelColumn(fileSchema, field.fieldId());
            if (column == null) {
                return null; // not in the file: Iceberg's reader gives the default or null
            }
            kinds[i] = kindOf(field.type(), column);
            if (kinds[i] < 0) {
                return null;
            }
            descriptors.add(fileSchema.getColumnDescription(new String[] {column.getName()}));
        }
        return new FlatParquetRowReader(descriptors, kinds);
    }

    @Nullable
    private static PrimitiveType topLevelColumn(MessageType fileSchema, int fieldId) {
        for (org.apache.parquet.schema.Type type : fileSchema.getFields()) {
            if (type.getId() != null && type.getId().intValue() == fieldId) {
                boolean flat = type.isPrimitive()
                        && type.getRepetition() != org.apache.parquet.schema.Type.Repetition.REPEATED;
                return flat ? type.asPrimitiveType() : null;
            }
        }
        return null;
    }

    /** How a column stored so is read for a field of this type; -1: not here. */
    private static int kindOf(Type expected, PrimitiveType column) {
        LogicalTypeAnnotation annotation = column.getLogicalTypeAnnotation();
        PrimitiveType.PrimitiveTypeName stored = column.getPrimitiveTypeName();
        switch (expected.typeId()) {
            case BOOLEAN:
                return stored == PrimitiveType.PrimitiveTypeName.BOOLEAN && annotation == null ? BOOLEAN : -1;
            case INTEGER:
                return stored == PrimitiveType.PrimitiveTypeName.INT32 && annotation == null ? INT : -1;
            case DATE:
                return stored == PrimitiveType.PrimitiveTypeName.INT32
                                && annotation instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation
                        ? INT
                        : -1;
            case LONG:
                return stored == PrimitiveType.PrimitiveTypeName.INT64 && annotation == null ? LONG : -1;
            case FLOAT:
                return stored == PrimitiveType.PrimitiveTypeName.FLOAT && annotation == null ? FLOAT : -1;
            case DOUBLE:
                return stored == PrimitiveType.PrimitiveTypeName.DOUBLE && annotation == null ? DOUBLE : -1;
            case STRING:
                return stored == PrimitiveType.PrimitiveTypeName.BINARY
                                && annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                        ? STRING
                        : -1;
            case BINARY:
                return stored == PrimitiveType.PrimitiveTypeName.BINARY && annotation == null ? BINARY : -1;
            case TIME:
                return stored == PrimitiveType.PrimitiveTypeName.INT64
                                && annotation instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation
                                && ((LogicalTypeAnnotation.TimeLogicalTypeAnnotation) annotation).getUnit()
                                        == LogicalTypeAnnotation.TimeUnit.MICROS
                        ? TIME_MICROS
                        : -1;
            case TIMESTAMP:
            case TIMESTAMP_NANO:
                if (stored != PrimitiveType.PrimitiveTypeName.INT64
                        || !(annotation instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation)) {
                    return -1;
                }
                LogicalTypeAnnotation.TimeUnit unit =
                        ((LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) annotation).getUnit();
                if (expected.typeId() == Type.TypeID.TIMESTAMP) {
                    return unit == LogicalTypeAnnotation.TimeUnit.MICROS ? TIMESTAMP_MICROS : -1;
                }
                return unit == LogicalTypeAnnotation.TimeUnit.NANOS ? TIMESTAMP_NANOS : -1;
            default:
                return -1;
        }
    }

    @Override
    public RowData read(RowData reuse) {
        writer.reset();
        for (int i = 0; i < kinds.length; i++) {
            ColumnIterator<?> column = columns[i];
            if (optional[i] && column.currentDefinitionLevel() == 0) {
                column.nextNull();
                writeNull(i);
                continue;
            }
            switch (kinds[i]) {
                case BOOLEAN:
                    writer.writeBoolean(i, column.nextBoolean());
                    break;
                case INT:
                    writer.writeInt(i, column.nextInteger());
                    break;
                case LONG:
                    writer.writeLong(i, column.nextLong());
                    break;
                case FLOAT:
                    writer.writeFloat(i, column.nextFloat());
                    break;
                case DOUBLE:
                    writer.writeDouble(i, column.nextDouble());
                    break;
                case STRING:
                    writer.writeString(i, stringOf(column.nextBinary()));
                    break;
                case BINARY:
                    writer.writeBinary(i, column.nextBinary().getBytes());
                    break;
                case TIME_MICROS:
                    // Flink's TIME is in milliseconds: the microseconds go, as in Iceberg's reader
                    writer.writeInt(i, (int) Math.floorDiv(column.nextLong(), 1000L));
                    break;
                case TIMESTAMP_MICROS:
                    long micros = column.nextLong();
                    writer.writeTimestamp(
                            i,
                            TimestampData.fromEpochMillis(
                                    Math.floorDiv(micros, 1000L), Math.floorMod(micros, 1000) * 1000),
                            6);
                    break;
                case TIMESTAMP_NANOS:
                    long nanos = column.nextLong();
                    writer.writeTimestamp(
                            i,
                            TimestampData.fromEpochMillis(
                                    Math.floorDiv(nanos, 1_000_000L), Math.floorMod(nanos, 1_000_000)),
                            9);
                    break;
                default:
                    throw new IllegalStateException("kind " + kinds[i]);
            }
        }
        writer.complete();
        return row;
    }

    private void writeNull(int i) {
        if (kinds[i] == TIMESTAMP_MICROS || kinds[i] == TIMESTAMP_NANOS) {
            // a timestamp above millisecond precision keeps its place in the variable part, null or not
            writer.writeTimestamp(i, null, kinds[i] == TIMESTAMP_MICROS ? 6 : 9);
        } else {
            writer.setNullAt(i);
        }
    }

    /** The value's bytes, without a copy where the page holds them in an array (the row copies them). */
    private static BinaryStringData stringOf(Binary value) {
        ByteBuffer buffer = value.toByteBuffer();
        if (buffer.hasArray()) {
            return BinaryStringData.fromBytes(
                    buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
        }
        return BinaryStringData.fromBytes(value.getBytes());
    }

    @Override
    public void setPageSource(PageReadStore pages) {
        for (int i = 0; i < columns.length; i++) {
            columns[i].setPageSource(pages.getPageReader(descriptors[i]));
        }
    }

    /** A column's value iterator, as Iceberg makes it for its primitive readers. */
    private static final class Column extends ParquetValueReaders.PrimitiveReader<Object> {
        Column(ColumnDescriptor descriptor) {
            super(descriptor);
        }

        ColumnIterator<?> iterator() {
            return column;
        }

        @Override
        public Object read(Object reuse) {
            throw new UnsupportedOperationException("only its column is read");
        }
    }
}
