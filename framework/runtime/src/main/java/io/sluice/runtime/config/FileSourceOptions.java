package io.sluice.runtime.config;

import io.sluice.spi.FileOptions;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/** Options of the file source, with the names of Flink's filesystem connector where it has them. */
public final class FileSourceOptions {

    public static final ConfigOption<Duration> MONITOR_INTERVAL = ConfigOptions.key("source.monitor-interval")
            .durationType()
            .noDefaultValue()
            .withDescription("Read continuously, listing the paths at this interval (positive, at most 1 d); a"
                    + " bounded read when absent.");

    /** The longest {@link #MONITOR_INTERVAL} a read accepts. */
    public static final Duration MAX_MONITOR_INTERVAL = Duration.ofDays(1);

    public static final ConfigOption<String> ENUMERATOR = ConfigOptions.key("source.enumerator")
            .stringType()
            .noDefaultValue()
            .withDescription("FileEnumerator extension: 'block-splitting' for splittable formats, else 'recursive', "
                    + "or a plugin's.");

    public static final ConfigOption<Duration> MONITOR_LOOKBACK = ConfigOptions.key("source.monitor-lookback")
            .durationType()
            .defaultValue(Duration.ofHours(1))
            .withDescription("A continuous read remembers the files modified within this time before the newest "
                    + "file seen; older files count as read. Must exceed how long a file can take to appear "
                    + "after its last modification (a sink's commit delay).");

    public static final ConfigOption<String> PARTITION_DEFAULT_NAME = ConfigOptions.key("partition.default-name")
            .stringType()
            .defaultValue("__DEFAULT_PARTITION__")
            .withDescription("Partition directory name that stands for a null value.");

    private FileSourceOptions() {}

    /** Every option of the source itself (formats and enumerators declare their own). */
    public static Set<ConfigOption<?>> all() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(
                FileOptions.PATH,
                FileOptions.FORMAT,
                MONITOR_INTERVAL,
                ENUMERATOR,
                MONITOR_LOOKBACK,
                PARTITION_DEFAULT_NAME)));
    }
}
