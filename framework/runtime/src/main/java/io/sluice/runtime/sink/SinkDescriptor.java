package io.sluice.runtime.sink;

import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.FlinkFileSystems;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.spi.sink.TargetFactory;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.types.logical.RowType;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a task needs to build its part of a sink, and nothing of any plugin: the target's
 * identifier and plugin id, the options as strings, the row type and partition keys, and where
 * plugins are. This is what travels in the job graph (ARCHITECTURE.md, rule 2).
 */
public final class SinkDescriptor implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String target;
    private final String pluginId;
    private final LinkedHashMap<String, String> options;
    private final RowType rowType;
    private final ArrayList<String> partitionKeys;
    private final PluginSettings pluginSettings;
    private final ArrayList<String> primaryKey;
    private final boolean overwrite;
    private final LinkedHashMap<String, String> jobConfiguration;
    /** Whether the planner sorted the rows by partition for the target (BATCH SQL only). */
    private final boolean partitionGrouped;

    SinkDescriptor(
            String target,
            String pluginId,
            Map<String, String> options,
            RowType rowType,
            List<String> partitionKeys,
            PluginSettings pluginSettings,
            List<String> primaryKey,
            boolean overwrite,
            Map<String, String> jobConfiguration) {
        this(
                target,
                pluginId,
                options,
                rowType,
                partitionKeys,
                pluginSettings,
                primaryKey,
                overwrite,
                jobConfiguration,
                false);
    }

    private SinkDescriptor(
            String target,
            String pluginId,
            Map<String, String> options,
            RowType rowType,
            List<String> partitionKeys,
            PluginSettings pluginSettings,
            List<String> primaryKey,
            boolean overwrite,
            Map<String, String> jobConfiguration,
            boolean partitionGrouped) {
        this.target = Objects.requireNonNull(target);
        this.pluginId = Objects.requireNonNull(pluginId);
        this.options = new LinkedHashMap<>(options);
        this.rowType = Objects.requireNonNull(rowType);
        this.partitionKeys = new ArrayList<>(partitionKeys);
        this.pluginSettings = Objects.requireNonNull(pluginSettings);
        this.primaryKey = new ArrayList<>(primaryKey);
        this.overwrite = overwrite;
        this.jobConfiguration = new LinkedHashMap<>(jobConfiguration);
        this.partitionGrouped = partitionGrouped;
    }

    /**
     * Resolves the target of {@code options} in the registry of the client and checks it exists.
     *
     * @throws IllegalArgumentException if {@code target} is missing or unknown
     */
    public static SinkDescriptor resolve(Map<String, String> options, RowType rowType, List<String> partitionKeys) {
        return resolve(options, rowType, partitionKeys, Collections.emptyList());
    }

    /** As {@link #resolve(Map, RowType, List)}, for a table with a primary key. */
    public static SinkDescriptor resolve(
            Map<String, String> options, RowType rowType, List<String> partitionKeys, List<String> primaryKey) {
        for (String column : primaryKey) {
            if (!rowType.getFieldNames().contains(column)) {
                throw new IllegalArgumentException("Primary key column '" + column + "' is not a column of " + rowType);
            }
        }
        String target = options.get(SluiceOptions.TARGET.key());
        if (target == null || target.trim().isEmpty()) {
            throw new IllegalArgumentException("Missing required option '" + SluiceOptions.TARGET.key() + "'");
        }
        PluginSettings settings = PluginSettings.fromOptions(options);
        PluginRegistry registry = PluginRegistry.get(settings);
        FlinkFileSystems.openTablePaths(options);
        String pluginId = registry.pluginOf(TargetFactory.class, target);
        return new SinkDescriptor(
                target, pluginId, options, rowType, partitionKeys, settings, primaryKey, false, Collections.emptyMap());
    }

    /** This sink, replacing what its data overwrites ({@code INSERT OVERWRITE}) or not. */
    public SinkDescriptor withOverwrite(boolean overwrite) {
        return new SinkDescriptor(
                target,
                pluginId,
                options,
                rowType,
                partitionKeys,
                pluginSettings,
                primaryKey,
                overwrite,
                jobConfiguration,
                partitionGrouped);
    }

    /**
     * This sink, with the configuration of the job or session that plans it (the SQL session's
     * {@code SET}s, the DataStream job's configuration): a target may read its options there, after
     * the table's own.
     */
    public SinkDescriptor withJobConfiguration(Map<String, String> configuration) {
        return new SinkDescriptor(
                target,
                pluginId,
                options,
                rowType,
                partitionKeys,
                pluginSettings,
                primaryKey,
                overwrite,
                configuration,
                partitionGrouped);
    }

    /**
     * This sink, with its rows grouped by partition or not: the planner sorts them when the target
     * asks for it ({@link io.sluice.spi.partition.PartitionSupport#requiresGrouping}).
     */
    public SinkDescriptor withPartitionGrouping(boolean grouped) {
        return new SinkDescriptor(
                target,
                pluginId,
                options,
                rowType,
                partitionKeys,
                pluginSettings,
                primaryKey,
                overwrite,
                jobConfiguration,
                grouped);
    }

    /** Whether the rows reach the writers grouped by partition. */
    public boolean partitionGrouped() {
        return partitionGrouped;
    }

    /**
     * The sink of one table of a dynamic sink: this sink's options with the table's ({@code
     * DynamicTables#sinkOptions}) in place of those of the same names, the table's row type,
     * partition keys and primary key; the target, plugins, overwrite and job configuration stay.
     */
    public SinkDescriptor forTable(
            Map<String, String> tableOptions, RowType tableRowType, List<String> tablePartitionKeys, List<String> key) {
        Map<String, String> merged = new LinkedHashMap<>(options);
        merged.putAll(tableOptions);
        return new SinkDescriptor(
                target,
                pluginId,
                merged,
                tableRowType,
                tablePartitionKeys,
                pluginSettings,
                key,
                overwrite,
                jobConfiguration,
                partitionGrouped);
    }

    /** This sink with one more option (or another value of it). */
    public SinkDescriptor withOption(String key, String value) {
        Map<String, String> more = new LinkedHashMap<>(options);
        more.put(key, value);
        return withOptions(more);
    }

    private SinkDescriptor withOptions(Map<String, String> replaced) {
        return new SinkDescriptor(
                target,
                pluginId,
                replaced,
                rowType,
                partitionKeys,
                pluginSettings,
                primaryKey,
                overwrite,
                jobConfiguration,
                partitionGrouped);
    }

    /**
     * This sink with the options its target takes by default in the job's mode ({@link
     * TargetFactory#modeDefaults()}) where its own name none, checked again if any were added; this
     * sink itself if none were.
     *
     * @param bounded whether the job runs in BATCH
     * @throws IllegalArgumentException naming an option the sink must set in this mode, or one
     *     whose default does not hold for this sink
     */
    public SinkDescriptor withModeDefaults(boolean bounded) {
        Map<String, String> defaults = targetFactory()
                .modeDefaults()
                .map(d -> d.defaults(SinkValidation.clientContext(this), bounded))
                .orElse(Map.of());
        Map<String, String> more = new LinkedHashMap<>(options);
        defaults.forEach(more::putIfAbsent);
        if (more.equals(options)) {
            return this;
        }
        SinkDescriptor completed = withOptions(more);
        SinkValidation.validate(completed);
        return completed;
    }

    /** The job's or session's configuration, as planned. */
    public Map<String, String> jobConfiguration() {
        return Collections.unmodifiableMap(jobConfiguration);
    }

    /** The primary key columns (the upsert key), empty if none. */
    public List<String> primaryKey() {
        return Collections.unmodifiableList(primaryKey);
    }

    /** Whether the data replaces what it overwrites ({@code INSERT OVERWRITE}). */
    public boolean overwrite() {
        return overwrite;
    }

    /** The target identifier, e.g. {@code filesystem}. */
    public String target() {
        return target;
    }

    /** The id of the plugin that offers the target. */
    public String pluginId() {
        return pluginId;
    }

    public Map<String, String> options() {
        return Collections.unmodifiableMap(options);
    }

    public Configuration configuration() {
        return Configuration.fromMap(options);
    }

    public RowType rowType() {
        return rowType;
    }

    public List<String> partitionKeys() {
        return Collections.unmodifiableList(partitionKeys);
    }

    public PluginSettings pluginSettings() {
        return pluginSettings;
    }

    /** The registry of the JVM this runs in (a task's own plugin settings win). */
    public PluginRegistry registry() {
        PluginRegistry registry = PluginRegistry.get(pluginSettings.onTask());
        FlinkFileSystems.openTablePaths(options);
        return registry;
    }

    /** The target factory, from the registry of this JVM, checked to come from the same plugin. */
    public TargetFactory targetFactory() {
        PluginRegistry registry = registry();
        String found = registry.pluginOf(TargetFactory.class, target);
        if (!found.equals(pluginId)) {
            throw new IllegalStateException("Target '" + target + "' was planned with plugin '" + pluginId
                    + "' but this JVM's plugins directory "
                    + registry.settings().pluginsDir() + " has it in plugin '" + found + "'");
        }
        return registry.find(TargetFactory.class, target);
    }

    @Override
    public String toString() {
        return "SinkDescriptor{target=" + target + ", plugin=" + pluginId + ", options=" + options
                + (primaryKey.isEmpty() ? "" : ", primaryKey=" + primaryKey) + (overwrite ? ", overwrite" : "") + "}";
    }
}
