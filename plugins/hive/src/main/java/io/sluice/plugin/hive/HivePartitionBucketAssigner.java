package io.sluice.plugin.hive;

import io.sluice.spi.partition.PartitionPaths;
import io.sluice.spi.sink.BucketAssigner;
import io.sluice.spi.sink.RecordContext;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

import java.util.List;

/**
 * A row's Hive partition directory, {@code k1=v1/k2=v2}, escaped as Hive and Flink escape
 * partition values, with Hive's default partition name for null and empty values.
 */
final class HivePartitionBucketAssigner implements BucketAssigner {

    private final String[] escapedKeys;
    private final RowData.FieldGetter[] getters;

    HivePartitionBucketAssigner(RowType rowType, List<String> keys) {
        escapedKeys = new String[keys.size()];
        getters = new RowData.FieldGetter[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            int position = rowType.getFieldIndex(keys.get(i));
            if (position < 0) {
                throw new IllegalArgumentException("Partition key '" + keys.get(i) + "' is not a column of " + rowType);
            }
            LogicalType type = rowType.getTypeAt(position);
            checkSupported(keys.get(i), type);
            escapedKeys[i] = PartitionPaths.escape(keys.get(i));
            getters[i] = RowData.createFieldGetter(type, position);
        }
    }

    /** Types whose values print as Hive prints them; others (dates, decimals, timestamps) are not done yet. */
    static void checkSupported(String key, LogicalType type) {
        boolean supported = type.is(LogicalTypeFamily.CHARACTER_STRING)
                || type.is(LogicalTypeFamily.INTEGER_NUMERIC)
                || type.is(LogicalTypeRoot.BOOLEAN);
        if (!supported) {
            throw new IllegalArgumentException("Partition key '" + key + "' has type " + type
                    + ": the hive target writes partitions of string, integer and boolean columns so far");
        }
    }

    @Override
    public String bucketId(RowData row, RecordContext context) {
        StringBuilder id = new StringBuilder();
        for (int i = 0; i < getters.length; i++) {
            Object value = getters[i].getFieldOrNull(row);
            String text = value == null ? null : value.toString();
            if (i > 0) {
                id.append('/');
            }
            id.append(escapedKeys[i])
                    .append('=')
                    .append(
                            text == null || text.isEmpty()
                                    ? HiveTableInfo.DEFAULT_PARTITION_NAME
                                    : PartitionPaths.escape(text));
        }
        return id.toString();
    }
}
