package io.sluice.runtime.table;

import io.sluice.runtime.source.file.FileSourceDescriptor;
import io.sluice.runtime.source.file.FileTableLoader;
import io.sluice.runtime.source.file.SluiceFileSource;
import io.sluice.runtime.source.file.SourcePartitions;
import io.sluice.runtime.source.lookup.LookupPlanner;

import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsPartitionPushDown;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The planner's view of a Sluice file source: insert-only rows, bounded or continuous, with the
 * partitions the planner keeps after pruning read as the only paths. As the temporal table of a
 * join ({@code FOR SYSTEM_TIME AS OF} a processing time) the same files are read whole into each
 * join subtask's cache ({@link FileTableLoader}).
 */
final class SluiceDynamicTableSource implements ScanTableSource, LookupTableSource, SupportsPartitionPushDown {

    private final String table;
    private FileSourceDescriptor descriptor;

    /** @param table the table's name, for the messages of a temporal join */
    SluiceDynamicTableSource(String table, FileSourceDescriptor descriptor) {
        this.table = table;
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

    /** The lookup of a temporal join, reloaded every {@code lookup.join.cache.ttl}. */
    @Override
    public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
        try {
            return LookupFunctionProvider.of(LookupPlanner.function(
                    table,
                    new FileTableLoader(descriptor),
                    descriptor.rowType(),
                    context.getKeys(),
                    Optional.empty(),
                    descriptor.options()));
        } catch (RuntimeException e) {
            throw LookupErrors.invalid(table, descriptor.options(), e);
        }
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
        return new SluiceDynamicTableSource(table, descriptor);
    }

    @Override
    public String asSummaryString() {
        return "Sluice(" + descriptor.format() + ")";
    }
}
