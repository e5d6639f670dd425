package io.sluice.plugin.formats.delimited;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Text formats (csv, json) carry no schema, and Flink's converters turn a number with more digits
 * than its declared {@code DECIMAL(p, s)} holds into null, silently. This schema parses such
 * columns as {@code DECIMAL(38, s)} and then checks the declared precision: a value that does not
 * fit is an error naming the column and the value (the reader adds the file, line and offset), or
 * null where the format was told to ignore parse errors, as upstream does with fields that do not
 * parse. Decimals inside rows, arrays, maps and multisets are checked the same way; the error names
 * the path ({@code order.items[2].price}), and with ignored parse errors the top-level column that
 * holds such a value becomes null.
 */
public final class DeclaredDecimals implements DeserializationSchema<RowData> {

    private static final long serialVersionUID = 1L;

    private final DeserializationSchema<RowData> wide;
    private final RowType declared;
    private final int[] columns;
    private final boolean ignoreParseErrors;

    private DeclaredDecimals(
            DeserializationSchema<RowData> wide, RowType declared, int[] columns, boolean ignoreParseErrors) {
        this.wide = wide;
        this.declared = declared;
        this.columns = columns;
        this.ignoreParseErrors = ignoreParseErrors;
    }

    /** The schema {@code create} makes for {@code declared}, with its decimal columns checked. */
    public static DeserializationSchema<RowData> of(
            RowType declared, boolean ignoreParseErrors, Function<RowType, DeserializationSchema<RowData>> create) {
        List<RowType.RowField> fields = new ArrayList<>();
        List<Integer> decimals = new ArrayList<>();
        for (int i = 0; i < declared.getFieldCount(); i++) {
            RowType.RowField field = declared.getFields().get(i);
            LogicalType type = field.getType();
            if (holdsNarrowDecimal(type)) {
                decimals.add(i);
                type = widen(type);
            }
            fields.add(new RowType.RowField(
                    field.getName(), type, field.getDescription().orElse(null)));
        }
        if (decimals.isEmpty()) {
            return create.apply(declared);
        }
        return new DeclaredDecimals(
                create.apply(new RowType(declared.isNullable(), fields)),
                declared,
                decimals.stream().mapToInt(Integer::intValue).toArray(),
                ignoreParseErrors);
    }

    @Override
    public void open(InitializationContext context) throws Exception {
        wide.open(context);
    }

    @Override
    public RowData deserialize(byte[] message) throws IOException {
        RowData row = wide.deserialize(message);
        if (row == null) {
            return null;
        }
        GenericRowData fields = (GenericRowData) row; // what Flink's csv and json converters make
        for (int column : columns) {
            if (fields.isNullAt(column)) {
                continue;
            }
            String name = declared.getFieldNames().get(column);
            try {
                fields.setField(column, narrow(fields.getField(column), declared.getTypeAt(column), name));
            } catch (TooWide e) {
                if (!ignoreParseErrors) {
                    throw new IOException("Column '" + e.path + "' holds " + e.value
                            + ", more digits than its declared " + e.type.asSummaryString() + " can hold");
                }
                fields.setField(column, null);
            }
        }
        return fields;
    }

    /** A value with more digits than its declared decimal type holds, at {@code path}. */
    private static final class TooWide extends Exception {
        private static final long serialVersionUID = 1L;
        final String path;
        final DecimalData value;
        final DecimalType type;

        TooWide(String path, DecimalData value, DecimalType type) {
            super(null, null, false, false);
            this.path = path;
            this.value = value;
            this.type = type;
        }
    }

    static boolean holdsNarrowDecimal(LogicalType type) {
        if (type instanceof DecimalType) {
            return ((DecimalType) type).getPrecision() < DecimalType.MAX_PRECISION;
        }
        for (LogicalType child : type.getChildren()) {
            if (holdsNarrowDecimal(child)) {
                return true;
            }
        }
        return false;
    }

    /** The type with every decimal widened to 38 digits, its scale kept: what the converter parses. */
    static LogicalType widen(LogicalType type) {
        if (type instanceof DecimalType) {
            return new DecimalType(type.isNullable(), DecimalType.MAX_PRECISION, ((DecimalType) type).getScale());
        } else if (type instanceof RowType) {
            List<RowType.RowField> fields = new ArrayList<>();
            for (RowType.RowField f : ((RowType) type).getFields()) {
                fields.add(new RowType.RowField(
                        f.getName(), widen(f.getType()), f.getDescription().orElse(null)));
            }
            return new RowType(type.isNullable(), fields);
        } else if (type instanceof ArrayType) {
            return new ArrayType(type.isNullable(), widen(((ArrayType) type).getElementType()));
        } else if (type instanceof MultisetType) {
            return new MultisetType(type.isNullable(), widen(((MultisetType) type).getElementType()));
        } else if (type instanceof MapType) {
            return new MapType(
                    type.isNullable(), widen(((MapType) type).getKeyType()), widen(((MapType) type).getValueType()));
        }
        return type;
    }

    /** The value, parsed as {@link #widen}ed, with every decimal narrowed to its declared type. */
    private static Object narrow(Object value, LogicalType declared, String path) throws TooWide {
        if (value == null || !holdsNarrowDecimal(declared)) {
            return value;
        }
        if (declared instanceof DecimalType) {
            DecimalType type = (DecimalType) declared;
            DecimalData wide = (DecimalData) value;
            DecimalData narrowed =
                    DecimalData.fromBigDecimal(wide.toBigDecimal(), type.getPrecision(), type.getScale());
            if (narrowed == null) {
                throw new TooWide(path, wide, type);
            }
            return narrowed;
        } else if (declared instanceof RowType) {
            RowType rowType = (RowType) declared;
            RowData row = (RowData) value;
            GenericRowData out = new GenericRowData(row.getRowKind(), rowType.getFieldCount());
            for (int i = 0; i < rowType.getFieldCount(); i++) {
                Object field = RowData.createFieldGetter(widen(rowType.getTypeAt(i)), i)
                        .getFieldOrNull(row);
                out.setField(
                        i,
                        narrow(
                                field,
                                rowType.getTypeAt(i),
                                path + "." + rowType.getFieldNames().get(i)));
            }
            return out;
        } else if (declared instanceof ArrayType) {
            LogicalType element = ((ArrayType) declared).getElementType();
            ArrayData array = (ArrayData) value;
            ArrayData.ElementGetter getter = ArrayData.createElementGetter(widen(element));
            Object[] out = new Object[array.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = narrow(getter.getElementOrNull(array, i), element, path + "[" + i + "]");
            }
            return new GenericArrayData(out);
        } else if (declared instanceof MapType || declared instanceof MultisetType) {
            LogicalType keyType = declared instanceof MapType
                    ? ((MapType) declared).getKeyType()
                    : ((MultisetType) declared).getElementType();
            LogicalType valueType =
                    declared instanceof MapType ? ((MapType) declared).getValueType() : new IntType(false);
            MapData map = (MapData) value;
            ArrayData.ElementGetter keys = ArrayData.createElementGetter(widen(keyType));
            ArrayData.ElementGetter values = ArrayData.createElementGetter(widen(valueType));
            Map<Object, Object> out = new LinkedHashMap<>();
            for (int i = 0; i < map.size(); i++) {
                Object key = narrow(keys.getElementOrNull(map.keyArray(), i), keyType, path + "{key " + i + "}");
                out.put(key, narrow(values.getElementOrNull(map.valueArray(), i), valueType, path + "[" + key + "]"));
            }
            return new GenericMapData(out);
        }
        return value;
    }

    @Override
    public boolean isEndOfStream(RowData nextElement) {
        return false;
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(declared);
    }
}
