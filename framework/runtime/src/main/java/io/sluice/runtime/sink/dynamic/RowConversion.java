package io.sluice.runtime.sink.dynamic;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

import java.util.Arrays;
import java.util.Optional;

/**
 * Turns rows of an input schema into rows of a table's schema: each table column from the input
 * column of its name (a narrower number widened) or null where the input has none. Made by {@link
 * SchemaResolution}, used by the task thread of the router only.
 */
public final class RowConversion {

    /** Per table column: how its value is made from the input row. */
    private interface Column {
        Object valueOf(RowData input);
    }

    private final RowType from;
    private final RowType to;
    private final Column[] columns;

    private RowConversion(RowType from, RowType to, Column[] columns) {
        this.from = from;
        this.to = to;
        this.columns = columns;
    }

    /** Rows that are already the table's. */
    static RowConversion identity(RowType schema) {
        return new RowConversion(schema, schema, null);
    }

    /**
     * The conversion of rows of {@code input} into rows of {@code table}, or empty if some input
     * column has no column of its name in the table, or of a type it can be written to, or the
     * table has a required column the input lacks or may leave null.
     */
    static Optional<RowConversion> between(RowType input, RowType table) {
        for (String name : input.getFieldNames()) {
            if (table.getFieldIndex(name) < 0) {
                return Optional.empty();
            }
        }
        Column[] columns = new Column[table.getFieldCount()];
        // each table column the input's of the same position, as it is: the rows need no change
        boolean asTheyAre = input.getFieldCount() == table.getFieldCount();
        for (int i = 0; i < table.getFieldCount(); i++) {
            LogicalType target = table.getTypeAt(i);
            int at = input.getFieldIndex(table.getFieldNames().get(i));
            if (at < 0) {
                if (!target.isNullable()) {
                    return Optional.empty();
                }
                columns[i] = row -> null;
                asTheyAre = false;
                continue;
            }
            LogicalType source = input.getTypeAt(at);
            if (source.isNullable() && !target.isNullable()) {
                return Optional.empty();
            }
            RowData.FieldGetter getter = RowData.createFieldGetter(source, at);
            if (SchemaResolution.sameIgnoringNullability(source, target)
                    || SchemaResolution.sameRepresentation(source, target)) {
                columns[i] = getter::getFieldOrNull;
                asTheyAre &= at == i;
            } else if (SchemaResolution.widens(source, target)) {
                columns[i] = widening(getter, source, target);
                asTheyAre = false;
            } else {
                return Optional.empty();
            }
        }
        if (asTheyAre) {
            return Optional.of(new RowConversion(input, table, null));
        }
        return Optional.of(new RowConversion(input, table, columns));
    }

    private static Column widening(RowData.FieldGetter getter, LogicalType source, LogicalType target) {
        if (source.getTypeRoot() == LogicalTypeRoot.INTEGER) {
            return row -> {
                Object v = getter.getFieldOrNull(row);
                return v == null ? null : ((Integer) v).longValue();
            };
        }
        if (source.getTypeRoot() == LogicalTypeRoot.FLOAT) {
            return row -> {
                Object v = getter.getFieldOrNull(row);
                return v == null ? null : ((Float) v).doubleValue();
            };
        }
        DecimalType wide = (DecimalType) target;
        return row -> {
            Object v = getter.getFieldOrNull(row);
            return v == null
                    ? null
                    : DecimalData.fromBigDecimal(
                            ((DecimalData) v).toBigDecimal(), wide.getPrecision(), wide.getScale());
        };
    }

    public boolean isIdentity() {
        return columns == null;
    }

    /** The table's row of an input row (the same instance when nothing changes). */
    public RowData apply(RowData input) {
        if (columns == null) {
            return input;
        }
        GenericRowData out = new GenericRowData(input.getRowKind(), columns.length);
        for (int i = 0; i < columns.length; i++) {
            out.setField(i, columns[i].valueOf(input));
        }
        return out;
    }

    @Override
    public String toString() {
        return isIdentity()
                ? "identity"
                : from + " -> " + to + " " + Arrays.toString(to.getFieldNames().toArray());
    }
}
