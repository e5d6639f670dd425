package io.sluice.runtime.sink;

import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.util.Arrays;
import java.util.List;

/**
 * The values of some of a row's columns as one string: the change key (its upsert key) that routes
 * every version of a row to the same writer subtask (see {@code ChangeSupport#changeKey}), or the
 * partition columns a BATCH sink sorts each writer's rows by ({@link PartitionGrouping}; a string
 * sorts, so equal partitions come together).
 */
final class ChangeKeySelector implements KeySelector<RowData, String> {

    private static final long serialVersionUID = 1L;

    private final RowData.FieldGetter[] getters;

    /** @throws IllegalArgumentException if a key column is not a column of {@code type} */
    ChangeKeySelector(RowType type, List<String> columns) {
        getters = new RowData.FieldGetter[columns.size()];
        for (int i = 0; i < getters.length; i++) {
            int index = type.getFieldIndex(columns.get(i));
            if (index < 0) {
                throw new IllegalArgumentException("Key column '" + columns.get(i) + "' is not a column of " + type);
            }
            getters[i] = RowData.createFieldGetter(type.getTypeAt(index), index);
        }
    }

    @Override
    public String getKey(RowData row) {
        StringBuilder key = new StringBuilder();
        for (RowData.FieldGetter getter : getters) {
            Object value = getter.getFieldOrNull(row);
            // by content: a byte array's own toString is its identity; null apart from the text "null"
            if (value == null) {
                key.append('\u0000');
            } else {
                key.append(value instanceof byte[] ? Arrays.toString((byte[]) value) : value);
            }
            key.append('\u0001');
        }
        return key.toString();
    }
}
