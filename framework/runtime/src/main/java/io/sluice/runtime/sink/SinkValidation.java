package io.sluice.runtime.sink;

import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.format.FormatFactory;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.spi.sink.TargetFactory;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DelegatingConfiguration;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Checks a sink's options on the client, before the job starts: every option must be known to the
 * framework, the target, the chosen format or the chosen extensions; every known option must parse;
 * then the target checks the rest.
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
        Map<String, String> options = descriptor.options();
        Configuration config = descriptor.configuration();

        List<ConfigOption<?>> known = new ArrayList<>(SluiceOptions.all());
        known.addAll(target.requiredOptions());
        known.addAll(target.optionalOptions());
        // a format's options are declared without the format's prefix and read through it
        List<ConfigOption<?>> formatOptions = new ArrayList<>();
        String format = options.get("format");
        DelegatingConfiguration formatConfig = null;
        if (format != null) {
            formatOptions.addAll(concat(registry.find(FormatFactory.class, format)));
            formatConfig = new DelegatingConfiguration(config, format + ".");
        }
        addChosen(registry, BucketAssignerFactory.class, options.get(BucketAssigners.KIND), known);
        addChosen(registry, RollingPolicyFactory.class, options.get(RollingPolicies.KIND), known);
        String kinds = options.get(SluiceOptions.PARTITION_COMMIT_POLICY_KIND.key());
        if (kinds != null) {
            for (String kind : kinds.split(",")) {
                if (!kind.trim().isEmpty() && !kind.trim().equals("custom")
                        && registry.identifiers(CommitPolicyFactory.class).contains(kind.trim())) {
                    known.addAll(concat(registry.find(CommitPolicyFactory.class, kind.trim())));
                }
            }
        }

        TreeSet<String> knownKeys = new TreeSet<>();
        for (ConfigOption<?> o : known) {
            knownKeys.add(o.key());
        }
        for (ConfigOption<?> o : formatOptions) {
            knownKeys.add(format + "." + o.key());
        }
        TreeSet<String> unknown = new TreeSet<>();
        for (String key : options.keySet()) {
            if (!knownKeys.contains(key)) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("Unsupported options for target '" + descriptor.target() + "': "
                    + unknown + "\n\nSupported options:\n" + String.join("\n", knownKeys));
        }
        for (ConfigOption<?> o : target.requiredOptions()) {
            if (!config.contains(o)) {
                throw new IllegalArgumentException("Missing required option '" + o.key() + "' for target '"
                        + descriptor.target() + "'");
            }
        }
        for (ConfigOption<?> o : known) {
            config.getOptional(o); // throws IllegalArgumentException naming the key for a bad value
        }
        for (ConfigOption<?> o : formatOptions) {
            formatConfig.getOptional(o);
        }
        TaskSinkContext clientContext = new TaskSinkContext(descriptor, "client", 0, 1,
                UnregisteredMetricsGroup.createSinkWriterMetricGroup(), registry);
        target.validate(clientContext);
        if (PartitionCommitPolicies.isConfigured(config)) {
            new PartitionCommitTrigger(clientContext);
            new PartitionCommitPolicies(clientContext);
        }
    }

    private static <T extends SluiceFactory> void addChosen(
            PluginRegistry registry, Class<T> type, String identifier, List<ConfigOption<?>> known) {
        if (identifier != null) {
            known.addAll(concat(registry.find(type, identifier)));
        }
    }

    private static List<ConfigOption<?>> concat(SluiceFactory f) {
        List<ConfigOption<?>> all = new ArrayList<>(f.requiredOptions());
        all.addAll(f.optionalOptions());
        return all;
    }
}
