package io.sluice.plugin.filesystem;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

import java.time.Duration;

/** Options of the filesystem target, with the names and defaults of Flink's filesystem connector. */
public final class FileSystemOptions {

    public static final ConfigOption<String> PATH =
            ConfigOptions.key("path").stringType().noDefaultValue().withDescription("Base path of the table or sink.");

    public static final ConfigOption<String> FORMAT =
            ConfigOptions.key("format").stringType().noDefaultValue().withDescription("Format identifier: csv, json, parquet ...");

    public static final ConfigOption<String> BUCKET_ASSIGNER =
            ConfigOptions.key("sink.bucket-assigner").stringType().noDefaultValue()
                    .withDescription("Bucket assigner: date-time, base-path, partition, or a plugin's; "
                            + "'partition' when the table has partition keys, else 'base-path'.");

    public static final ConfigOption<String> DATE_TIME_FORMAT =
            ConfigOptions.key("sink.bucket-assigner.date-time.format").stringType().defaultValue("yyyy-MM-dd--HH")
                    .withDescription("java.time pattern of date-time bucket directories.");

    public static final ConfigOption<String> DATE_TIME_ZONE =
            ConfigOptions.key("sink.bucket-assigner.date-time.time-zone").stringType().noDefaultValue()
                    .withDescription("Time zone of date-time buckets; the JVM's by default.");

    public static final ConfigOption<String> ROLLING_POLICY =
            ConfigOptions.key("sink.rolling-policy.kind").stringType().defaultValue("default")
                    .withDescription("Rolling policy: default, on-checkpoint, or a plugin's.");

    public static final ConfigOption<MemorySize> ROLLING_FILE_SIZE =
            ConfigOptions.key("sink.rolling-policy.file-size").memoryType().defaultValue(MemorySize.parse("128mb"))
                    .withDescription("Maximum part file size before rolling.");

    public static final ConfigOption<Duration> ROLLING_ROLLOVER_INTERVAL =
            ConfigOptions.key("sink.rolling-policy.rollover-interval").durationType().defaultValue(Duration.ofMinutes(30))
                    .withDescription("Maximum time a part file stays open.");

    public static final ConfigOption<Duration> ROLLING_INACTIVITY_INTERVAL =
            ConfigOptions.key("sink.rolling-policy.inactivity-interval").durationType().defaultValue(Duration.ofMinutes(30))
                    .withDescription("A part file with no writes for this long rolls.");

    public static final ConfigOption<Duration> ROLLING_CHECK_INTERVAL =
            ConfigOptions.key("sink.rolling-policy.check-interval").durationType().defaultValue(Duration.ofMinutes(1))
                    .withDescription("How often time-based rolling is checked.");

    public static final ConfigOption<String> PART_PREFIX =
            ConfigOptions.key("sink.part-file.prefix").stringType().defaultValue("part")
                    .withDescription("Prefix of part file names.");

    public static final ConfigOption<String> PART_SUFFIX =
            ConfigOptions.key("sink.part-file.suffix").stringType().defaultValue("")
                    .withDescription("Suffix of part file names, e.g. '.csv'.");

    public static final ConfigOption<String> PARTITION_DEFAULT_NAME =
            ConfigOptions.key("partition.default-name").stringType().defaultValue("__DEFAULT_PARTITION__")
                    .withDescription("Partition directory name for a null or empty partition value.");

    public static final ConfigOption<String> SUCCESS_FILE_NAME =
            ConfigOptions.key("sink.partition-commit.success-file.name").stringType().defaultValue("_SUCCESS")
                    .withDescription("Name of the success file the success-file commit policy writes.");

    private FileSystemOptions() {}
}
