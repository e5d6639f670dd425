package io.sluice.runtime.sink;

import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.runtime.sink.compaction.CompactionStrategy;
import io.sluice.spi.FileOptions;
import io.sluice.spi.sink.TargetFactory;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.table.types.logical.RowType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds a {@link SluiceSink} for the DataStream API, in the spirit of Flink's {@code FileSink}
 * builders. Every choice becomes an option of the same name the SQL connector takes; {@link
 * #build()} checks them against the target the way {@code CREATE TABLE} does.
 *
 * <pre>{@code
 * SluiceSink sink = SluiceSink.forRowData(rowType)
 *     .withTarget("filesystem")
 *     .withOption("path", "/data/out")
 *     .withFormat("parquet")
 *     .withBucketAssigner(BucketAssigners.dateTime("yyyy-MM-dd", ZoneId.of("UTC")))
 *     .build();
 * stream.sinkTo(sink);
 * }</pre>
 */
public final class SluiceSinkBuilder {

    private final RowType rowType;
    private final Map<String, String> options = new LinkedHashMap<>();
    private final List<String> partitionKeys = new ArrayList<>();
    private final List<String> primaryKey = new ArrayList<>();
    private boolean overwrite;
    private boolean inputGroupedByPartition;
    private final Map<String, String> jobConfiguration = new LinkedHashMap<>();

    SluiceSinkBuilder(RowType rowType) {
        this.rowType = rowType;
    }

    /** The target identifier, e.g. {@code filesystem}. */
    public SluiceSinkBuilder withTarget(String target) {
        return withOption(SluiceOptions.TARGET.key(), target);
    }

    /** The format identifier, e.g. {@code csv}, {@code parquet}. */
    public SluiceSinkBuilder withFormat(String format) {
        return withOption(FileOptions.FORMAT.key(), format);
    }

    /** The base path ({@code path}). */
    public SluiceSinkBuilder withPath(String path) {
        return withOption(FileOptions.PATH.key(), path);
    }

    /** Where plugins are, if not set for the JVM. */
    public SluiceSinkBuilder withPluginsDir(Path dir) {
        return withOption(PluginSettings.PLUGINS_DIR, dir.toAbsolutePath().toString());
    }

    public SluiceSinkBuilder withBucketAssigner(ExtensionChoice assigner) {
        options.putAll(assigner.options());
        return this;
    }

    public SluiceSinkBuilder withRollingPolicy(ExtensionChoice policy) {
        options.putAll(policy.options());
        return this;
    }

    public SluiceSinkBuilder withRollingPolicy(RollingPolicies.DefaultPolicy policy) {
        return withRollingPolicy(policy.build());
    }

    /** Part file prefix and suffix, as Flink's {@link OutputFileConfig}. */
    public SluiceSinkBuilder withOutputFileConfig(OutputFileConfig config) {
        withOption("sink.part-file.prefix", config.getPartPrefix());
        return withOption("sink.part-file.suffix", config.getPartSuffix());
    }

    /** Partition keys: with the {@code partition} bucket assigner, Hive-style directories. */
    public SluiceSinkBuilder withPartitionKeys(String... keys) {
        partitionKeys.addAll(Arrays.asList(keys));
        return withBucketAssigner(BucketAssigners.partition());
    }

    /**
     * Compacts files before they are published, by {@code strategy}, merging them with the {@link
     * io.sluice.spi.compact.FileCompactorFactory} named {@code compactor} ({@code concat}, {@code
     * record-wise} or one from a plugin).
     */
    public SluiceSinkBuilder enableCompaction(CompactionStrategy strategy, String compactor) {
        options.putAll(strategy.options());
        withOption(SluiceOptions.COMPACTION_COMPACTOR.key(), compactor);
        return withOption(SluiceOptions.AUTO_COMPACTION.key(), "true");
    }

    /**
     * Turns compaction off. Files that a job restored from a savepoint wrote for compaction are
     * still published (compacted once more), so switching off across a savepoint loses nothing.
     */
    public SluiceSinkBuilder disableCompaction() {
        return withOption(SluiceOptions.AUTO_COMPACTION.key(), "false");
    }

    /** The primary key columns: the upsert key of a target that accepts changes. */
    public SluiceSinkBuilder withPrimaryKey(String... columns) {
        primaryKey.clear();
        primaryKey.addAll(Arrays.asList(columns));
        return this;
    }

    /** Whether the data replaces what it overwrites, for a target that supports it; bounded input only. */
    public SluiceSinkBuilder withOverwrite(boolean overwrite) {
        this.overwrite = overwrite;
        return this;
    }

    /** How rows reach the writers ({@code distribution-mode}); see {@link io.sluice.runtime.sink.distribution.WriterDistribution}. */
    public SluiceSinkBuilder withDistributionMode(io.sluice.spi.distribution.DistributionMode mode) {
        options.put(
                io.sluice.runtime.config.SluiceOptions.DISTRIBUTION_MODE.key(),
                io.sluice.runtime.sink.distribution.WriterDistribution.name(mode));
        return this;
    }

    /** As {@link #withDistributionMode}, by the name of Iceberg's {@code FlinkSink.Builder}. */
    public SluiceSinkBuilder distributionMode(io.sluice.spi.distribution.DistributionMode mode) {
        return withDistributionMode(mode);
    }

    /** The traffic statistics of {@code range} ({@code range-distribution-statistics-type}). */
    public SluiceSinkBuilder rangeDistributionStatisticsType(io.sluice.runtime.sink.distribution.StatisticsType type) {
        return withOption(
                io.sluice.runtime.config.SluiceOptions.RANGE_DISTRIBUTION_STATISTICS_TYPE.key(), type.optionValue());
    }

    /** The least weight of a sort key under {@code range} with Map statistics ({@code range-distribution-sort-key-base-weight}), in [0, 1). */
    public SluiceSinkBuilder rangeDistributionSortKeyBaseWeight(double weight) {
        return withOption(
                io.sluice.runtime.config.SluiceOptions.RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT.key(),
                String.valueOf(weight));
    }

    /**
     * The rows come grouped by partition already (a BATCH job's sorted input): a target that asks
     * for partition grouping gets them as they are, without the sort the sink adds before its
     * writers otherwise, and each writer closes a partition's file when the next partition begins.
     * Rows that are not grouped are still written correctly, into more files.
     */
    public SluiceSinkBuilder withInputGroupedByPartition() {
        this.inputGroupedByPartition = true;
        return this;
    }

    /** The job's configuration, where a target looks for write options after the sink's own. */
    public SluiceSinkBuilder withJobConfiguration(Map<String, String> configuration) {
        jobConfiguration.putAll(configuration);
        return this;
    }

    /** Any option of the target, format or framework. */
    public SluiceSinkBuilder withOption(String key, String value) {
        options.put(key, value);
        return this;
    }

    public SluiceSinkBuilder withOptions(Map<String, String> more) {
        options.putAll(more);
        return this;
    }

    private static boolean declares(TargetFactory target, String key) {
        Set<ConfigOption<?>> declared = new HashSet<>(target.requiredOptions());
        declared.addAll(target.optionalOptions());
        return declared.stream().anyMatch(o -> o.key().equals(key));
    }

    /**
     * Checks the options and builds the sink.
     *
     * @throws IllegalArgumentException for an unknown target or option, or an invalid value
     */
    public SluiceSink build() {
        Map<String, String> all = new LinkedHashMap<>(options);
        if (!all.containsKey(BucketAssigners.KIND)
                && declares(
                        SinkDescriptor.resolve(all, rowType, partitionKeys).targetFactory(), BucketAssigners.KIND)) {
            // FileSink's default, for a target of buckets: hourly buckets by processing time
            all.putAll(BucketAssigners.dateTime().options());
        }
        SinkDescriptor planned = SinkPlanner.plan(all, rowType, partitionKeys, primaryKey, jobConfiguration, overwrite);
        return new SluiceSink(inputGroupedByPartition ? planned.withPartitionGrouping(true) : planned);
    }
}
