package io.sluice.runtime.table;

import io.sluice.runtime.source.file.FileSourceDescriptor;
import io.sluice.runtime.source.file.FileTableLoader;
import io.sluice.runtime.source.file.SluiceFileSource;
import io.sluice.runtime.source.lookup.LookupPlanner;

import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;

import java.util.Optional;

/**
 * The planner's view of a Sluice file source: insert-only rows, bounded or continuous. As the
 * temporal table of a join ({@code FOR SYSTEM_TIME AS OF} a processing time) the same files are
 * read whole into each join subtask's cache ({@link FileTableLoader}). A bounded read prunes
 * partitions ({@link SluicePartitionedFileTableSource}); a continuous one reads the whole table
 * and leaves the partition filters to the query, so partitions added later are read too.
 */
class SluiceDynamicTableSource implements ScanTableSource, LookupTableSource {

    private final String table;
    FileSourceDescriptor descriptor;

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

    /**
     * The source of a file table: one whose partitions the planner prunes for a bounded read,
     * else this one.
     */
    static SluiceDynamicTableSource of(String table, FileSourceDescriptor descriptor) {
        return descriptor.isContinuous()
                ? new SluiceDynamicTableSource(table, descriptor)
                : new SluicePartitionedFileTableSource(table, descriptor);
    }

    String table() {
        return table;
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
