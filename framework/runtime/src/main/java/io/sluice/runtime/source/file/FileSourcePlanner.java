package io.sluice.runtime.source.file;

import io.sluice.runtime.config.FileSourceOptions;
import io.sluice.runtime.config.KnownOptions;
import io.sluice.runtime.plugin.FlinkFileSystems;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.runtime.source.lookup.LookupPlanner;
import io.sluice.spi.FileOptions;
import io.sluice.spi.format.FormatFactory;
import io.sluice.spi.format.Formats;
import io.sluice.spi.partition.PartitionPaths;
import io.sluice.spi.source.FileEnumeratorFactory;

import org.apache.flink.table.types.logical.RowType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Client-side planning of a file source, the same for {@link SluiceFileSourceBuilder#build()} and
 * SQL ({@code SluiceDynamicTableFactory}): checks the options and makes the {@link FileSourceDescriptor}.
 */
public final class FileSourcePlanner {

    private FileSourcePlanner() {}

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
        FlinkFileSystems.openTablePaths(own);
        FormatFactory formatFactory =
                Formats.reader(registry, format).orElseThrow(() -> Formats.lacking(registry, format, "be read"));
        List<String> paths = new ArrayList<>();
        for (String p : path.split(",")) {
            if (!p.trim().isEmpty()) {
                paths.add(p.trim());
            }
        }
        String enumerator = own.get(FileSourceOptions.ENUMERATOR.key());
        FileSourceDescriptor draft = new FileSourceDescriptor(
                own, rowType, partitionKeys, paths, enumerator == null ? "recursive" : enumerator, settings);
        if (enumerator == null) {
            // as Flink's FileSource: block splitting where the format can start mid-file
            boolean splittable = SluiceFileSource.readingFormat(draft, registry).isSplittable();
            enumerator = splittable ? "block-splitting" : "recursive";
        }
        FileSourceDescriptor descriptor =
                new FileSourceDescriptor(own, rowType, partitionKeys, paths, enumerator, settings);
        validate(descriptor, registry, formatFactory);
        return descriptor;
    }

    private static void validate(FileSourceDescriptor descriptor, PluginRegistry registry, FormatFactory format) {
        KnownOptions.of(descriptor.options(), registry).check(descriptor.options(), "the file source");
        checkMonitorInterval(descriptor);
        LookupPlanner.reloadInterval(Optional.empty(), descriptor.options()); // a bad cache TTL fails with the table
        registry.find(FileEnumeratorFactory.class, descriptor.enumerator()).create(descriptor.context(registry));
        SluiceFileSource.readingFormat(descriptor, registry);
    }

    /**
     * A continuous read's interval is positive and at most {@link
     * FileSourceOptions#MAX_MONITOR_INTERVAL}: 9,999,999,999 days was accepted, a read
     * that never looks again.
     */
    private static void checkMonitorInterval(FileSourceDescriptor descriptor) {
        descriptor
                .configuration()
                .getOptional(FileSourceOptions.MONITOR_INTERVAL)
                .ifPresent(interval -> {
                    if (interval.isZero()
                            || interval.isNegative()
                            || interval.compareTo(FileSourceOptions.MAX_MONITOR_INTERVAL) > 0) {
                        throw new IllegalArgumentException(
                                "Invalid '" + FileSourceOptions.MONITOR_INTERVAL.key() + "' '"
                                        + descriptor.options().get(FileSourceOptions.MONITOR_INTERVAL.key())
                                        + "': must be positive and at most 1 d (to read new files less often, run a bounded"
                                        + " read when they are due)");
                    }
                });
    }
}
