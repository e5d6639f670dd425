package io.sluice.plugin.formats;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Text formats (csv, json) carry no schema, and Flink's converters turn a number with more digits
 * than its declared {@code DECIMAL(p, s)} holds into null, silently. This schema parses such
 * columns as {@code DECIMAL(38, s)} and then checks the declared precision: a value that does not
 * fit is an error naming the column and the value (the reader adds the file, line and offset), or
 * null where the format was told to ignore parse errors, as upstream does with fields that do not
 * parse. Top-level columns only.
 */
final class DeclaredDecimals implements DeserializationSchema<RowData> {

    private static final long serialVersionUID = 1L;

    private final DeserializationSchema<RowData> wide;
    private final RowType declared;
    private final int[] columns;
    private final boolean ignoreParseErrors;

    private DeclaredDecimals(DeserializationSchema<RowData> wide, RowType declared, int[] columns,
            boolean ignoreParseErrors) {
        this.wide = wide;
        this.declared = declared;
        this.columns = columns;
        this.ignoreParseErrors = ignoreParseErrors;
    }

    /** The schema {@code create} makes for {@code declared}, with its decimal columns checked. */
    static DeserializationSchema<RowData> of(RowType declared, boolean ignoreParseErrors,
            Function<RowType, DeserializationSchema<RowData>> create) {
        List<RowType.RowField> fields = new ArrayList<>();
        List<Integer> decimals = new ArrayList<>();
        for (int i = 0; i < declared.getFieldCount(); i++) {
            RowType.RowField field = declared.getFields().get(i);
            LogicalType type = field.getType();
            if (type instanceof DecimalType && ((DecimalType) type).getPrecision() < DecimalType.MAX_PRECISION) {
                decimals.add(i);
                type = new DecimalType(type.isNullable(), DecimalType.MAX_PRECISION, ((DecimalType) type).getScale());
            }
            fields.add(new RowType.RowField(field.getName(), type, field.getDescription().orElse(null)));
        }
        if (decimals.isEmpty()) {
            return create.apply(declared);
        }
        return new DeclaredDecimals(create.apply(new RowType(declared.isNullable(), fields)), declared,
                decimals.stream().mapToInt(Integer::intValue).toArray(), ignoreParseErrors);
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
            DecimalType type = (DecimalType) declared.getTypeAt(column);
            DecimalData value = fields.getDecimal(column, DecimalType.MAX_PRECISION, type.getScale());
            DecimalData narrowed = DecimalData.fromBigDecimal(value.toBigDecimal(), type.getPrecision(), type.getScale());
            if (narrowed == null && !ignoreParseErrors) {
                throw new IOException("Column '" + declared.getFieldNames().get(column) + "' holds " + value
                        + ", more digits than its declared " + type.asSummaryString() + " can hold");
            }
            fields.setField(column, narrowed);
        }
        return fields;
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
