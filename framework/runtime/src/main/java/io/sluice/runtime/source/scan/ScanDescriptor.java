package io.sluice.runtime.source.scan;

import io.sluice.runtime.plugin.FlinkFileSystems;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.runtime.source.TaskSourceContext;
import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.Payload;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Everything a scan source needs on the JobManager and the TaskManagers, and nothing of any
 * plugin: the options and the job's configuration as strings, the produced row type, the target
 * whose scan source plans and reads, whether the read is continuous (the target decided that on
 * the client) and where plugins are.
 */
public final class ScanDescriptor implements Serializable {

    private static final long serialVersionUID = 1L;

    private final LinkedHashMap<String, String> options;
    private final LinkedHashMap<String, String> jobConfiguration;
    private final RowType rowType;
    private final ArrayList<String> partitionKeys;
    private final String target;
    private final String pluginId;
    private final long monitorIntervalMillis; // <= 0: bounded
    private final PluginSettings pluginSettings;
    // the target's pushed filters (a Payload is not Serializable): version and bytes, or null
    private final int pushedFiltersVersion;

    @Nullable
    private final byte[] pushedFilters;

    private final long pushedLimit; // < 0: none

    // the partitions the planner kept (partition push-down), or null: all
    @Nullable
    private final ArrayList<LinkedHashMap<String, String>> partitions;

    ScanDescriptor(
            Map<String, String> options,
            Map<String, String> jobConfiguration,
            RowType rowType,
            List<String> partitionKeys,
            String target,
            String pluginId,
            long monitorIntervalMillis,
            PluginSettings pluginSettings) {
        this(
                options,
                jobConfiguration,
                rowType,
                partitionKeys,
                target,
                pluginId,
                monitorIntervalMillis,
                pluginSettings,
                null,
                -1,
                null);
    }

    private ScanDescriptor(
            Map<String, String> options,
            Map<String, String> jobConfiguration,
            RowType rowType,
            List<String> partitionKeys,
            String target,
            String pluginId,
            long monitorIntervalMillis,
            PluginSettings pluginSettings,
            @Nullable Payload pushedFilters,
            long pushedLimit,
            @Nullable List<? extends Map<String, String>> partitions) {
        this.pushedLimit = pushedLimit;
        if (partitions == null) {
            this.partitions = null;
        } else {
            this.partitions = new ArrayList<>(partitions.size());
            for (Map<String, String> partition : partitions) {
                this.partitions.add(new LinkedHashMap<>(partition));
            }
        }
        this.pushedFiltersVersion = pushedFilters == null ? 0 : pushedFilters.version();
        this.pushedFilters =
                pushedFilters == null ? null : pushedFilters.bytes().clone();
        this.options = new LinkedHashMap<>(options);
        this.jobConfiguration = new LinkedHashMap<>(jobConfiguration);
        this.rowType = Objects.requireNonNull(rowType);
        this.partitionKeys = new ArrayList<>(partitionKeys);
        this.target = Objects.requireNonNull(target);
        this.pluginId = Objects.requireNonNull(pluginId);
        this.monitorIntervalMillis = monitorIntervalMillis;
        this.pluginSettings = Objects.requireNonNull(pluginSettings);
    }

    public Map<String, String> options() {
        return Collections.unmodifiableMap(options);
    }

    /** The job's or SQL session's configuration, as the planner saw it. */
    public Map<String, String> jobConfiguration() {
        return Collections.unmodifiableMap(jobConfiguration);
    }

    public RowType rowType() {
        return rowType;
    }

    public List<String> partitionKeys() {
        return Collections.unmodifiableList(partitionKeys);
    }

    /** The identifier of the target (and of its scan source). */
    public String target() {
        return target;
    }

    /** The plugin that offers the scan source; its payloads are enveloped with this id. */
    public String pluginId() {
        return pluginId;
    }

    public boolean isContinuous() {
        return monitorIntervalMillis > 0;
    }

    /** How often a continuous read plans; not positive for a bounded read. */
    public long monitorIntervalMillis() {
        return monitorIntervalMillis;
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

    /** The context of this read's plugin parts: planner, split reader, filter push-down. */
    public TaskSourceContext context(ExtensionLookup extensions) {
        return new TaskSourceContext(
                rowType(),
                partitionKeys(),
                options(),
                jobConfiguration(),
                extensions,
                pushedFilters(),
                pushedLimit(),
                isContinuous() ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED,
                false,
                OptionalInt.empty(),
                partitions());
    }

    /**
     * The context of a temporal join's read of this scan target's table: {@link
     * SourceContext#lookup()} true and bounded; the pushed projection (row type) and filters are the
     * query's, as for a scan, and no limit (a lookup reads the whole table).
     */
    public TaskSourceContext lookupContext(ExtensionLookup extensions) {
        return new TaskSourceContext(
                rowType(),
                partitionKeys(),
                options(),
                jobConfiguration(),
                extensions,
                pushedFilters(),
                OptionalLong.empty(),
                Boundedness.BOUNDED,
                true,
                OptionalInt.of(1), // each join subtask reads every split
                partitions());
    }

    /** The filters the target took from the query, in its own form. */
    public Optional<Payload> pushedFilters() {
        return pushedFilters == null
                ? Optional.empty()
                : Optional.of(new Payload(pushedFiltersVersion, pushedFilters.clone()));
    }

    /** A copy that reads other columns (a subset of the validated ones: projection push-down). */
    public ScanDescriptor withRowType(RowType columns) {
        return new ScanDescriptor(
                options,
                jobConfiguration,
                columns,
                partitionKeys,
                target,
                pluginId,
                monitorIntervalMillis,
                pluginSettings,
                pushedFilters().orElse(null),
                pushedLimit,
                partitions);
    }

    /** A copy with the filters the target took from the query (filter push-down). */
    public ScanDescriptor withPushedFilters(@Nullable Payload filters) {
        return new ScanDescriptor(
                options,
                jobConfiguration,
                rowType,
                partitionKeys,
                target,
                pluginId,
                monitorIntervalMillis,
                pluginSettings,
                filters,
                pushedLimit,
                partitions);
    }

    /** The query's row limit, if it has one. */
    public OptionalLong pushedLimit() {
        return pushedLimit < 0 ? OptionalLong.empty() : OptionalLong.of(pushedLimit);
    }

    /** A copy with the query's row limit (limit push-down). */
    public ScanDescriptor withPushedLimit(long limit) {
        return new ScanDescriptor(
                options,
                jobConfiguration,
                rowType,
                partitionKeys,
                target,
                pluginId,
                monitorIntervalMillis,
                pluginSettings,
                pushedFilters().orElse(null),
                limit,
                partitions);
    }

    /** The partitions the planner kept (partition push-down); empty when it pruned none. */
    public Optional<List<Map<String, String>>> partitions() {
        if (partitions == null) {
            return Optional.empty();
        }
        List<Map<String, String>> copy = new ArrayList<>(partitions.size());
        for (LinkedHashMap<String, String> partition : partitions) {
            copy.add(Collections.unmodifiableMap(new LinkedHashMap<>(partition)));
        }
        return Optional.of(Collections.unmodifiableList(copy));
    }

    /** A copy that reads only these partitions, as the planner kept them (partition push-down). */
    public ScanDescriptor withPartitions(List<? extends Map<String, String>> kept) {
        return new ScanDescriptor(
                options,
                jobConfiguration,
                rowType,
                partitionKeys,
                target,
                pluginId,
                monitorIntervalMillis,
                pluginSettings,
                pushedFilters().orElse(null),
                pushedLimit,
                Objects.requireNonNull(kept));
    }

    @Override
    public String toString() {
        return "ScanDescriptor{target=" + target + ", continuous=" + isContinuous() + "}";
    }
}
