package io.sluice.runtime.table;

import io.sluice.runtime.config.Secrets;
import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.SinkValidation;
import io.sluice.runtime.sink.SluiceSink;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.connector.sink.abilities.SupportsOverwrite;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.types.RowKind;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The planner's view of a Sluice sink table: partitioned by the table's partition keys; insert-only,
 * or upserts and deletes by the primary key where the target accepts changes; {@code INSERT
 * OVERWRITE} in BATCH where the target supports it. Static partition values ({@code INSERT INTO t
 * PARTITION (k='v')}) arrive in the rows themselves, as Flink's planner projects them in.
 */
final class SluiceDynamicTableSink
        implements DynamicTableSink,
                SupportsPartitioning,
                SupportsOverwrite,
                org.apache.flink.table.connector.sink.abilities.SupportsBucketing {

    private final SinkDescriptor descriptor;
    private final LinkedHashMap<String, String> staticPartition = new LinkedHashMap<>();
    private boolean overwrite;
    /** Whether the planner sorts the rows by the dynamic partition columns (BATCH, the target asks). */
    private boolean partitionGrouping;
    /** The target's answer, asked once: for a table target it means loading the table. */
    private Boolean acceptsChanges;

    /** Whether the session runs STREAMING jobs: an INSERT OVERWRITE is refused before the target is asked. */
    private final boolean streaming;
    /** The factory's error for an invalid table, naming it. */
    private final Function<RuntimeException, ValidationException> invalid;
    /** Whether the target checked the options ({@link SinkValidation#validateTarget}), once. */
    private boolean targetChecked;

    SluiceDynamicTableSink(
            SinkDescriptor descriptor, boolean streaming, Function<RuntimeException, ValidationException> invalid) {
        this.descriptor = descriptor;
        this.streaming = streaming;
        this.invalid = invalid;
    }

    /**
     * The target's checks, deferred from the factory until the planner has applied {@code
     * OVERWRITE}: they may create the target's table, which a refused statement must not leave.
     */
    private void checkTarget() {
        if (!targetChecked) {
            try {
                SinkValidation.validateTarget(descriptor);
            } catch (RuntimeException e) {
                throw invalid.apply(e);
            }
            targetChecked = true;
        }
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        checkTarget();
        if (acceptsChanges == null) {
            try {
                acceptsChanges = descriptor
                        .targetFactory()
                        .changes()
                        .map(c -> c.acceptsChanges(SinkValidation.clientContext(descriptor)))
                        .orElse(false);
            } catch (RuntimeException e) {
                // the target loads its table here: a catalog's error may quote its URI or credentials
                throw new ValidationException(
                        Secrets.scrub("Cannot use target '" + descriptor.target() + "': " + e, descriptor.options()),
                        Secrets.scrub(e, descriptor.options()));
            }
        }
        if (!acceptsChanges) {
            return ChangelogMode.insertOnly();
        }
        // upserts by key: the value before an update is not needed
        ChangelogMode.Builder changes = ChangelogMode.newBuilder();
        for (RowKind kind : requestedMode.getContainedKinds()) {
            if (kind != RowKind.UPDATE_BEFORE) {
                changes.addContainedKind(kind);
            }
        }
        return changes.build();
    }

    @Override
    public void applyOverwrite(boolean overwrite) {
        if (overwrite && descriptor.targetFactory().overwrite().isEmpty()) {
            throw new ValidationException("Target '" + descriptor.target() + "' does not support INSERT OVERWRITE");
        }
        if (overwrite && streaming) {
            throw streamingOverwrite();
        }
        this.overwrite = overwrite;
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        if (overwrite && !context.isBounded()) {
            throw streamingOverwrite();
        }
        checkTarget();
        SinkDescriptor planned = descriptor.withOverwrite(overwrite).withPartitionGrouping(partitionGrouping);
        if (overwrite) {
            try {
                SinkValidation.validate(planned); // the target checks overwrite against its other options
                SinkValidation.checkOverwrite(planned);
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new ValidationException(e.getMessage(), e);
            }
        }
        SluiceSink sink = SluiceSink.of(planned);
        int parallelism = sink.parallelism();
        return parallelism > 0 ? SinkV2Provider.of(sink, parallelism) : SinkV2Provider.of(sink);
    }

    private ValidationException streamingOverwrite() {
        return new ValidationException("INSERT OVERWRITE of target '" + descriptor.target()
                + "' is not supported in STREAMING mode: run it as a BATCH job");
    }

    /** {@code DISTRIBUTED BY HASH(...)} (or without an algorithm), applied as hash distribution; see the factory. */
    @Override
    public java.util.Set<org.apache.flink.table.catalog.TableDistribution.Kind> listAlgorithms() {
        return java.util.EnumSet.of(
                org.apache.flink.table.catalog.TableDistribution.Kind.HASH,
                org.apache.flink.table.catalog.TableDistribution.Kind.UNKNOWN);
    }

    @Override
    public boolean requiresBucketCount() {
        return false;
    }

    /**
     * Asked by the planner of a BATCH job only ({@code supportsGrouping}): the target decides
     * (the Hive target: {@code table.exec.hive.sink.sort-by-dynamic-partition.enable}).
     */
    @Override
    public boolean requiresPartitionGrouping(boolean supportsGrouping) {
        checkTarget();
        partitionGrouping = supportsGrouping
                && !descriptor.partitionKeys().isEmpty()
                && descriptor
                        .targetFactory()
                        .partitions()
                        .map(p -> p.requiresGrouping(SinkValidation.clientContext(descriptor)))
                        .orElse(false);
        return partitionGrouping;
    }

    @Override
    public void applyStaticPartition(Map<String, String> partition) {
        StaticPartitionValues.check(descriptor.rowType(), partition);
        staticPartition.putAll(partition);
    }

    @Override
    public DynamicTableSink copy() {
        SluiceDynamicTableSink copy = new SluiceDynamicTableSink(descriptor, streaming, invalid);
        copy.targetChecked = targetChecked;
        copy.staticPartition.putAll(staticPartition);
        copy.overwrite = overwrite;
        copy.partitionGrouping = partitionGrouping;
        copy.acceptsChanges = acceptsChanges;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "Sluice(" + descriptor.target() + ")";
    }
}
