package io.sluice.runtime.source.file;

import io.sluice.runtime.config.FileSourceOptions;
import io.sluice.runtime.plugin.FlinkFileSystems;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.runtime.source.TaskSourceContext;
import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.FileOptions;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.RowType;

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
 * Everything a source needs on the JobManager and the TaskManagers, and nothing of any plugin: the
 * options as strings, the produced row type, partition keys, the paths to list (the table's path,
 * or the partitions left after pruning), the chosen enumerator and where plugins are.
 */
public final class FileSourceDescriptor implements Serializable {

    private static final long serialVersionUID = 1L;

    private final LinkedHashMap<String, String> options;
    private final RowType rowType;
    private final ArrayList<String> partitionKeys;
    private final ArrayList<String> paths;
    private final String enumerator;
    private final PluginSettings pluginSettings;

    FileSourceDescriptor(
            Map<String, String> options,
            RowType rowType,
            List<String> partitionKeys,
            List<String> paths,
            String enumerator,
            PluginSettings pluginSettings) {
        this.options = new LinkedHashMap<>(options);
        this.rowType = Objects.requireNonNull(rowType);
        this.partitionKeys = new ArrayList<>(partitionKeys);
        this.paths = new ArrayList<>(paths);
        this.enumerator = Objects.requireNonNull(enumerator);
        this.pluginSettings = Objects.requireNonNull(pluginSettings);
    }

    public Map<String, String> options() {
        return Collections.unmodifiableMap(options);
    }

    public Configuration configuration() {
        return Configuration.fromMap(options);
    }

    /** The produced rows: file columns and partition columns, in table order. */
    public RowType rowType() {
        return rowType;
    }

    public List<String> partitionKeys() {
        return Collections.unmodifiableList(partitionKeys);
    }

    /** The paths the enumerator lists. */
    public List<String> paths() {
        return Collections.unmodifiableList(paths);
    }

    Path[] flinkPaths() {
        return paths.stream().map(Path::new).toArray(Path[]::new);
    }

    /** The identifier of the FileEnumerator extension. */
    public String enumerator() {
        return enumerator;
    }

    public String format() {
        return options.get(FileOptions.FORMAT.key());
    }

    /** Whether the read is continuous ({@code source.monitor-interval} is set). */
    public boolean isContinuous() {
        return configuration().getOptional(FileSourceOptions.MONITOR_INTERVAL).isPresent();
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

    /** The context of this read's plugin parts: its enumerator and its format. */
    public TaskSourceContext context(ExtensionLookup extensions) {
        return new TaskSourceContext(
                rowType(),
                partitionKeys(),
                options(),
                Collections.emptyMap(),
                extensions,
                Optional.empty(),
                OptionalLong.empty(),
                isContinuous() ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED,
                false,
                OptionalInt.empty());
    }

    /**
     * The context of a temporal join's read of this file table: {@link SourceContext#lookup()}
     * true, bounded whatever {@code source.monitor-interval} says (each load lists the files once).
     */
    public TaskSourceContext lookupContext(ExtensionLookup extensions) {
        return new TaskSourceContext(
                rowType(),
                partitionKeys(),
                options(),
                Collections.emptyMap(),
                extensions,
                Optional.empty(),
                OptionalLong.empty(),
                Boundedness.BOUNDED,
                true,
                OptionalInt.of(1)); // each join subtask reads every split
    }

    /** A copy that lists other paths (partition pruning). */
    FileSourceDescriptor withPaths(List<String> newPaths) {
        return new FileSourceDescriptor(options, rowType, partitionKeys, newPaths, enumerator, pluginSettings);
    }

    @Override
    public String toString() {
        return "FileSourceDescriptor{format=" + format() + ", paths=" + paths + ", enumerator=" + enumerator + "}";
    }
}
