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

    /** Whether the table is a permanent one of its target's own catalog. */
    private final boolean ofTargetsCatalog;

    SluicePartitionedScanTableSource(String table, ScanDescriptor descriptor, boolean ofTargetsCatalog) {
        super(table, descriptor);
        this.ofTargetsCatalog = ofTargetsCatalog;
    }

    /**
     * Nothing for a table of the target's own catalog when the target says its catalog lists the
     * partitions: the planner then asks the catalog with the query's partition filters ({@code
     * Catalog#listPartitionsByFilter}, which may filter in the metastore). Otherwise the target's
     * list: an empty answer would send the planner to whatever catalog holds the table.
     */
    @Override
    public Optional<List<Map<String, String>>> listPartitions() {
        if (ofTargetsCatalog && ScanSourcePlanner.catalogListsPartitions(descriptor)) {
            return Optional.empty();
        }
        return Optional.of(ScanSourcePlanner.listPartitions(descriptor));
    }

    @Override
    public void applyPartitions(List<Map<String, String>> remainingPartitions) {
        descriptor = descriptor.withPartitions(remainingPartitions);
    }

    @Override
    SluiceScanTableSource copyOf(ScanDescriptor descriptor) {
        return new SluicePartitionedScanTableSource(table(), descriptor, ofTargetsCatalog);
    }
}
