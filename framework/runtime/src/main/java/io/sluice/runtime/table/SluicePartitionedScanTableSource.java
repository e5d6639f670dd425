package io.sluice.runtime.table;

import io.sluice.runtime.source.scan.ScanDescriptor;
import io.sluice.runtime.source.scan.ScanSourcePlanner;

import org.apache.flink.table.connector.source.abilities.SupportsPartitionPushDown;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A table read by scans whose partitions the planner prunes (a bounded read of a partitioned Hive
 * table): the planner evaluates every filter on partition columns itself, whatever its form
 * (ranges, {@code LIKE}, functions of a column, {@code NOT}), on the partitions the target lists,
 * and the read plans only those it keeps; {@code EXPLAIN} names them ({@code partitions=[...]}).
 * A separate class because whether a source takes partitions is what the planner asks of its
 * class: a continuous read must not, as the planner drops the filters it pruned with from the rows.
 */
final class SluicePartitionedScanTableSource extends SluiceScanTableSource implements SupportsPartitionPushDown {

    SluicePartitionedScanTableSource(String table, ScanDescriptor descriptor) {
        super(table, descriptor);
    }

    /** The target's list: never empty-handed, which would send the planner to the table's catalog. */
    @Override
    public Optional<List<Map<String, String>>> listPartitions() {
        return Optional.of(ScanSourcePlanner.listPartitions(descriptor));
    }

    @Override
    public void applyPartitions(List<Map<String, String>> remainingPartitions) {
        descriptor = descriptor.withPartitions(remainingPartitions);
    }

    @Override
    SluiceScanTableSource copyOf(ScanDescriptor descriptor) {
        return new SluicePartitionedScanTableSource(table(), descriptor);
    }
}
