package io.sluice.runtime.source.lookup;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The join key of a temporal join's rows: the values of the key columns as a {@link
 * GenericRowData}, the form Flink's {@code LookupFunction} hands its key in, so that a key of the
 * cache and a key looked up are equal when their values are. A key with a null value matches
 * nothing, as SQL's {@code =} does.
 */
final class LookupKeys implements Serializable {

    private static final long serialVersionUID = 1L;

    private final int[] columns;
    private final RowData.FieldGetter[] getters;
    private final RowData.FieldGetter[] keyGetters; // of a key row: field i is the key's i-th value

    /** @param columns the key columns' positions in the table's rows of {@code rowType} */
    LookupKeys(RowType rowType, int[] columns) {
        this.columns = columns.clone();
        this.getters = new RowData.FieldGetter[columns.length];
        this.keyGetters = new RowData.FieldGetter[columns.length];
        for (int i = 0; i < columns.length; i++) {
            getters[i] = RowData.createFieldGetter(rowType.getTypeAt(columns[i]), columns[i]);
            keyGetters[i] = RowData.createFieldGetter(rowType.getTypeAt(columns[i]), i);
        }
    }

    /** The key of a table row, or {@code null} when one of its values is null. */
    @Nullable
    RowData ofRow(RowData row) {
        return ofRow(row, getters);
    }

    @Nullable
    private static RowData ofRow(RowData row, RowData.FieldGetter[] getters) {
        GenericRowData key = new GenericRowData(getters.length);
        for (int i = 0; i < getters.length; i++) {
            Object value = getters[i].getFieldOrNull(row);
            if (value == null) {
                return null;
            }
            key.setField(i, value);
        }
        return key;
    }

    /**
     * A key looked up in the form of the cache's keys (Flink hands a {@link GenericRowData}
     * already; any other row is copied into one), or {@code null} when one of its values is null.
     */
    @Nullable
    RowData ofKey(RowData key) {
        return ofRow(key, keyGetters);
    }

    @Override
    public String toString() {
        return "LookupKeys" + Arrays.toString(columns);
    }
}
