package io.sluice.runtime.table;

import io.sluice.runtime.source.lookup.LookupPlanner;
import io.sluice.runtime.source.scan.ScanDescriptor;
import io.sluice.runtime.source.scan.ScanSource;
import io.sluice.runtime.source.scan.ScanSourcePlanner;
import io.sluice.runtime.source.scan.ScanTableLoader;

import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsLimitPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The planner's view of a table read by its target's scans (an Iceberg table): insert-only rows,
 * bounded or continuous as the read options say, of only the columns the query uses, with the
 * query's filters offered to the target to skip files and its {@code LIMIT} to stop reading early.
 * As the temporal table of a join ({@code FOR SYSTEM_TIME AS OF} a processing time) it is read
 * whole, with the same projection and filters, into each join subtask's cache ({@link
 * ScanTableLoader}).
 */
class SluiceScanTableSource
        implements ScanTableSource,
                LookupTableSource,
                SupportsProjectionPushDown,
                SupportsFilterPushDown,
                SupportsLimitPushDown {

    private final String table;
    ScanDescriptor descriptor;

    // the target's answer for a lookup of 'lookupCheckedFor': the planner asks for the lookup
    // provider many times (digests, explain), and each answer loads the table's metadata
    @Nullable
    private ScanDescriptor lookupCheckedFor;

    private Optional<Duration> lookupReloadInterval = Optional.empty();

    /** @param table the table's name, for the messages of a temporal join */
    SluiceScanTableSource(String table, ScanDescriptor descriptor) {
        this.table = table;
        this.descriptor = descriptor;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        // static parallelism inference: the target's answer fixes the source's parallelism in the plan
        java.util.OptionalInt inferred = ScanSourcePlanner.inferParallelism(descriptor, Integer.MAX_VALUE, false);
        return inferred.isPresent()
                ? SourceProvider.of(ScanSource.of(descriptor), inferred.getAsInt())
                : SourceProvider.of(ScanSource.of(descriptor));
    }

    /**
     * The lookup of a temporal join: the target checks the table for it and may give the reload
     * interval; failures are errors naming the table, secrets masked.
     */
    @Override
    public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
        try {
            if (lookupCheckedFor != descriptor) {
                lookupReloadInterval = ScanSourcePlanner.lookupReloadInterval(descriptor);
                lookupCheckedFor = descriptor;
            }
            return LookupFunctionProvider.of(LookupPlanner.function(
                    table,
                    new ScanTableLoader(descriptor),
                    descriptor.rowType(),
                    context.getKeys(),
                    lookupReloadInterval,
                    descriptor.options()));
        } catch (RuntimeException e) {
            throw LookupErrors.invalid(table, descriptor.options(), e);
        }
    }

    @Override
    public boolean supportsNestedProjection() {
        return false;
    }

    /** The target reads columns by name, so reading fewer is asking for fewer. */
    @Override
    public void applyProjection(int[][] projectedFields, DataType producedDataType) {
        descriptor = descriptor.withRowType((RowType) producedDataType.getLogicalType());
    }

    /**
     * Offers the filters to the target, which may use them to skip files; Flink still applies
     * every filter to the rows read, so none is taken away from the query.
     */
    @Override
    public Result applyFilters(List<ResolvedExpression> filters) {
        descriptor = ScanSourcePlanner.pushFilters(descriptor, filters);
        return Result.of(descriptor.pushedFilters().isPresent() ? filters : Collections.emptyList(), filters);
    }

    /** The target may stop each reader after {@code limit} rows; Flink still applies the limit. */
    @Override
    public void applyLimit(long limit) {
        descriptor = descriptor.withPushedLimit(limit);
    }

    /**
     * The source of a table read by scans: one whose partitions the planner prunes when the read
     * and its target allow it ({@link ScanSourcePlanner#prunesPartitions}), else this one;
     * {@code ofTargetsCatalog}: the table is a permanent one of its target's own catalog.
     */
    static SluiceScanTableSource of(String table, ScanDescriptor descriptor, boolean ofTargetsCatalog) {
        return ScanSourcePlanner.prunesPartitions(descriptor)
                ? new SluicePartitionedScanTableSource(table, descriptor, ofTargetsCatalog)
                : new SluiceScanTableSource(table, descriptor);
    }

    String table() {
        return table;
    }

    /** A source of this class for the same table. */
    SluiceScanTableSource copyOf(ScanDescriptor descriptor) {
        return new SluiceScanTableSource(table, descriptor);
    }

    @Override
    public DynamicTableSource copy() {
        SluiceScanTableSource copy = copyOf(descriptor);
        copy.lookupCheckedFor = lookupCheckedFor;
        copy.lookupReloadInterval = lookupReloadInterval;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "Sluice(" + descriptor.target() + ")";
    }
}
