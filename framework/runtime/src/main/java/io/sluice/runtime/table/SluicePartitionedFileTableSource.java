package io.sluice.runtime.table;

import io.sluice.runtime.source.file.FileSourceDescriptor;
import io.sluice.runtime.source.file.SourcePartitions;

import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsPartitionPushDown;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A bounded read of a file table whose partitions the planner prunes: the planner evaluates the
 * query's filters on partition columns against the partition directories listed here, and the
 * read takes only the directories it keeps as its paths. A separate class because whether a source
 * takes partitions is what the planner asks of its class, and the planner then drops the filters
 * it pruned with: a continuous read restricted to the directories of planning time would never see
 * a matching partition added later.
 */
final class SluicePartitionedFileTableSource extends SluiceDynamicTableSource implements SupportsPartitionPushDown {

    SluicePartitionedFileTableSource(String table, FileSourceDescriptor descriptor) {
        super(table, descriptor);
    }

    @Override
    public Optional<List<Map<String, String>>> listPartitions() {
        return Optional.of(SourcePartitions.list(descriptor));
    }

    @Override
    public void applyPartitions(List<Map<String, String>> remainingPartitions) {
        descriptor = SourcePartitions.restrictTo(descriptor, remainingPartitions);
    }

    @Override
    public DynamicTableSource copy() {
        return new SluicePartitionedFileTableSource(table(), descriptor);
    }
}
