package io.sluice.runtime.adapt.avro;

import io.sluice.runtime.adapt.RecordConverter;

import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Converts Avro records of one schema into {@link GenericRowData}, field by field, with converters
 * chosen once from the schema. Made on the task from the schema's JSON with the job's Avro ({@link
 * #AvroRecordConverter(String)} is what the framework calls, by reflection).
 *
 * <p>Values are taken as Avro's generic API holds them ({@code Utf8}, {@code ByteBuffer}, {@code
 * GenericFixed}, epoch numbers for logical types) and also as its logical type conversions make
 * them ({@code BigDecimal}, {@code java.time} values, {@code UUID}). Numbers are read at the unit
 * the logical type declares: a {@code timestamp-micros} long is microseconds. Everything a row keeps
 * is copied, since Avro readers reuse their buffers and records.
 */
public final class AvroRecordConverter implements RecordConverter {

    private final Schema schema;
    private final RowType rowType;
    private final RecordConverterOfSchema root;

    /** Parses {@code schemaJson} with the Avro this class is linked to: the job's. */
    public AvroRecordConverter(String schemaJson) {
        this(new Schema.Parser().parse(schemaJson));
    }

    /** Converts records of {@code schema}. */
    public AvroRecordConverter(Schema schema) {
        this.schema = schema;
        this.rowType = AvroRowTypes.rowType(schema);
        this.root = new RecordConverterOfSchema(schema, "");
    }

    public Schema schema() {
        return schema;
    }

    @Override
    public RowType rowType() {
        return rowType;
    }

    @Override
    public RowData convert(Object record) {
        if (!(record instanceof IndexedRecord)) {
            throw new IllegalArgumentException("Not an Avro record of " + describe(IndexedRecord.class) + ": "
                    + (record == null
                            ? "null"
                            : record.getClass().getName() + " of "
                                    + record.getClass().getClassLoader()));
        }
        return (RowData) root.convert(record);
    }

    /** Converts one value of one schema; null never reaches it. */
    private interface ValueConverter {
        Object convert(Object value);
    }

    /** A record: by position when the record has this schema, else by field name. */
    private static final class RecordConverterOfSchema implements ValueConverter {

        private final Schema schema;
        private final String path;
        private final String[] names;
        private final ValueConverter[] fields;
        private final boolean[] nullable;
        /** The last record schema found equal to {@link #schema}: positions can be trusted. */
        private Schema sameAsOurs;

        RecordConverterOfSchema(Schema schema, String path) {
            this.schema = schema;
            this.path = path;
            int n = schema.getFields().size();
            names = new String[n];
            fields = new ValueConverter[n];
            nullable = new boolean[n];
            for (Schema.Field field : schema.getFields()) {
                int i = field.pos();
                names[i] = field.name();
                String fieldPath = path.isEmpty() ? field.name() : path + "." + field.name();
                fields[i] = converter(field.schema(), fieldPath);
                nullable[i] = AvroRowTypes.isNullable(field.schema());
            }
        }

        @Override
        public Object convert(Object value) {
            IndexedRecord record = (IndexedRecord) value;
            Schema actual = record.getSchema();
            boolean positional = actual == sameAsOurs || actual == schema;
            if (!positional && schema.equals(actual)) {
                sameAsOurs = actual;
                positional = true;
            }
            GenericRowData row = new GenericRowData(fields.length);
            for (int i = 0; i < fields.length; i++) {
                Object v;
                if (positional) {
                    v = record.get(i);
                } else {
                    // another schema (a writer's, a newer version): find the field by name
                    Schema.Field f = actual.getField(names[i]);
                    v = f == null ? null : record.get(f.pos());
                }
                if (v == null) {
                    if (!nullable[i]) {
                        throw new IllegalArgumentException(
                                "Avro field '" + fieldPath(i) + "' is null, but its schema has no null: "
                                        + schema.getFields().get(i).schema());
                    }
                    continue;
                }
                try {
                    row.setField(i, fields[i].convert(v));
                } catch (ClassCastException e) {
                    throw new IllegalArgumentException(
                            "Avro field '" + fieldPath(i) + "' of schema "
                                    + schema.getFields().get(i).schema() + " holds a "
                                    + v.getClass().getName()
                                    + ", which is not a value of that schema: " + e.getMessage(),
                            e);
                }
            }
            return row;
        }

        private String fieldPath(int i) {
            return path.isEmpty() ? names[i] : path + "." + names[i];
        }
    }

    private static ValueConverter converter(Schema schema, String path) {
        if (schema.getType() == Schema.Type.UNION) {
            // null is handled by the container; a value is of the one other branch
            return converter(AvroRowTypes.nonNullBranch(schema, path), path);
        }
        String logical = AvroRowTypes.logicalName(schema);
        switch (schema.getType()) {
            case RECORD:
                return new RecordConverterOfSchema(schema, path);
            case BOOLEAN:
                return v -> (Boolean) v;
            case INT:
                if ("date".equals(logical)) {
                    return v -> v instanceof LocalDate ? (int) ((LocalDate) v).toEpochDay() : (Integer) v;
                }
                if ("time-millis".equals(logical)) {
                    return v -> v instanceof LocalTime ? millisOfDay((LocalTime) v) : (Integer) v;
                }
                return v -> (Integer) v;
            case LONG:
                if ("time-micros".equals(logical)) {
                    // TIME is milliseconds: drop the microseconds, never read them as milliseconds
                    return v ->
                            v instanceof LocalTime ? millisOfDay((LocalTime) v) : (int) Math.floorDiv((Long) v, 1000L);
                }
                return timestampOrLong(logical);
            case FLOAT:
                return v -> (Float) v;
            case DOUBLE:
                return v -> (Double) v;
            case STRING:
                return v -> {
                    if (v instanceof CharSequence || v instanceof UUID) {
                        return StringData.fromString(v.toString());
                    }
                    throw new ClassCastException(v.getClass().getName() + " is not a string");
                };
            case ENUM:
                // a GenericEnumSymbol, or the symbol's string
                return v -> StringData.fromString(v.toString());
            case BYTES:
            case FIXED:
                if (schema.getLogicalType() instanceof LogicalTypes.Decimal) {
                    LogicalTypes.Decimal decimal = (LogicalTypes.Decimal) schema.getLogicalType();
                    return v -> decimal(v, decimal.getPrecision(), decimal.getScale(), path);
                }
                return AvroRecordConverter::bytes;
            case ARRAY: {
                ValueConverter element = converter(schema.getElementType(), path + "[]");
                boolean nullable = AvroRowTypes.isNullable(schema.getElementType());
                return v -> {
                    Object[] in = v instanceof Collection ? ((Collection<?>) v).toArray() : (Object[]) v;
                    Object[] out = new Object[in.length];
                    for (int i = 0; i < in.length; i++) {
                        out[i] = in[i] == null ? nullOrFail(nullable, path + "[]") : element.convert(in[i]);
                    }
                    return new GenericArrayData(out);
                };
            }
            case MAP: {
                ValueConverter value = converter(schema.getValueType(), path + "{}");
                boolean nullable = AvroRowTypes.isNullable(schema.getValueType());
                return v -> {
                    Map<StringData, Object> out = new LinkedHashMap<>();
                    for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                        if (e.getKey() == null) {
                            throw new IllegalArgumentException("Avro map '" + path + "' has a null key");
                        }
                        Object x = e.getValue();
                        out.put(
                                StringData.fromString(e.getKey().toString()),
                                x == null ? nullOrFail(nullable, path + "{}") : value.convert(x));
                    }
                    return new GenericMapData(out);
                };
            }
            default:
                throw new IllegalArgumentException(
                        "Avro field '" + path + "': type " + schema.getType() + " has no row equivalent");
        }
    }

    private static Object nullOrFail(boolean nullable, String path) {
        if (!nullable) {
            throw new IllegalArgumentException("Avro value '" + path + "' is null, but its schema has no null");
        }
        return null;
    }

    private static ValueConverter timestampOrLong(String logical) {
        if (logical == null) {
            return v -> (Long) v;
        }
        switch (logical) {
            case "timestamp-millis":
                return v -> v instanceof Instant
                        ? TimestampData.fromInstant((Instant) v)
                        : TimestampData.fromEpochMillis((Long) v);
            case "timestamp-micros":
                return v -> v instanceof Instant ? TimestampData.fromInstant((Instant) v) : fromMicros((Long) v);
            case "timestamp-nanos":
                return v -> v instanceof Instant ? TimestampData.fromInstant((Instant) v) : fromNanos((Long) v);
            case "local-timestamp-millis":
                return v -> v instanceof LocalDateTime
                        ? TimestampData.fromLocalDateTime((LocalDateTime) v)
                        : TimestampData.fromEpochMillis((Long) v);
            case "local-timestamp-micros":
                return v -> v instanceof LocalDateTime
                        ? TimestampData.fromLocalDateTime((LocalDateTime) v)
                        : fromMicros((Long) v);
            case "local-timestamp-nanos":
                return v -> v instanceof LocalDateTime
                        ? TimestampData.fromLocalDateTime((LocalDateTime) v)
                        : fromNanos((Long) v);
            default:
                return v -> (Long) v;
        }
    }

    // floor division, so that instants before 1970 keep a non-negative fraction of a millisecond
    private static TimestampData fromMicros(long micros) {
        return TimestampData.fromEpochMillis(Math.floorDiv(micros, 1000L), (int) Math.floorMod(micros, 1000L) * 1000);
    }

    private static TimestampData fromNanos(long nanos) {
        return TimestampData.fromEpochMillis(Math.floorDiv(nanos, 1_000_000L), (int) Math.floorMod(nanos, 1_000_000L));
    }

    private static int millisOfDay(LocalTime time) {
        return (int) (time.toNanoOfDay() / 1_000_000L);
    }

    private static byte[] bytes(Object v) {
        if (v instanceof ByteBuffer) {
            // a copy of what is left, leaving the buffer's position alone
            ByteBuffer buffer = ((ByteBuffer) v).duplicate();
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        }
        if (v instanceof GenericFixed) {
            return ((GenericFixed) v).bytes().clone();
        }
        return ((byte[]) v).clone();
    }

    private static DecimalData decimal(Object v, int precision, int scale, String path) {
        BigDecimal value = v instanceof BigDecimal ? (BigDecimal) v : new BigDecimal(new BigInteger(bytes(v)), scale);
        if (value.scale() != scale) {
            try {
                value = value.setScale(scale, RoundingMode.UNNECESSARY);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("Avro decimal '" + path + "': " + value + " has more than " + scale
                        + " digits after the point");
            }
        }
        DecimalData decimal = DecimalData.fromBigDecimal(value, precision, scale);
        if (decimal == null) {
            throw new IllegalArgumentException("Avro decimal '" + path + "': " + value + " does not fit DECIMAL("
                    + precision + ", " + scale + ")");
        }
        return decimal;
    }

    private static String describe(Class<?> c) {
        return c.getName() + " of " + c.getClassLoader();
    }
}
