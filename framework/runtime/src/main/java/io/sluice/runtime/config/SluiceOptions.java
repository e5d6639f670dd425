package io.sluice.runtime.config;

import io.sluice.runtime.plugin.PluginSettings;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Options the framework itself reads, whatever the target: which target, where plugins are, the
 * partition-commit pipeline and the cache of temporal joins. Names and defaults are those of Flink's
 * filesystem connector (the cache's, of its Hive connector).
 */
public final class SluiceOptions {

    public static final ConfigOption<String> TARGET = ConfigOptions.key("target")
            .stringType()
            .noDefaultValue()
            .withDescription("The storage target: filesystem, hive, iceberg or a third party's.");

    public static final ConfigOption<String> PLUGINS_DIR = ConfigOptions.key(PluginSettings.PLUGINS_DIR)
            .stringType()
            .noDefaultValue()
            .withDescription("Directory holding one folder, zip or jar per plugin.");

    public static final ConfigOption<String> PLUGINS_ENABLED = ConfigOptions.key(PluginSettings.PLUGINS_ENABLED)
            .stringType()
            .noDefaultValue()
            .withDescription("Comma-separated plugin ids to load; all when absent.");

    public static final ConfigOption<String> PARENT_FIRST_ADDITIONAL = ConfigOptions.key(
                    PluginSettings.PARENT_FIRST_ADDITIONAL)
            .stringType()
            .noDefaultValue()
            .withDescription("Extra ';'-separated class prefixes plugins share with the framework.");

    public static final ConfigOption<String> PLUGIN_FIRST_ADDITIONAL = ConfigOptions.key(
                    PluginSettings.PLUGIN_FIRST_ADDITIONAL)
            .stringType()
            .noDefaultValue()
            .withDescription("Extra ';'-separated prefixes under the shared ones that a plugin's own copy wins for.");

    public static final ConfigOption<Integer> SINK_PARALLELISM = ConfigOptions.key("sink.parallelism")
            .intType()
            .noDefaultValue()
            .withDescription("Parallelism of the sink writers; the input's by default.");

    public static final ConfigOption<String> PARTITION_COMMIT_TRIGGER = ConfigOptions.key(
                    "sink.partition-commit.trigger")
            .stringType()
            .defaultValue("process-time")
            .withDescription("'process-time' or 'partition-time'.");

    public static final ConfigOption<Duration> PARTITION_COMMIT_DELAY = ConfigOptions.key("sink.partition-commit.delay")
            .durationType()
            .defaultValue(Duration.ZERO)
            .withDescription("A partition is not committed before this delay.");

    public static final ConfigOption<String> PARTITION_COMMIT_WATERMARK_TIME_ZONE = ConfigOptions.key(
                    "sink.partition-commit.watermark-time-zone")
            .stringType()
            .defaultValue("UTC")
            .withDescription("Time zone to turn a partition's time into epoch millis for the partition-time trigger.");

    public static final ConfigOption<String> PARTITION_COMMIT_POLICY_KIND = ConfigOptions.key(
                    "sink.partition-commit.policy.kind")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "Comma-separated policies to run on a finished partition: success-file, metastore, custom.");

    public static final ConfigOption<String> PARTITION_COMMIT_POLICY_CLASS = ConfigOptions.key(
                    "sink.partition-commit.policy.class")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "For kind 'custom': comma-separated identifiers or class names of CommitPolicyFactory extensions.");

    public static final ConfigOption<String> PARTITION_TIME_EXTRACTOR_KIND = ConfigOptions.key(
                    "partition.time-extractor.kind")
            .stringType()
            .defaultValue("default")
            .withDescription("'default' or 'custom'.");

    public static final ConfigOption<String> PARTITION_TIME_EXTRACTOR_CLASS = ConfigOptions.key(
                    "partition.time-extractor.class")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "For kind 'custom': identifier or class name of a PartitionTimeExtractorFactory extension.");

    public static final ConfigOption<String> PARTITION_TIME_EXTRACTOR_TIMESTAMP_PATTERN = ConfigOptions.key(
                    "partition.time-extractor.timestamp-pattern")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "How to build a timestamp from partition values, e.g. '$dt $hour:00:00'; the first value by default.");

    public static final ConfigOption<String> PARTITION_TIME_EXTRACTOR_TIMESTAMP_FORMATTER = ConfigOptions.key(
                    "partition.time-extractor.timestamp-formatter")
            .stringType()
            .defaultValue("yyyy-MM-dd HH:mm:ss")
            .withDescription("java.time pattern to parse the timestamp built by the timestamp pattern.");

    public static final ConfigOption<Boolean> AUTO_COMPACTION = ConfigOptions.key("auto-compaction")
            .booleanType()
            .defaultValue(false)
            .withDescription("Whether to merge small files before they are published. Files are written under hidden"
                    + " names and become visible when compacted, at the checkpoint the compaction strategy picks.");

    public static final ConfigOption<MemorySize> COMPACTION_FILE_SIZE = ConfigOptions.key("compaction.file-size")
            .memoryType()
            .noDefaultValue()
            .withDescription("Target size of compacted files; the files of a bucket are compacted as soon as they"
                    + " add up to it. Defaults to 'sink.rolling-policy.file-size' (128mb).");

    public static final ConfigOption<Integer> COMPACTION_CHECKPOINTS = ConfigOptions.key("compaction.checkpoints")
            .intType()
            .defaultValue(1)
            .withDescription("Compact every bucket's waiting files at least every n checkpoints, whatever their"
                    + " size; 0 compacts by size only (and at the end of input).");

    public static final ConfigOption<String> COMPACTION_COMPACTOR = ConfigOptions.key("compaction.compactor")
            .stringType()
            .noDefaultValue()
            .withDescription("The FileCompactor extension: 'concat' (bytes; row formats), 'record-wise' (rows; every"
                    + " readable format) or one from a plugin. Default: concat for row formats, record-wise for bulk.");

    public static final ConfigOption<Integer> COMPACTION_PARALLELISM = ConfigOptions.key("compaction.parallelism")
            .intType()
            .noDefaultValue()
            .withDescription("How many compaction units of one commit run at the same time, at most. Default: the"
                    + " sink's parallelism (its writers').");

    public static final ConfigOption<MemorySize> COMPACTION_SMALL_FILES_AVG_SIZE = ConfigOptions.key(
                    "compaction.small-files.avg-size")
            .memoryType()
            .defaultValue(MemorySize.parse("16mb"))
            .withDescription("In a job without checkpoints (BATCH), a bucket's files are compacted at the end of input"
                    + " only if their average size is below it; the files of a bucket at or above it are published"
                    + " as they are.");

    public static final ConfigOption<String> DISTRIBUTION_MODE = ConfigOptions.key("distribution-mode")
            .stringType()
            .noDefaultValue()
            .withDescription("How rows are spread over the writers before they are written: 'none' (as the"
                    + " input hands them), 'hash' (by the partition key, else the primary key: one writer per"
                    + " key) or 'range' (by ranges of the sort key chosen from traffic statistics: even shares)."
                    + " Default: the table's (Iceberg's write.distribution-mode), else none.");

    public static final ConfigOption<String> RANGE_DISTRIBUTION_STATISTICS_TYPE = ConfigOptions.key(
                    "range-distribution-statistics-type")
            .stringType()
            .defaultValue("Auto")
            .withDescription("The traffic statistics of distribution mode 'range': 'Map' (exact counts per key,"
                    + " for up to thousands of keys), 'Sketch' (a reservoir sample and even ranges of it, for"
                    + " millions of keys) or 'Auto' (Map, switching to Sketch above 10,000 distinct keys).");

    public static final ConfigOption<Double> RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT = ConfigOptions.key(
                    "range-distribution-sort-key-base-weight")
            .doubleType()
            .defaultValue(0.0)
            .withDescription("With 'Map' statistics, the least weight of every sort key as a fraction of a writer's"
                    + " target weight, in [0, 1): 0.02 puts at most about 50 keys (files) on one writer however"
                    + " little traffic they have.");

    public static final ConfigOption<java.util.List<String>> DISTRIBUTION_COLUMNS = ConfigOptions.key(
                    "distribution.columns")
            .stringType()
            .asList()
            .noDefaultValue()
            .withDescription("The columns 'hash' distributes rows by, instead of the target's key (the partition key,"
                    + " else the primary key); what SQL's DISTRIBUTED BY HASH(...) sets.");

    /**
     * Upstream Hive's key and default, for every Sluice table (a target may give its own interval:
     * {@code ScanSourceFactory.lookupReloadInterval}). A plugin may declare the same key, as the
     * Hive plugin declares upstream's option: {@link KnownOptions} accepts both declarations.
     */
    public static final ConfigOption<Duration> LOOKUP_JOIN_CACHE_TTL = ConfigOptions.key("lookup.join.cache.ttl")
            .durationType()
            .defaultValue(Duration.ofMinutes(60))
            .withDescription("How long a temporal join (FOR SYSTEM_TIME AS OF a processing time) serves the rows of"
                    + " one read of the table before it reads the table again, unless the target says otherwise.");

    private SluiceOptions() {}

    /** The options of the framework's file compaction, which only targets that support it take. */
    public static Set<ConfigOption<?>> compaction() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(
                AUTO_COMPACTION,
                COMPACTION_FILE_SIZE,
                COMPACTION_CHECKPOINTS,
                COMPACTION_COMPACTOR,
                COMPACTION_PARALLELISM,
                COMPACTION_SMALL_FILES_AVG_SIZE)));
    }

    /** The options of partition commit, which only targets with partition directories take. */
    public static Set<ConfigOption<?>> partitionCommit() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(
                PARTITION_COMMIT_TRIGGER,
                PARTITION_COMMIT_DELAY,
                PARTITION_COMMIT_WATERMARK_TIME_ZONE,
                PARTITION_COMMIT_POLICY_KIND,
                PARTITION_COMMIT_POLICY_CLASS,
                PARTITION_TIME_EXTRACTOR_KIND,
                PARTITION_TIME_EXTRACTOR_CLASS,
                PARTITION_TIME_EXTRACTOR_TIMESTAMP_PATTERN,
                PARTITION_TIME_EXTRACTOR_TIMESTAMP_FORMATTER)));
    }

    /** Every framework option. */
    public static Set<ConfigOption<?>> all() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(
                TARGET,
                PLUGINS_DIR,
                PLUGINS_ENABLED,
                PARENT_FIRST_ADDITIONAL,
                PLUGIN_FIRST_ADDITIONAL,
                SINK_PARALLELISM,
                PARTITION_COMMIT_TRIGGER,
                PARTITION_COMMIT_DELAY,
                PARTITION_COMMIT_WATERMARK_TIME_ZONE,
                PARTITION_COMMIT_POLICY_KIND,
                PARTITION_COMMIT_POLICY_CLASS,
                PARTITION_TIME_EXTRACTOR_KIND,
                PARTITION_TIME_EXTRACTOR_CLASS,
                PARTITION_TIME_EXTRACTOR_TIMESTAMP_PATTERN,
                PARTITION_TIME_EXTRACTOR_TIMESTAMP_FORMATTER,
                AUTO_COMPACTION,
                COMPACTION_FILE_SIZE,
                COMPACTION_CHECKPOINTS,
                COMPACTION_COMPACTOR,
                COMPACTION_PARALLELISM,
                COMPACTION_SMALL_FILES_AVG_SIZE,
                DISTRIBUTION_MODE,
                DISTRIBUTION_COLUMNS,
                RANGE_DISTRIBUTION_STATISTICS_TYPE,
                RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT,
                LOOKUP_JOIN_CACHE_TTL)));
    }
}
