package io.sluice.plugin.iceberg;

import io.sluice.spi.distribution.DistributionKey;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.NullOrder;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortDirection;
import org.apache.iceberg.SortField;
import org.apache.iceberg.SortKey;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.RowDataWrapper;
import org.apache.iceberg.flink.data.RowDataUtil;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.io.ByteArrayOutputStream;
import java.util.Collections;
import java.util.List;

/**
 * The sort key of a row under the table's sort order, what distribution mode {@code range} orders
 * rows by: each sort field's transform applied to its source column (as Iceberg's own {@link
 * SortKey} does), each value encoded in value order ({@link DistributionKey#ofColumns} over a
 * one-column row), its bytes inverted for a descending field, and its null marker placed first or
 * last as the field's null order asks. Each field's encoding is prefix-free (fixed width or
 * terminated), so inverting one never changes the order the fields before it decided.
 */
final class SortOrderDistributionKey implements DistributionKey {

    private final SortKey sortKey;
    private final RowDataWrapper wrapper;
    private final Type[] types;
    private final boolean[] descending;
    private final boolean[] nullsLast;
    private final DistributionKey[] encodings;
    private final GenericRowData[] values;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(32);

    /**
     * @param rowType the rows the sink writes, of the table's schema
     * @throws IllegalArgumentException if a sort value's type cannot be ordered as bytes
     */
    SortOrderDistributionKey(SortOrder order, Schema schema, RowType rowType) {
        this.sortKey = new SortKey(schema, order);
        this.wrapper = new RowDataWrapper(rowType, schema.asStruct());
        List<SortField> fields = order.fields();
        int n = fields.size();
        this.types = new Type[n];
        this.descending = new boolean[n];
        this.nullsLast = new boolean[n];
        this.encodings = new DistributionKey[n];
        this.values = new GenericRowData[n];
        for (int i = 0; i < n; i++) {
            SortField field = fields.get(i);
            Type source = schema.findType(field.sourceId());
            types[i] = field.transform().getResultType(source);
            descending[i] = field.direction() == SortDirection.DESC;
            nullsLast[i] = field.nullOrder() == NullOrder.NULLS_LAST;
            String name = "sort_" + i;
            RowType one = FlinkSchemaUtil.convert(new Schema(Types.NestedField.optional(1, name, types[i])));
            encodings[i] = DistributionKey.ofColumns(one, Collections.singletonList(name));
            values[i] = new GenericRowData(1);
        }
    }

    @Override
    public byte[] of(RowData row) {
        sortKey.wrap(wrapper.wrap(row));
        out.reset();
        for (int i = 0; i < types.length; i++) {
            values[i].setField(0, RowDataUtil.convertConstant(types[i], sortKey.get(i, Object.class)));
            byte[] encoded = encodings[i].of(values[i]);
            boolean isNull = encoded[0] == 0;
            // a null sorts before every value, or after every value with NULLS_LAST
            out.write(isNull == nullsLast[i] ? 1 : 0);
            for (int b = 1; b < encoded.length; b++) {
                out.write(descending[i] ? ~encoded[b] : encoded[b]);
            }
        }
        return out.toByteArray();
    }
}
