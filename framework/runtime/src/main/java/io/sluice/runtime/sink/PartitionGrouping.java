package io.sluice.runtime.sink;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.operators.Order;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.data.RowData;

/**
 * A BATCH DataStream job's rows sorted by partition before the writers, for a target that asks for
 * partition grouping ({@link io.sluice.spi.partition.PartitionSupport#requiresGrouping}): what the
 * planner does for a SQL job. A writer then has one partition's file open at a time and writes one
 * file per partition, where rows of many partitions in any order keep them all open until the
 * memory budget rolls small files. The sort is Flink's (managed memory, spilling to disk), local
 * to each writer: it follows the distribution and does not change which writer gets a row.
 */
final class PartitionGrouping {

    private PartitionGrouping() {}

    /** Whether {@code input} is to be sorted for the sink of {@code descriptor}, in a BATCH job. */
    static boolean applies(SinkDescriptor descriptor, io.sluice.spi.sink.SinkContext context) {
        return !descriptor.partitionKeys().isEmpty()
                && !descriptor.partitionGrouped()
                && descriptor
                        .targetFactory()
                        .partitions()
                        .map(p -> p.requiresGrouping(context))
                        .orElse(false);
    }

    /** The rows of each writer, sorted by their partition values. */
    static DataStream<RowData> sortEachWritersInput(DataStream<RowData> input, SinkDescriptor descriptor) {
        SingleOutputStreamOperator<RowData> sorted = input.fullWindowPartition()
                .sortPartition(
                        new ChangeKeySelector(descriptor.rowType(), descriptor.partitionKeys()), Order.ASCENDING);
        // Flink gives the sort its input's parallelism; the writers' may differ, and a rebalance
        // between sort and writer would undo the sort: with the default, Flink's sink translation
        // gives the sort the writers' parallelism, so the two chain
        sorted.getTransformation().setParallelism(ExecutionConfig.PARALLELISM_DEFAULT);
        return sorted.name("Sort by partition");
    }
}
