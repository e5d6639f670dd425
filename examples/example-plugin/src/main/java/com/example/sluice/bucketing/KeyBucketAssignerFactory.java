package com.example.sluice.bucketing;

import io.sluice.spi.partition.PartitionPaths;
import io.sluice.spi.sink.BucketAssigner;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import org.pf4j.Extension;

import java.util.Collections;
import java.util.Set;

/**
 * {@code key}: one directory per value of one column, {@code key-<value>}, without Hive's {@code
 * k=v} naming, for jobs whose readers list buckets by the value alone. The column is {@code
 * sink.bucket-assigner.key.column}. The value is escaped as a partition value is, so no value can
 * leave the base path or hide its directory; a null goes to {@code key-null}, next to the value
 * {@code "null"}.
 */
@Extension
public final class KeyBucketAssignerFactory implements BucketAssignerFactory {

    static final ConfigOption<String> COLUMN = ConfigOptions.key("sink.bucket-assigner.key.column")
            .stringType()
            .noDefaultValue()
            .withDescription("The column whose value names the bucket.");

    @Override
    public String identifier() {
        return "key";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Collections.singleton(COLUMN);
    }

    @Override
    public BucketAssigner create(SinkContext context) {
        String column = context.options().getOptional(COLUMN).orElseThrow(
                () -> new IllegalArgumentException("Missing '" + COLUMN.key() + "' for bucket assigner 'key'"));
        RowType rowType = context.rowType();
        int index = rowType.getFieldNames().indexOf(column);
        if (index < 0) {
            throw new IllegalArgumentException("Invalid '" + COLUMN.key() + "' '" + column + "': not a column of "
                    + rowType.getFieldNames());
        }
        RowData.FieldGetter getter = RowData.createFieldGetter(rowType.getTypeAt(index), index);
        return (row, record) -> {
            Object value = getter.getFieldOrNull(row);
            // the prefix keeps even an empty value or one starting with '.' or '_' a visible name
            return "key-" + (value == null ? "null" : PartitionPaths.escape(value.toString()));
        };
    }
}
