package io.sluice.runtime.table;

import io.sluice.runtime.source.file.FileSourceDescriptor;
import io.sluice.runtime.source.file.SluiceFileSource;
import io.sluice.runtime.source.file.SourcePartitions;

import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsPartitionPushDown;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The planner's view of a Sluice file source: insert-only rows, bounded or continuous, with the
 * partitions the planner keeps after pruning read as the only paths.
 */
final class SluiceDynamicTableSource implements ScanTableSource, SupportsPartitionPushDown {

    private FileSourceDescriptor descriptor;

    SluiceDynamicTableSource(FileSourceDescriptor descriptor) {
        this.descriptor = descriptor;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        return SourceProvider.of(SluiceFileSource.of(descriptor));
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
        return new SluiceDynamicTableSource(descriptor);
    }

    @Override
    public String asSummaryString() {
        return "Sluice(" + descriptor.format() + ")";
    }
}
