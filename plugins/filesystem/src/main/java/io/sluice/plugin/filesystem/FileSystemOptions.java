package io.sluice.plugin.filesystem;

import io.sluice.spi.FileOptions;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Options of the filesystem target, with the names and defaults of Flink's filesystem connector;
 * those every file target shares are {@link FileOptions}'.
 */
public final class FileSystemOptions {

    public static final ConfigOption<String> DATE_TIME_FORMAT = ConfigOptions.key(
                    "sink.bucket-assigner.date-time.format")
            .stringType()
            .defaultValue("yyyy-MM-dd--HH")
            .withDescription("java.time pattern of date-time bucket directories.");

    public static final ConfigOption<String> DATE_TIME_ZONE = ConfigOptions.key(
                    "sink.bucket-assigner.date-time.time-zone")
            .stringType()
            .noDefaultValue()
            .withDescription("Time zone of date-time buckets; the JVM's by default.");

    public static final ConfigOption<String> PART_PREFIX = ConfigOptions.key("sink.part-file.prefix")
            .stringType()
            .defaultValue("part")
            .withDescription("Prefix of part file names.");

    public static final ConfigOption<String> PART_SUFFIX = ConfigOptions.key("sink.part-file.suffix")
            .stringType()
            .defaultValue("")
            .withDescription("Suffix of part file names, e.g. '.csv'.");

    public static final ConfigOption<String> PARTITION_DEFAULT_NAME = ConfigOptions.key("partition.default-name")
            .stringType()
            .defaultValue("__DEFAULT_PARTITION__")
            .withDescription("Partition directory name for a null or empty partition value.");

    public static final ConfigOption<String> SUCCESS_FILE_NAME = ConfigOptions.key(
                    "sink.partition-commit.success-file.name")
            .stringType()
            .defaultValue("_SUCCESS")
            .withDescription("Name of the success file the success-file commit policy writes.");

    private FileSystemOptions() {}
}
