package io.sluice.spi;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

import java.time.Duration;

/**
 * The options every file-writing or file-reading target shares, with the names and defaults of
 * Flink's filesystem connector: defined once here so that the framework (which picks formats,
 * bucket assigners, rolling policies and compaction sizes by them) and each target (filesystem,
 * Hive) agree on keys, types and defaults.
 *
 * @since 2.0.0
 */
public final class FileOptions {

    public static final ConfigOption<String> PATH = ConfigOptions.key("path")
            .stringType()
            .noDefaultValue()
            .withDescription("Base path of the table: a sink writes below it; a source reads it (several paths"
                    + " comma-separated).");

    public static final ConfigOption<String> FORMAT = ConfigOptions.key("format")
            .stringType()
            .noDefaultValue()
            .withDescription("Format identifier: csv, json, parquet ...");

    public static final ConfigOption<String> BUCKET_ASSIGNER = ConfigOptions.key("sink.bucket-assigner")
            .stringType()
            .noDefaultValue()
            .withDescription("Bucket assigner: date-time, base-path, partition, or a plugin's; "
                    + "'partition' when the table has partition keys, else 'base-path'.");

    public static final ConfigOption<String> ROLLING_POLICY = ConfigOptions.key("sink.rolling-policy.kind")
            .stringType()
            .defaultValue("default")
            .withDescription("Rolling policy: default, on-checkpoint, or a plugin's.");

    public static final ConfigOption<MemorySize> ROLLING_FILE_SIZE = ConfigOptions.key("sink.rolling-policy.file-size")
            .memoryType()
            .defaultValue(MemorySize.parse("128mb"))
            .withDescription("Maximum part file size before rolling.");

    public static final ConfigOption<Duration> ROLLING_ROLLOVER_INTERVAL = ConfigOptions.key(
                    "sink.rolling-policy.rollover-interval")
            .durationType()
            .defaultValue(Duration.ofMinutes(30))
            .withDescription("Maximum time a part file stays open.");

    public static final ConfigOption<Duration> ROLLING_INACTIVITY_INTERVAL = ConfigOptions.key(
                    "sink.rolling-policy.inactivity-interval")
            .durationType()
            .defaultValue(Duration.ofMinutes(30))
            .withDescription("A part file with no writes for this long rolls.");

    public static final ConfigOption<Duration> ROLLING_CHECK_INTERVAL = ConfigOptions.key(
                    "sink.rolling-policy.check-interval")
            .durationType()
            .defaultValue(Duration.ofMinutes(1))
            .withDescription("How often time-based rolling is checked.");

    /**
     * The heap a writer subtask's open part files may hold together, as their bulk writers
     * estimate it ({@link io.sluice.spi.format.BufferingBulkWriter}); over it, the largest files
     * roll until a quarter is free. Without a value, an eighth of the JVM's maximum heap; the
     * part-file engine refuses less than 4 MiB.
     *
     * @since 2.5.0
     */
    @Experimental
    public static final ConfigOption<MemorySize> WRITER_MEMORY_BUDGET = ConfigOptions.key("sink.writer.memory-budget")
            .memoryType()
            .noDefaultValue()
            .withDescription("The heap the open part files of one writer subtask may hold together (as their bulk"
                    + " writers estimate it, e.g. Parquet's); over it the largest roll first. An eighth of the"
                    + " JVM's maximum heap by default; at least 4 mb.");

    private FileOptions() {}
}
