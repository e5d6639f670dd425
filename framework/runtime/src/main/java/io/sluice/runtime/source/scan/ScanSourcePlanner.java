package io.sluice.runtime.source.scan;

import io.sluice.runtime.config.KnownOptions;
import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.FlinkFileSystems;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.runtime.source.TaskSourceContext;
import io.sluice.runtime.source.lookup.LookupPlanner;
import io.sluice.spi.source.ScanSourceFactory;

import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.types.logical.RowType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Client-side planning of a scan source, the same for {@link TableSourceBuilder#build()} and SQL
 * ({@code SluiceDynamicTableFactory}, {@code SluiceScanTableSource}): whether a table is read by
 * scans, its {@link ScanDescriptor}, and filter push-down.
 */
public final class ScanSourcePlanner {

    private ScanSourcePlanner() {}

    /**
     * Offers a query's filters to the descriptor's target (filter push-down) and returns the
     * descriptor with what the target took; unchanged when it took nothing.
     */
    public static ScanDescriptor pushFilters(ScanDescriptor descriptor, List<ResolvedExpression> filters) {
        PluginRegistry registry = descriptor.registry();
        return descriptor.withPushedFilters(registry.find(ScanSourceFactory.class, descriptor.target())
                .pushFilters(descriptor.context(registry), filters)
                .orElse(null));
    }

    /**
     * Whether the planner may prune the partitions of this read (partition push-down): a bounded
     * read of a table with partition keys whose target lists partitions for it. A continuous read
     * never: its partitions come after planning, and the planner would drop the filters it pruned
     * with from the rows of those.
     */
    public static boolean prunesPartitions(ScanDescriptor descriptor) {
        if (descriptor.isContinuous() || descriptor.partitionKeys().isEmpty()) {
            return false;
        }
        PluginRegistry registry = descriptor.registry();
        return registry.find(ScanSourceFactory.class, descriptor.target())
                .prunesPartitions(descriptor.context(registry));
    }

    /**
     * Whether the planner asks the target's catalog for the partitions of this read of one of its
     * tables ({@link ScanSourceFactory#catalogListsPartitions}).
     */
    public static boolean catalogListsPartitions(ScanDescriptor descriptor) {
        PluginRegistry registry = descriptor.registry();
        return registry.find(ScanSourceFactory.class, descriptor.target())
                .catalogListsPartitions(descriptor.context(registry));
    }

    /**
     * The table's partitions as the target lists them, for the planner to prune; each in the order
     * of the partition keys.
     *
     * @throws java.io.UncheckedIOException if the target cannot list them
     */
    public static List<Map<String, String>> listPartitions(ScanDescriptor descriptor) {
        PluginRegistry registry = descriptor.registry();
        try {
            return registry.find(ScanSourceFactory.class, descriptor.target())
                    .listPartitions(descriptor.context(registry));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e.getMessage(), e);
        }
    }

    /**
     * The parallelism the descriptor's target infers for a bounded read, or empty: on the client
     * ({@code atRuntime} false, static inference) or for Flink's adaptive batch scheduler (dynamic).
     * A continuous read infers none.
     */
    public static java.util.OptionalInt inferParallelism(ScanDescriptor descriptor, int upperBound, boolean atRuntime) {
        if (descriptor.isContinuous()) {
            return java.util.OptionalInt.empty();
        }
        PluginRegistry registry = descriptor.registry();
        java.util.OptionalInt inferred = registry.find(ScanSourceFactory.class, descriptor.target())
                .inferParallelism(descriptor.context(registry), upperBound, atRuntime);
        if (inferred.isPresent() && inferred.getAsInt() < 1) {
            throw new IllegalStateException("Target '" + descriptor.target() + "' inferred a source parallelism of "
                    + inferred.getAsInt() + ": it must be 1 or more");
        }
        return inferred.isPresent() ? java.util.OptionalInt.of(Math.min(inferred.getAsInt(), upperBound)) : inferred;
    }

    /**
     * Checks a table for a temporal join's lookup and returns the target's reload interval, if it
     * gives one: the target validates the options again with a lookup context ({@link
     * ScanDescriptor#lookupContext}), as options may mean something else there (Hive's latest
     * partition), and answers {@link ScanSourceFactory#lookupReloadInterval}.
     *
     * @throws IllegalArgumentException if the target cannot serve the table to a temporal join
     */
    public static Optional<Duration> lookupReloadInterval(ScanDescriptor descriptor) {
        PluginRegistry registry = descriptor.registry();
        ScanSourceFactory factory = registry.find(ScanSourceFactory.class, descriptor.target());
        TaskSourceContext context = descriptor.lookupContext(registry);
        factory.validate(context);
        return factory.lookupReloadInterval(context);
    }

    /** Whether the options choose a target that is read by planning scans rather than listing files. */
    public static boolean readsByScan(Map<String, String> options) {
        String target = options.get(SluiceOptions.TARGET.key());
        if (target == null) {
            return false;
        }
        PluginRegistry registry = PluginRegistry.get(PluginSettings.fromOptions(options));
        return registry.identifiers(ScanSourceFactory.class).contains(target);
    }

    /**
     * Checks the options of a scan source and makes its descriptor: every option must be known to
     * the framework or the target, and the target must accept them (table, columns, read options).
     */
    public static ScanDescriptor plan(
            Map<String, String> options,
            RowType rowType,
            List<String> partitionKeys,
            Map<String, String> jobConfiguration) {
        String target = options.get(SluiceOptions.TARGET.key());
        if (target == null || target.trim().isEmpty()) {
            throw new IllegalArgumentException("Missing required option '" + SluiceOptions.TARGET.key() + "'");
        }
        PluginSettings settings = PluginSettings.fromOptions(options);
        PluginRegistry registry = PluginRegistry.get(settings);
        FlinkFileSystems.openTablePaths(options);
        ScanSourceFactory factory = registry.find(ScanSourceFactory.class, target);
        String pluginId = registry.pluginOf(ScanSourceFactory.class, target);
        KnownOptions.of(options, registry).check(options, "the '" + target + "' source");
        ScanDescriptor draft =
                new ScanDescriptor(options, jobConfiguration, rowType, partitionKeys, target, pluginId, 0, settings);
        TaskSourceContext context = draft.context(registry);
        factory.validate(context);
        LookupPlanner.reloadInterval(Optional.empty(), options); // a bad cache TTL fails with the table
        long interval = factory.monitorInterval(context)
                .map(d -> Math.max(1, d.toMillis()))
                .orElse(0L);
        return new ScanDescriptor(
                options, jobConfiguration, rowType, partitionKeys, target, pluginId, interval, settings);
    }
}
