package io.sluice.runtime.sink;

import io.sluice.runtime.config.KnownOptions;
import io.sluice.runtime.plugin.PluginRegistry;
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
        PluginRegistry registry = descriptor.registry();
        TargetFactory target = descriptor.targetFactory();
        Configuration config = descriptor.configuration();
        KnownOptions.of(descriptor.options(), registry).check(descriptor.options(), "target '" + descriptor.target() + "'");
        for (ConfigOption<?> o : target.requiredOptions()) {
            if (!config.contains(o)) {
                throw new IllegalArgumentException("Missing required option '" + o.key() + "' for target '"
                        + descriptor.target() + "'");
            }
        }
        SinkContext clientContext = clientContext(descriptor);
        target.validate(clientContext);
        CompactionPlanner.of(config, descriptor.options());
        target.acceptsChanges(clientContext); // reports changes the table cannot take
        if (clientContext.compactionEnabled()) {
            CompactorChoice.factory(config, descriptor.options(), registry)
                    .validate(CompactorChoice.context(config, descriptor.options(), registry));
        }
        if (PartitionCommitPolicies.isConfigured(config)) {
            new PartitionCommitTrigger(clientContext);
            new PartitionCommitPolicies(clientContext);
        }
    }

    /** The sink context of the client, for the decisions the planner asks of a target. */
    public static SinkContext clientContext(SinkDescriptor descriptor) {
        return new TaskSinkContext(descriptor, "client", 0, 1, UnregisteredMetricsGroup.createSinkWriterMetricGroup(),
                descriptor.registry());
    }
}
