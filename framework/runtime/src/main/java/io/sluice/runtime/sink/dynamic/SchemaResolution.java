package io.sluice.runtime.sink.dynamic;

import io.sluice.spi.dynamic.TableState;

import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How the rows of one input schema are written to a table: with one of the table's schemas as
 * they are, or converted to it (missing optional columns as nulls, {@code INT} values into a
 * {@code BIGINT} column, {@code FLOAT} into {@code DOUBLE}, a decimal into a wider one), or only
 * after the table has evolved ({@link #evolvedSchema}). Columns are matched by name; a column whose
 * name changed is a new column (a rename cannot be told from a drop and an add).
 *
 * <p>The changes a table makes for its input, as upstream's dynamic sink: a column added (optional),
 * a type widened ({@code INT} to {@code BIGINT}, {@code FLOAT} to {@code DOUBLE}, a decimal's
 * precision at the same scale), a required column made optional, and with {@code
 * dropUnusedColumns} a column the input lacks dropped; a string, bytes, a timestamp or a time into a
 * longer or more precise one is no change at all ({@link #sameRepresentation}). Anything else (a narrowing, another type, a
 * change inside a nested type) is an error naming the table, the column and both types.
 */
public final class SchemaResolution {

    private final int schemaId;
    private final RowType tableSchema;
    private final RowConversion conversion;

    private SchemaResolution(int schemaId, RowType tableSchema, RowConversion conversion) {
        this.schemaId = schemaId;
        this.tableSchema = tableSchema;
        this.conversion = conversion;
    }

    /** The table's schema the rows are written with. */
    public int schemaId() {
        return schemaId;
    }

    public RowType tableSchema() {
        return tableSchema;
    }

    /** What turns an input row into a row of {@link #tableSchema}. */
    public RowConversion conversion() {
        return conversion;
    }

    /**
     * The schema of the table that takes rows of {@code input} as they are, else one it takes them
     * converted to (the current schema first), else empty: the table must evolve. A schemaless
     * table takes every input as it is.
     */
    public static Optional<SchemaResolution> resolve(RowType input, TableState table) {
        if (table.schemaless()) {
            return Optional.of(new SchemaResolution(-1, input, RowConversion.identity(input)));
        }
        TreeMap<Integer, RowType> newestFirst = new TreeMap<>(java.util.Comparator.reverseOrder());
        newestFirst.putAll(table.schemas());
        for (Map.Entry<Integer, RowType> schema : newestFirst.entrySet()) {
            if (schema.getValue().equals(input)) {
                return Optional.of(
                        new SchemaResolution(schema.getKey(), schema.getValue(), RowConversion.identity(input)));
            }
        }
        List<Map.Entry<Integer, RowType>> candidates = new ArrayList<>();
        candidates.add(Map.entry(table.currentSchemaId(), table.currentSchema()));
        for (Map.Entry<Integer, RowType> schema : newestFirst.entrySet()) {
            if (schema.getKey() != table.currentSchemaId()) {
                candidates.add(schema);
            }
        }
        for (Map.Entry<Integer, RowType> schema : candidates) {
            Optional<RowConversion> conversion = RowConversion.between(input, schema.getValue());
            if (conversion.isPresent()) {
                return Optional.of(new SchemaResolution(schema.getKey(), schema.getValue(), conversion.get()));
            }
        }
        return Optional.empty();
    }

    /**
     * The schema {@code table} evolves to so that it takes rows of {@code input}: its current
     * schema, in its order, with types widened and columns made optional as the input needs, the
     * input's new columns appended as optional ones, and with {@code dropUnusedColumns} the columns
     * the input lacks left out.
     *
     * @throws IllegalArgumentException for a change a table cannot make, naming the table, the
     *     column and both types
     */
    public static RowType evolvedSchema(RowType input, TableState table, boolean dropUnusedColumns) {
        RowType current = table.currentSchema();
        List<RowType.RowField> fields = new ArrayList<>();
        for (RowType.RowField column : current.getFields()) {
            int at = input.getFieldIndex(column.getName());
            if (at < 0) {
                if (!dropUnusedColumns) {
                    fields.add(new RowType.RowField(
                            column.getName(),
                            column.getType().copy(true),
                            column.getDescription().orElse(null)));
                }
                continue;
            }
            LogicalType wanted = input.getTypeAt(at);
            LogicalType type = column.getType();
            LogicalType evolved;
            if (sameIgnoringNullability(type, wanted)) {
                evolved = type;
            } else if (widens(type, wanted)) {
                evolved = wanted; // the input's wider type
            } else if (widens(wanted, type)) {
                evolved = type; // narrower input values are converted on write
            } else {
                throw new IllegalArgumentException("Table " + table.identifier() + " cannot change column '"
                        + column.getName() + "' from " + type.asSummaryString() + " to " + wanted.asSummaryString()
                        + ": a dynamic sink adds columns, widens INT to BIGINT, FLOAT to DOUBLE and a decimal's"
                        + " precision, and makes required columns optional");
            }
            boolean nullable = type.isNullable() || wanted.isNullable();
            fields.add(new RowType.RowField(
                    column.getName(),
                    evolved.copy(nullable),
                    column.getDescription().orElse(null)));
        }
        for (RowType.RowField column : input.getFields()) {
            if (current.getFieldIndex(column.getName()) < 0) {
                fields.add(new RowType.RowField(
                        column.getName(),
                        column.getType().copy(true),
                        column.getDescription().orElse(null)));
            }
        }
        return new RowType(true, fields);
    }

    /** Whether a value of {@code narrow} can be written to a column of {@code wide} (not the same type). */
    static boolean widens(LogicalType narrow, LogicalType wide) {
        if (sameRepresentation(narrow, wide)) {
            return true;
        }
        LogicalTypeRoot from = narrow.getTypeRoot();
        LogicalTypeRoot to = wide.getTypeRoot();
        if (from == LogicalTypeRoot.INTEGER && to == LogicalTypeRoot.BIGINT) {
            return true;
        }
        if (from == LogicalTypeRoot.FLOAT && to == LogicalTypeRoot.DOUBLE) {
            return true;
        }
        if (from == LogicalTypeRoot.DECIMAL && to == LogicalTypeRoot.DECIMAL) {
            DecimalType a = (DecimalType) narrow;
            DecimalType b = (DecimalType) wide;
            return a.getScale() == b.getScale() && a.getPrecision() < b.getPrecision();
        }
        return false;
    }

    /**
     * Whether every value of {@code narrow} is, as it is, a value of {@code wide}: a string into a
     * longer (or unbounded) string, bytes into longer bytes, a timestamp or time of less precision
     * into more (Flink keeps them in the same form). Iceberg keeps only unbounded strings and bytes
     * and microsecond timestamps, so a {@code VARCHAR(8)} input meets a {@code STRING} table column.
     */
    static boolean sameRepresentation(LogicalType narrow, LogicalType wide) {
        LogicalTypeRoot from = narrow.getTypeRoot();
        LogicalTypeRoot to = wide.getTypeRoot();
        if ((from == LogicalTypeRoot.CHAR || from == LogicalTypeRoot.VARCHAR) && to == LogicalTypeRoot.VARCHAR) {
            return LogicalTypeChecks.getLength(narrow) <= LogicalTypeChecks.getLength(wide);
        }
        if ((from == LogicalTypeRoot.BINARY || from == LogicalTypeRoot.VARBINARY) && to == LogicalTypeRoot.VARBINARY) {
            return LogicalTypeChecks.getLength(narrow) <= LogicalTypeChecks.getLength(wide);
        }
        if (from == to
                && (from == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                        || from == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                        || from == LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE)) {
            return LogicalTypeChecks.getPrecision(narrow) <= LogicalTypeChecks.getPrecision(wide);
        }
        return false;
    }

    static boolean sameIgnoringNullability(LogicalType a, LogicalType b) {
        return a.copy(true).equals(b.copy(true));
    }

    @Override
    public String toString() {
        return "schema " + schemaId + " " + tableSchema + " by " + conversion;
    }
}
