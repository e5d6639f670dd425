package io.sluice.runtime.sink.dynamic.iceberg;

import io.sluice.runtime.sink.dynamic.DynamicRecord;
import io.sluice.spi.distribution.DistributionMode;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Iceberg's own {@link Schema}, {@link PartitionSpec}, {@link TableIdentifier} and {@link
 * org.apache.iceberg.DistributionMode} as a dynamic sink's records take them, converted on the
 * job's side with the job's Iceberg (1.x API), so that a generator written for upstream's {@code
 * DynamicIcebergSink} builds its records as it did: {@code IcebergAdapters.record(TableIdentifier.of("db",
 * "t"), branch, schema, row, spec, DistributionMode.HASH, 2)} in place of {@code new
 * DynamicRecord(...)}. The framework bundles no Iceberg and no other framework class names it;
 * the plugin that writes the tables has its own.
 *
 * <p>Types as Iceberg's Flink connector maps them: {@code boolean, int, long, float, double, date}
 * → {@code BOOLEAN, INT, BIGINT, FLOAT, DOUBLE, DATE}; {@code time} → {@code TIME}; {@code
 * timestamp} → {@code TIMESTAMP(6)}, {@code timestamptz} → {@code TIMESTAMP_LTZ(6)} (the {@code
 * _ns} ones at 9); {@code string} → {@code STRING}; {@code uuid} → {@code BINARY(16)}; {@code
 * fixed(n)} → {@code BINARY(n)}; {@code binary} → {@code BYTES}; {@code decimal(p, s)}; struct,
 * list and map → {@code ROW}, {@code ARRAY}, {@code MAP}; a required field is {@code NOT NULL}.
 * Field ids are not carried: the dynamic sink matches columns by name, as upstream's does.
 */
public final class IcebergAdapters {

    /**
     * Converted schemas by instance: a generator that reuses one {@code Schema} gets one {@code
     * RowType}, which is what the sink's input-schema cache is keyed by. Weak, since a job may make
     * a schema per record.
     */
    private static final Map<Schema, RowType> ROW_TYPES = Collections.synchronizedMap(new WeakHashMap<>());

    private static final Pattern WIDTH = Pattern.compile("(bucket|truncate)\\[(\\d+)\\]");

    private IcebergAdapters() {}

    /** A record for the shuffle of {@code mode} ({@code RANGE} falls back to {@code HASH}, as upstream). */
    public static DynamicRecord record(
            TableIdentifier table,
            @Nullable String branch,
            Schema schema,
            RowData row,
            PartitionSpec spec,
            @Nullable org.apache.iceberg.DistributionMode mode,
            int writeParallelism) {
        return new DynamicRecord(
                table(table), branch, rowType(schema), row, spec(spec), distributionMode(mode), writeParallelism);
    }

    /** A forward record: no shuffle, written by the writer chained to the router. */
    public static DynamicRecord record(
            TableIdentifier table, @Nullable String branch, Schema schema, RowData row, PartitionSpec spec) {
        return new DynamicRecord(table(table), branch, rowType(schema), row, spec(spec));
    }

    /** {@code namespace.name}: the dynamic sink's identifier of the table. */
    public static String table(TableIdentifier table) {
        return table.toString();
    }

    public static RowType rowType(Schema schema) {
        RowType known = ROW_TYPES.get(schema);
        if (known == null) {
            known = (RowType) logicalType(schema.asStruct(), true);
            ROW_TYPES.put(schema, known);
        }
        return known;
    }

    /**
     * The spec's transforms in the dynamic record's syntax: {@code identity(c)}, {@code bucket(16,
     * c)}, {@code truncate(4, c)}, {@code years(c)}, {@code months(c)}, {@code days(c)}, {@code
     * hours(c)}; unpartitioned is empty.
     *
     * @throws IllegalArgumentException for a transform that a table cannot be asked for ({@code
     *     void}, or one of a later Iceberg)
     */
    public static List<String> spec(PartitionSpec spec) {
        List<String> transforms = new ArrayList<>();
        for (PartitionField field : spec.fields()) {
            String column = spec.schema().findColumnName(field.sourceId());
            String transform = field.transform().toString();
            Matcher width = WIDTH.matcher(transform);
            if (width.matches()) {
                transforms.add(width.group(1) + "(" + width.group(2) + ", " + column + ")");
                continue;
            }
            switch (transform) {
                case "identity":
                    transforms.add("identity(" + column + ")");
                    break;
                case "year":
                case "month":
                case "day":
                case "hour":
                    transforms.add(transform + "s(" + column + ")");
                    break;
                default:
                    throw new IllegalArgumentException("Partition field '" + field.name() + "' of column '" + column
                            + "' has transform '" + transform + "', which a dynamic record cannot ask for"
                            + " (identity, bucket, truncate, year, month, day, hour)");
            }
        }
        return transforms;
    }

    /** Iceberg's mode as the framework's; null (forward) stays null. */
    @Nullable
    public static DistributionMode distributionMode(@Nullable org.apache.iceberg.DistributionMode mode) {
        if (mode == null) {
            return null;
        }
        switch (mode) {
            case NONE:
                return DistributionMode.NONE;
            case HASH:
            case RANGE:
                return DistributionMode.HASH;
            default:
                throw new IllegalArgumentException("Unknown distribution mode " + mode);
        }
    }

    private static LogicalType logicalType(Type type, boolean nullable) {
        switch (type.typeId()) {
            case BOOLEAN:
                return new BooleanType(nullable);
            case INTEGER:
                return new IntType(nullable);
            case LONG:
                return new BigIntType(nullable);
            case FLOAT:
                return new FloatType(nullable);
            case DOUBLE:
                return new DoubleType(nullable);
            case DATE:
                return new DateType(nullable);
            case TIME:
                return new TimeType(nullable, 6);
            case TIMESTAMP:
                return ((Types.TimestampType) type).shouldAdjustToUTC()
                        ? new LocalZonedTimestampType(nullable, 6)
                        : new TimestampType(nullable, 6);
            case TIMESTAMP_NANO:
                return ((Types.TimestampNanoType) type).shouldAdjustToUTC()
                        ? new LocalZonedTimestampType(nullable, 9)
                        : new TimestampType(nullable, 9);
            case STRING:
                return new VarCharType(nullable, VarCharType.MAX_LENGTH);
            case UUID:
                return new BinaryType(nullable, 16);
            case FIXED:
                return new BinaryType(nullable, ((Types.FixedType) type).length());
            case BINARY:
                return new VarBinaryType(nullable, VarBinaryType.MAX_LENGTH);
            case DECIMAL:
                Types.DecimalType decimal = (Types.DecimalType) type;
                return new DecimalType(nullable, decimal.precision(), decimal.scale());
            case STRUCT:
                List<RowType.RowField> fields = new ArrayList<>();
                for (Types.NestedField field : type.asStructType().fields()) {
                    fields.add(new RowType.RowField(
                            field.name(), logicalType(field.type(), field.isOptional()), field.doc()));
                }
                return new RowType(nullable, fields);
            case LIST:
                Types.ListType list = type.asListType();
                return new ArrayType(nullable, logicalType(list.elementType(), list.isElementOptional()));
            case MAP:
                Types.MapType map = type.asMapType();
                return new MapType(
                        nullable,
                        logicalType(map.keyType(), false),
                        logicalType(map.valueType(), map.isValueOptional()));
            default:
                throw new IllegalArgumentException(
                        "Iceberg type " + type + " has no Flink type a dynamic record can carry");
        }
    }
}
