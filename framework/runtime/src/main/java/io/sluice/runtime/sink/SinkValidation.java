package io.sluice.runtime.sink;

import io.sluice.runtime.config.KnownOptions;
import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.sink.compaction.CompactionPlanner;
import io.sluice.runtime.sink.compaction.CompactorChoice;
import io.sluice.runtime.sink.distribution.WriterDistribution;
import io.sluice.runtime.sink.partition.PartitionCommitPolicies;
import io.sluice.runtime.sink.partition.PartitionCommitTrigger;
import io.sluice.spi.compact.SinkCompaction;
import io.sluice.spi.sink.OverwriteSupport;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetFactory;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

/**
 * Checks a sink's options on the client, before the job starts: every option must be known
 * ({@link KnownOptions}) and parse; then the target and the partition commit check the rest.
 */
public final class SinkValidation {

    private SinkValidation() {}

    /**
     * @throws IllegalArgumentException listing unknown options and the valid ones, or naming the
     *     option whose value is invalid
     */
    public static void validate(SinkDescriptor descriptor) {
        validateAllButTheTarget(descriptor);
        validateTarget(descriptor);
    }

    /**
     * The framework's checks, which touch nothing outside the client: everything {@link
     * #validate} checks but the target's own {@code validate} and {@code acceptsChanges}.
     */
    public static void validateAllButTheTarget(SinkDescriptor descriptor) {
        PluginRegistry registry = descriptor.registry();
        TargetFactory target = descriptor.targetFactory();
        Configuration config = descriptor.configuration();
        KnownOptions.of(descriptor.options(), registry)
                .check(descriptor.options(), "target '" + descriptor.target() + "'");
        for (ConfigOption<?> o : target.requiredOptions()) {
            if (!config.contains(o)) {
                throw new IllegalArgumentException(
                        "Missing required option '" + o.key() + "' for target '" + descriptor.target() + "'");
            }
        }
        config.getOptional(SluiceOptions.SINK_PARALLELISM).ifPresent(p -> {
            if (p < 1) {
                throw new IllegalArgumentException(
                        "Invalid '" + SluiceOptions.SINK_PARALLELISM.key() + "' '" + p + "': must be at least 1");
            }
        });
        // checked whether or not a commit policy reads them (see PartitionCommitTrigger.validate)
        PartitionCommitTrigger.validate(config, descriptor.rowType().getFieldNames(), descriptor.partitionKeys());
        CompactionPlanner.of(config, descriptor.options());
        config.getOptional(SluiceOptions.COMPACTION_PARALLELISM).ifPresent(p -> {
            if (p < 1) {
                throw new IllegalArgumentException("Invalid '" + SluiceOptions.COMPACTION_PARALLELISM.key() + "' '" + p
                        + "': must be at least 1 (compaction units run at the same time)");
            }
        });
        SinkContext clientContext = clientContext(descriptor);
        if (clientContext.compaction().map(SinkCompaction::enabled).orElse(false)) {
            String format = target.compaction()
                    .flatMap(c -> c.fileFormat(clientContext))
                    .orElse(null);
            CompactorChoice.factory(config, format, registry)
                    .validate(CompactorChoice.context(config, format, registry));
        }
        if (PartitionCommitPolicies.isConfigured(config)) {
            new PartitionCommitTrigger(clientContext);
            // created to check their options, then closed: a policy may hold what it opened
            PartitionCommitPolicies checked = new PartitionCommitPolicies(clientContext);
            try {
                checked.close();
            } catch (Exception e) {
                throw new IllegalStateException(
                        "Cannot close the commit policies created to check them: " + e.getMessage(), e);
            }
        }
        WriterDistribution.mode(descriptor, clientContext);
    }

    /**
     * The target's checks, after {@link #validateAllButTheTarget}: it may create what it writes to
     * (an Iceberg table), so SQL asks it only once the planner has said whether the statement is an
     * {@code INSERT OVERWRITE}, which a STREAMING job refuses.
     */
    public static void validateTarget(SinkDescriptor descriptor) {
        TargetFactory target = descriptor.targetFactory();
        SinkContext clientContext = clientContext(descriptor);
        // the target last: it may create what it writes to (an Iceberg table), which a statement
        // that the framework's own checks reject must not leave behind
        target.validate(clientContext);
        // reports changes the table cannot take
        target.changes().ifPresent(c -> c.acceptsChanges(clientContext));
    }

    /**
     * Checks that the sink may overwrite: its target offers overwriting, and agrees for this sink.
     *
     * @throws IllegalArgumentException naming the target, or what the target names
     */
    public static void checkOverwrite(SinkDescriptor descriptor) {
        OverwriteSupport overwrite = descriptor
                .targetFactory()
                .overwrite()
                .orElseThrow(() -> new IllegalArgumentException(
                        "Target '" + descriptor.target() + "' does not support overwrite"));
        overwrite.checkOverwrite(clientContext(descriptor));
    }

    /** The sink context of the client, for the decisions the planner asks of a target. */
    public static SinkContext clientContext(SinkDescriptor descriptor) {
        return new TaskSinkContext(
                descriptor,
                "client",
                0,
                1,
                UnregisteredMetricsGroup.createSinkWriterMetricGroup(),
                descriptor.registry());
    }
}
