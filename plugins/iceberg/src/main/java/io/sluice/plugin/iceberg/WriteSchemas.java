package io.sluice.plugin.iceberg;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Whether a sink's rows fit a table: every column must exist in the table's schema by name, in
 * the same order, with a type Iceberg can write into the table's type, and a nullable column
 * cannot go into a required one. These are the rules of Iceberg's own Flink sink
 * ({@code TypeUtil.validateWriteSchema}), so a table that one accepts the other does too.
 *
 * <p>Where Iceberg allows a promotion (INT, SMALLINT or TINYINT into {@code long}, FLOAT into
 * {@code double}, a decimal into one of more precision and the same scale), Iceberg's Flink
 * writers still read each value as the table's type and would fail on the first row with a
 * {@code ClassCastException} (or read a compact decimal as a wide one). {@link #writeType} and
 * {@link #widening} make the promotion real: the writers get the table's type and each row is
 * widened to it first. Promotions inside a nested type are refused at planning instead.
 */
final class WriteSchemas {

    private WriteSchemas() {}

    /**
     * @throws IllegalArgumentException naming the column, the table's type and the query's type
     *     for a column that does not fit
     */
    static void checkWritable(Table table, RowType rowType) {
        Schema tableSchema = table.schema();
        Schema writeSchema;
        try {
            // the sink's columns with the table's field ids, matched by name
            writeSchema = FlinkSchemaUtil.convert(tableSchema, FlinkSchemaUtil.toResolvedSchema(rowType));
            for (RowType.RowField field : rowType.getFields()) {
                checkColumn(tableSchema, writeSchema, field);
            }
            TypeUtil.validateWriteSchema(tableSchema, writeSchema, true, true);
            checkNoColumnMissing(tableSchema, rowType);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Rows of type " + rowType + " cannot be written to Iceberg table '" + table.name() + "' ('"
                            + IcebergOptions.CATALOG_TABLE.key() + "'): " + e.getMessage(),
                    e);
        }
    }

    /**
     * Every column of the table must be in the rows. {@code validateWriteSchema} lets optional
     * columns be missing (so does upstream's sink, whose planning passes the same way), but
     * Iceberg's Flink writers read every row by the table's positions: a partitioned table's row
     * wrapper fails on the TaskManager with an {@code ArrayIndexOutOfBoundsException}, and a file
     * writer would put values under the wrong columns. Refused at planning instead, naming them.
     */
    private static void checkNoColumnMissing(Schema tableSchema, RowType rowType) {
        List<String> missing = new ArrayList<>();
        for (Types.NestedField column : tableSchema.columns()) {
            if (!rowType.getFieldNames().contains(column.name())) {
                missing.add(column.name());
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(
                    "the table's column(s) " + missing + " are missing from the sink's columns "
                            + rowType.getFieldNames() + ": declare every column of the table, in the table's order "
                            + tableSchema.columns().stream()
                                    .map(Types.NestedField::name)
                                    .collect(java.util.stream.Collectors.toList())
                            + ", and write NULL into the ones to leave empty");
        }
    }

    private static void checkColumn(Schema tableSchema, Schema writeSchema, RowType.RowField field) {
        Types.NestedField tableField = tableSchema.findField(field.getName());
        Types.NestedField written = writeSchema.findField(field.getName());
        if (tableField == null || written == null) {
            return; // a missing column: validateWriteSchema names it with the table's schema
        }
        Type tableType = tableField.type();
        Type queryType = written.type();
        if (sameIgnoringNullability(tableType, queryType)) {
            return;
        }
        if (tableType.isPrimitiveType()
                && queryType.isPrimitiveType()
                && TypeUtil.isPromotionAllowed(queryType, tableType.asPrimitiveType())) {
            return; // widened row by row
        }
        String why = tableType.isPrimitiveType() && queryType.isPrimitiveType()
                ? "Iceberg does not widen " + queryType + " to " + tableType
                : "their types differ, and widening inside a nested type is not supported";
        throw new IllegalArgumentException(
                "column '" + field.getName() + "' has type " + tableType + " in the table, but "
                        + field.getType().asSummaryString() + " (" + queryType + ") in the query: " + why);
    }

    private static boolean sameIgnoringNullability(Type a, Type b) {
        if (a.isPrimitiveType() || b.isPrimitiveType()) {
            return a.equals(b);
        }
        if (a.typeId() != b.typeId()) {
            return false;
        }
        List<Types.NestedField> fa = a.asNestedType().fields();
        List<Types.NestedField> fb = b.asNestedType().fields();
        if (fa.size() != fb.size()) {
            return false;
        }
        for (int i = 0; i < fa.size(); i++) {
            if (!fa.get(i).name().equals(fb.get(i).name())
                    || !sameIgnoringNullability(fa.get(i).type(), fb.get(i).type())) {
                return false;
            }
        }
        return true;
    }

    /**
     * The row type Iceberg's writers must be given: {@code rowType} with every promoted column
     * replaced by the table's type (nullability kept). Equal to {@code rowType} when nothing is
     * promoted. Call after {@link #checkWritable}.
     */
    static RowType writeType(Table table, RowType rowType) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (RowType.RowField field : rowType.getFields()) {
            fields.add(new RowType.RowField(
                    field.getName(),
                    widened(table.schema(), field),
                    field.getDescription().orElse(null)));
        }
        return new RowType(rowType.isNullable(), fields);
    }

    private static LogicalType widened(Schema tableSchema, RowType.RowField field) {
        Types.NestedField tableField = tableSchema.findField(field.getName());
        LogicalType type = field.getType();
        if (tableField == null || !tableField.type().isPrimitiveType()) {
            return type;
        }
        Type tableType = tableField.type();
        Type queryType = FlinkSchemaUtil.convert(type);
        if (tableType.equals(queryType)) {
            return type;
        }
        switch (tableType.typeId()) {
            case LONG:
                return new BigIntType(type.isNullable());
            case DOUBLE:
                return new DoubleType(type.isNullable());
            case DECIMAL:
                Types.DecimalType decimal = (Types.DecimalType) tableType;
                return new DecimalType(type.isNullable(), decimal.precision(), decimal.scale());
            default:
                return type;
        }
    }

    /**
     * The rows of a dynamic sink's write target, whose row type is the table's schema as it was
     * when the router resolved it: the table may have evolved since (another subtask added an
     * optional column), so its current columns the rows lack are filled with nulls, by name, in
     * the table's order. The padded type then goes through {@link #checkWritable} and {@link
     * #writeType} as any sink's; {@code pad} is null when nothing is missing.
     *
     * @throws IllegalArgumentException for a required column the rows lack
     */
    static Padding padding(Table table, RowType rowType) {
        Schema schema = table.schema();
        RowType current = FlinkSchemaUtil.convert(schema);
        List<RowType.RowField> fields = new ArrayList<>();
        int[] from = new int[current.getFieldCount()];
        boolean missing = false;
        for (int i = 0; i < current.getFieldCount(); i++) {
            String name = current.getFieldNames().get(i);
            int at = rowType.getFieldIndex(name);
            from[i] = at;
            if (at < 0) {
                if (!current.getTypeAt(i).isNullable()) {
                    throw new IllegalArgumentException("Iceberg table '" + table.name() + "' has a required column '"
                            + name + "' that the dynamic sink's rows " + rowType + " lack");
                }
                fields.add(new RowType.RowField(name, current.getTypeAt(i)));
                missing = true;
            } else {
                fields.add(rowType.getFields().get(at));
            }
        }
        if (!missing && rowType.getFieldCount() == current.getFieldCount()) {
            return new Padding(rowType, null);
        }
        RowType padded = new RowType(rowType.isNullable(), fields);
        RowData.FieldGetter[] getters = new RowData.FieldGetter[from.length];
        for (int i = 0; i < from.length; i++) {
            getters[i] = from[i] < 0 ? null : RowData.createFieldGetter(rowType.getTypeAt(from[i]), from[i]);
        }
        return new Padding(padded, row -> {
            GenericRowData out = new GenericRowData(row.getRowKind(), getters.length);
            for (int i = 0; i < getters.length; i++) {
                out.setField(i, getters[i] == null ? null : getters[i].getFieldOrNull(row));
            }
            return out;
        });
    }

    /** A padded row type and what pads a row to it (null: the rows are as they are). */
    static final class Padding {
        final RowType rowType;
        final UnaryOperator<RowData> pad;

        Padding(RowType rowType, UnaryOperator<RowData> pad) {
            this.rowType = rowType;
            this.pad = pad;
        }
    }

    /**
     * What turns a row of {@code from} into one of {@code to} (from {@link #writeType}); {@code
     * null} when the two are equal, so rows that need nothing pay nothing.
     */
    static UnaryOperator<RowData> widening(RowType from, RowType to) {
        if (from.equals(to)) {
            return null;
        }
        int n = from.getFieldCount();
        RowData.FieldGetter[] getters = new RowData.FieldGetter[n];
        Widen[] widen = new Widen[n];
        for (int i = 0; i < n; i++) {
            getters[i] = RowData.createFieldGetter(from.getTypeAt(i), i);
            widen[i] = widen(from.getTypeAt(i), to.getTypeAt(i));
        }
        return row -> {
            GenericRowData out = new GenericRowData(row.getRowKind(), n);
            for (int i = 0; i < n; i++) {
                Object value = getters[i].getFieldOrNull(row);
                out.setField(i, value == null || widen[i] == null ? value : widen[i].apply(value));
            }
            return out;
        };
    }

    private interface Widen extends Serializable {
        Object apply(Object value);
    }

    private static Widen widen(LogicalType from, LogicalType to) {
        if (from.copy(true).equals(to.copy(true))) {
            return null;
        }
        switch (to.getTypeRoot()) {
            case BIGINT:
                return v -> ((Number) v).longValue(); // Byte, Short or Integer: exact
            case DOUBLE:
                return v -> ((Number) v).doubleValue(); // a float is exactly a double
            case DECIMAL:
                DecimalType decimal = (DecimalType) to;
                // same scale, more precision: always fits
                return v -> DecimalData.fromBigDecimal(
                        ((DecimalData) v).toBigDecimal(), decimal.getPrecision(), decimal.getScale());
            default:
                throw new IllegalStateException("No widening from " + from + " to " + to);
        }
    }
}
