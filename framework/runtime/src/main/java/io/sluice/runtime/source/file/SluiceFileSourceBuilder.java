package io.sluice.runtime.source.file;

import io.sluice.runtime.config.Durations;
import io.sluice.runtime.config.FileSourceOptions;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.spi.FileOptions;

import org.apache.flink.table.types.logical.RowType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@link SluiceFileSource}, in the spirit of Flink's {@code FileSource} builders; every
 * choice is an option of the same name the SQL connector takes, checked by {@link #build()}.
 *
 * <pre>{@code
 * SluiceFileSource source = SluiceFileSource.forRowData(rowType)
 *     .withPath("/data/in")
 *     .withFormat("csv")
 *     .monitorContinuously(Duration.ofSeconds(10))
 *     .build();
 * env.fromSource(source, WatermarkStrategy.noWatermarks(), "files");
 * }</pre>
 */
public final class SluiceFileSourceBuilder {

    private final RowType rowType;
    private final Map<String, String> options = new LinkedHashMap<>();
    private final List<String> partitionKeys = new ArrayList<>();

    SluiceFileSourceBuilder(RowType rowType) {
        this.rowType = rowType;
    }

    /** The path(s) to read; directories are read recursively. */
    public SluiceFileSourceBuilder withPath(String... paths) {
        return withOption(FileOptions.PATH.key(), String.join(",", paths));
    }

    public SluiceFileSourceBuilder withFormat(String format) {
        return withOption(FileOptions.FORMAT.key(), format);
    }

    /** Reads continuously, listing the paths at this interval. */
    public SluiceFileSourceBuilder monitorContinuously(Duration interval) {
        String key = FileSourceOptions.MONITOR_INTERVAL.key();
        return withOption(key, Durations.asOptionValue(key, interval));
    }

    /** The FileEnumerator extension by identifier, e.g. {@code recursive} or a plugin's. */
    public SluiceFileSourceBuilder withEnumerator(String identifier) {
        return withOption(FileSourceOptions.ENUMERATOR.key(), identifier);
    }

    /** Partition keys, taken from {@code k=v} directories. */
    public SluiceFileSourceBuilder withPartitionKeys(String... keys) {
        partitionKeys.addAll(Arrays.asList(keys));
        return this;
    }

    public SluiceFileSourceBuilder withPluginsDir(Path dir) {
        return withOption(PluginSettings.PLUGINS_DIR, dir.toAbsolutePath().toString());
    }

    public SluiceFileSourceBuilder withOption(String key, String value) {
        options.put(key, value);
        return this;
    }

    public SluiceFileSourceBuilder withOptions(Map<String, String> more) {
        options.putAll(more);
        return this;
    }

    /** @throws IllegalArgumentException for an unknown format, enumerator or option, or an invalid value */
    public SluiceFileSource build() {
        return new SluiceFileSource(FileSourcePlanner.plan(options, rowType, partitionKeys));
    }
}
