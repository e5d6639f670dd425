package io.sluice.plugin.formats.testing;

import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link SampleRows}' columns plus an array, a map and a nested row, for the formats that hold
 * them (json, avro, parquet, orc).
 */
public final class NestedRows {

    public static final RowType ADDRESS = RowType.of(
            new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH), new IntType()}, new String[] {"city", "zip"});

    public static final RowType ROW_TYPE = withNested();

    /** Every column set; the array and the map hold a null too. */
    public static final RowData FULL = extend(
            SampleRows.FULL,
            new GenericArrayData(new Object[] {string("a"), null, string("c")}),
            new GenericMapData(map(string("x"), 1, string("y"), null)),
            GenericRowData.of(string("Berlin"), 10115));

    /** Every column null. */
    public static final RowData NULLS = new GenericRowData(ROW_TYPE.getFieldCount());

    /**
     * Negative values and a timestamp before the epoch, in whole seconds: Flink's Parquet reader
     * (INT96 in the local time zone) and ORC 1.5 mishandle fractions of a second before 1970 (see
     * the format factories' documentation), which the row-type tests of the writers cover.
     */
    public static final RowData NEGATIVE = extend(
            withTimestamp(SampleRows.NEGATIVE, LocalDateTime.of(1950, 6, 15, 8, 30, 0)),
            new GenericArrayData(new Object[] {string("only")}),
            new GenericMapData(map(string("z"), -3)),
            GenericRowData.of(null, -1));

    /** An empty array and an empty map, which Flink's Parquet reader cannot read back. */
    public static final RowData EMPTY_COLLECTIONS = extend(
            SampleRows.FULL,
            new GenericArrayData(new Object[0]),
            new GenericMapData(Map.of()),
            GenericRowData.of(string(""), 0));

    /** Every sample row. */
    public static final List<RowData> ALL = List.of(FULL, NULLS, NEGATIVE, EMPTY_COLLECTIONS);

    /** The sample rows without empty collections. */
    public static final List<RowData> WITHOUT_EMPTY_COLLECTIONS = List.of(FULL, NULLS, NEGATIVE);

    private NestedRows() {}

    private static RowType withNested() {
        List<RowType.RowField> fields = new ArrayList<>(SampleRows.ROW_TYPE.getFields());
        fields.add(new RowType.RowField("tags", new ArrayType(new VarCharType(VarCharType.MAX_LENGTH))));
        fields.add(new RowType.RowField("scores", new MapType(new VarCharType(VarCharType.MAX_LENGTH), new IntType())));
        fields.add(new RowType.RowField("address", ADDRESS));
        return new RowType(fields);
    }

    private static RowData extend(RowData base, Object... extra) {
        int baseCount = SampleRows.ROW_TYPE.getFieldCount();
        GenericRowData row = new GenericRowData(baseCount + extra.length);
        GenericRowData generic = (GenericRowData) base;
        for (int i = 0; i < baseCount; i++) {
            row.setField(i, generic.getField(i));
        }
        for (int i = 0; i < extra.length; i++) {
            row.setField(baseCount + i, extra[i]);
        }
        return row;
    }

    private static RowData withTimestamp(RowData base, LocalDateTime timestamp) {
        GenericRowData copy = new GenericRowData(SampleRows.ROW_TYPE.getFieldCount());
        for (int i = 0; i < copy.getArity(); i++) {
            copy.setField(i, ((GenericRowData) base).getField(i));
        }
        copy.setField(copy.getArity() - 1, TimestampData.fromLocalDateTime(timestamp));
        return copy;
    }

    private static StringData string(String value) {
        return StringData.fromString(value);
    }

    private static Map<Object, Object> map(Object... keysAndValues) {
        // Map.of refuses null values
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
