package io.sluice.plugin.formats.testing;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;

import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns rows into plain Java values (lists, maps, strings, {@link java.math.BigDecimal}s, {@link
 * java.time} values), so that rows from different {@link RowData} implementations (generic,
 * binary, columnar) compare with {@code equals}, and so that a row is copied out of a reader's
 * reused batch before the batch is released.
 */
public final class JavaValues {

    private JavaValues() {}

    /** The row's fields as a list. */
    public static List<Object> of(RowType type, RowData row) {
        List<Object> fields = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            LogicalType fieldType = type.getTypeAt(i);
            Object value = RowData.createFieldGetter(fieldType, i).getFieldOrNull(row);
            fields.add(value(fieldType, value));
        }
        return fields;
    }

    /** Every row as a list of its fields. */
    public static List<List<Object>> of(RowType type, List<RowData> rows) {
        List<List<Object>> result = new ArrayList<>();
        for (RowData row : rows) {
            result.add(of(type, row));
        }
        return result;
    }

    private static Object value(LogicalType type, Object value) {
        if (value == null) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
                return ((StringData) value).toString();
            case BINARY:
            case VARBINARY:
                return ByteBuffer.wrap((byte[]) value);
            case DECIMAL:
                return ((DecimalData) value).toBigDecimal();
            case DATE:
                return LocalDate.ofEpochDay((Integer) value);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return ((TimestampData) value).toLocalDateTime();
            case ARRAY:
                return array(((ArrayType) type).getElementType(), (ArrayData) value);
            case MAP:
                return map((MapType) type, (MapData) value);
            case ROW:
                return of((RowType) type, (RowData) value);
            default:
                return value;
        }
    }

    private static List<Object> array(LogicalType elementType, ArrayData array) {
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
        List<Object> elements = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            elements.add(value(elementType, getter.getElementOrNull(array, i)));
        }
        return elements;
    }

    private static Map<Object, Object> map(MapType type, MapData map) {
        List<Object> keys = array(type.getKeyType(), map.keyArray());
        List<Object> values = array(type.getValueType(), map.valueArray());
        Map<Object, Object> result = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            result.put(keys.get(i), values.get(i));
        }
        return result;
    }
}
