package io.sluice.runtime.adapt.avro;

import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The Flink row type of an Avro record schema (the mapping is listed on {@code AvroAdapters}).
 * Nullability comes from the schema alone: a union with {@code null} is nullable, anything else
 * is NOT NULL, so a writer can rely on it.
 */
public final class AvroRowTypes {

    private AvroRowTypes() {}

    /**
     * The row type of a record schema; the row itself is NOT NULL.
     *
     * @throws IllegalArgumentException for a schema that is not a record or holds a type with no
     *     row equivalent, naming the field
     */
    public static RowType rowType(Schema schema) {
        if (schema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException(
                    "An Avro schema for rows must be a record, not " + schema.getType() + ": " + schema);
        }
        return (RowType) convert(schema, "", new HashSet<>());
    }

    /** The one non-null branch of a union, or null if the schema is not a union. */
    static Schema nonNullBranch(Schema union, String path) {
        Schema branch = null;
        for (Schema s : union.getTypes()) {
            if (s.getType() == Schema.Type.NULL) {
                continue;
            }
            if (branch != null) {
                throw unsupported(path, union, "a union of several non-null types has no row equivalent");
            }
            branch = s;
        }
        if (branch == null) {
            throw unsupported(path, union, "a union of null alone has no row equivalent");
        }
        return branch;
    }

    /** Whether a value of {@code schema} may be null. */
    static boolean isNullable(Schema schema) {
        if (schema.getType() == Schema.Type.NULL) {
            return true;
        }
        if (schema.getType() == Schema.Type.UNION) {
            for (Schema s : schema.getTypes()) {
                if (s.getType() == Schema.Type.NULL) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The name of the schema's logical type, or null; by name, as all Avro versions spell them. */
    static String logicalName(Schema schema) {
        return schema.getLogicalType() == null ? null : schema.getLogicalType().getName();
    }

    static LogicalType convert(Schema schema, String path, Set<String> enclosing) {
        if (schema.getType() == Schema.Type.UNION) {
            return convert(nonNullBranch(schema, path), path, enclosing).copy(isNullable(schema));
        }
        String logical = logicalName(schema);
        switch (schema.getType()) {
            case RECORD:
                return record(schema, path, enclosing);
            case BOOLEAN:
                return new BooleanType(false);
            case INT:
                if ("date".equals(logical)) {
                    return new DateType(false);
                }
                if ("time-millis".equals(logical)) {
                    return new TimeType(false, 3);
                }
                return new IntType(false);
            case LONG:
                if ("time-micros".equals(logical)) {
                    // Flink's TIME holds milliseconds (an int), and formats write TIME(3) only
                    return new TimeType(false, 3);
                }
                int precision = timestampPrecision(logical);
                return precision < 0 ? new BigIntType(false) : new TimestampType(false, precision);
            case FLOAT:
                return new FloatType(false);
            case DOUBLE:
                return new DoubleType(false);
            case STRING:
            case ENUM:
                return new VarCharType(false, VarCharType.MAX_LENGTH);
            case BYTES:
            case FIXED:
                if (schema.getLogicalType() instanceof LogicalTypes.Decimal) {
                    LogicalTypes.Decimal decimal = (LogicalTypes.Decimal) schema.getLogicalType();
                    if (decimal.getPrecision() > DecimalType.MAX_PRECISION) {
                        throw unsupported(
                                path,
                                schema,
                                "decimal precision " + decimal.getPrecision() + " is more than Flink's "
                                        + DecimalType.MAX_PRECISION);
                    }
                    return new DecimalType(false, decimal.getPrecision(), decimal.getScale());
                }
                return new VarBinaryType(false, VarBinaryType.MAX_LENGTH);
            case ARRAY:
                return new ArrayType(false, convert(schema.getElementType(), path + "[]", enclosing));
            case MAP:
                // Avro map keys are strings, always present
                return new MapType(
                        false,
                        new VarCharType(false, VarCharType.MAX_LENGTH),
                        convert(schema.getValueType(), path + "{}", enclosing));
            default:
                throw unsupported(path, schema, "type " + schema.getType() + " has no row equivalent");
        }
    }

    /** The precision of a timestamp logical type, or -1 if {@code logical} is none. */
    static int timestampPrecision(String logical) {
        if (logical == null) {
            return -1;
        }
        switch (logical) {
            case "timestamp-millis":
            case "local-timestamp-millis":
                return 3;
            case "timestamp-micros":
            case "local-timestamp-micros":
                return 6;
            case "timestamp-nanos":
            case "local-timestamp-nanos":
                return 9;
            default:
                return -1;
        }
    }

    private static RowType record(Schema schema, String path, Set<String> enclosing) {
        if (!enclosing.add(schema.getFullName())) {
            throw unsupported(path, schema, "record " + schema.getFullName() + " contains itself; rows cannot recurse");
        }
        List<RowType.RowField> fields = new ArrayList<>();
        for (Schema.Field field : schema.getFields()) {
            String fieldPath = path.isEmpty() ? field.name() : path + "." + field.name();
            fields.add(new RowType.RowField(field.name(), convert(field.schema(), fieldPath, enclosing), field.doc()));
        }
        enclosing.remove(schema.getFullName());
        return new RowType(false, fields);
    }

    private static IllegalArgumentException unsupported(String path, Schema schema, String why) {
        return new IllegalArgumentException(
                "Avro " + (path.isEmpty() ? "schema" : "field '" + path + "'") + ": " + why + " (" + schema + ")");
    }
}
