package io.sluice.runtime.source.file;

import io.sluice.runtime.source.TaskSourceContext;
import io.sluice.spi.FileOptions;

import io.sluice.runtime.config.KnownOptions;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.spi.format.FormatFactory;
import io.sluice.spi.format.Formats;
import io.sluice.spi.partition.PartitionPaths;
import io.sluice.spi.source.FileEnumeratorFactory;

import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.TimeUtils;

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
        return withOption(FileSourceOptions.MONITOR_INTERVAL.key(), TimeUtils.formatWithHighestUnit(interval));
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
        return new SluiceFileSource(plan(options, rowType, partitionKeys));
    }

    /**
     * Checks the options of a source and makes its descriptor: every option must be known to the
     * source, the format or the enumerator, and parse; the format must be readable.
     */
    public static FileSourceDescriptor plan(Map<String, String> options, RowType rowType, List<String> partitionKeys) {
        Map<String, String> own = new LinkedHashMap<>(options);
        String path = own.get(FileOptions.PATH.key());
        String format = own.get(FileOptions.FORMAT.key());
        if (path == null || path.trim().isEmpty()) {
            throw new IllegalArgumentException("Missing required option '" + FileOptions.PATH.key() + "'");
        }
        if (format == null || format.trim().isEmpty()) {
            throw new IllegalArgumentException("Missing required option '" + FileOptions.FORMAT.key() + "'");
        }
        for (String key : partitionKeys) {
            // the listing skips hidden names, so such a table would read as empty, silently
            String directory = PartitionPaths.escape(key) + "=";
            if (directory.startsWith(".") || directory.startsWith("_")) {
                throw new IllegalArgumentException("Partition column '" + key + "' cannot be read: its directories '"
                        + directory + "...' are hidden (names starting with '_' or '.' are never listed)");
            }
        }
        PluginSettings settings = PluginSettings.fromOptions(own);
        PluginRegistry registry = PluginRegistry.get(settings);
        FormatFactory formatFactory = Formats.reader(registry, format)
                .orElseThrow(() -> Formats.lacking(registry, format, "be read"));
        List<String> paths = new ArrayList<>();
        for (String p : path.split(",")) {
            if (!p.trim().isEmpty()) {
                paths.add(p.trim());
            }
        }
        String enumerator = own.get(FileSourceOptions.ENUMERATOR.key());
        FileSourceDescriptor draft = new FileSourceDescriptor(own, rowType, partitionKeys, paths,
                enumerator == null ? "recursive" : enumerator, settings);
        if (enumerator == null) {
            // as Flink's FileSource: block splitting where the format can start mid-file
            boolean splittable = SluiceFileSource.readingFormat(draft, registry).isSplittable();
            enumerator = splittable ? "block-splitting" : "recursive";
        }
        FileSourceDescriptor descriptor = new FileSourceDescriptor(own, rowType, partitionKeys, paths, enumerator, settings);
        validate(descriptor, registry, formatFactory);
        return descriptor;
    }

    private static void validate(FileSourceDescriptor descriptor, PluginRegistry registry, FormatFactory format) {
        KnownOptions.of(descriptor.options(), registry).check(descriptor.options(), "the file source");
        registry.find(FileEnumeratorFactory.class, descriptor.enumerator())
                .create(new TaskSourceContext(descriptor, registry));
        SluiceFileSource.readingFormat(descriptor, registry);
    }
}
