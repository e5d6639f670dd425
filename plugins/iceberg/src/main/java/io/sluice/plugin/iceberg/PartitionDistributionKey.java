package io.sluice.plugin.iceberg;

import io.sluice.spi.distribution.DistributionKey;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.RowDataWrapper;
import org.apache.iceberg.flink.data.RowDataUtil;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The distribution key of a row of a partitioned table: its partition under the table's spec
 * (transforms such as {@code days(ts)} or {@code bucket(16, id)} applied, as the writer will),
 * encoded in the order of the partition values ({@link DistributionKey#ofColumns} over the
 * partition tuple as a Flink row).
 */
final class PartitionDistributionKey implements DistributionKey {

    private final PartitionKey partition;
    private final RowDataWrapper wrapper;
    private final Type[] types;
    private final DistributionKey encoding;
    /** The partition values of the row at hand, reused: a key is used by one thread. */
    private final GenericRowData values;

    /**
     * @param rowType the rows the sink writes, of the table's schema
     * @throws IllegalArgumentException if a partition value's type cannot be ordered as bytes
     */
    PartitionDistributionKey(PartitionSpec spec, Schema schema, RowType rowType) {
        this.partition = new PartitionKey(spec, schema);
        this.wrapper = new RowDataWrapper(rowType, schema.asStruct());
        Types.StructType partitionType = spec.partitionType();
        this.types = new Type[partitionType.fields().size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = partitionType.fields().get(i).type();
        }
        RowType partitionRow = FlinkSchemaUtil.convert(new Schema(partitionType.fields()));
        this.values = new GenericRowData(types.length);
        this.encoding = DistributionKey.ofColumns(partitionRow, partitionRow.getFieldNames());
    }

    @Override
    public byte[] of(RowData row) {
        partition.partition(wrapper.wrap(row));
        for (int i = 0; i < types.length; i++) {
            values.setField(i, RowDataUtil.convertConstant(types[i], partition.get(i, Object.class)));
        }
        return encoding.of(values);
    }
}
