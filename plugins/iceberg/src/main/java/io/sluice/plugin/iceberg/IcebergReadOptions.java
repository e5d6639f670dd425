package io.sluice.plugin.iceberg;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.util.TimeUtils;
import org.apache.iceberg.flink.FlinkReadOptions;
import org.apache.iceberg.flink.source.StreamingStartingStrategy;

import java.time.Duration;

/**
 * The read options of the iceberg scan source, with the names and defaults of Iceberg's own Flink
 * source ({@link FlinkReadOptions}). Where upstream declares the option under its read-option key,
 * its constant is used as it is; where upstream's constant is the Flink configuration option
 * ({@code connector.iceberg.<key>}), the read option is declared here under upstream's key with
 * the type and default of that constant, so neither can drift. The values themselves are resolved
 * by upstream ({@link ReadSettings}); these declarations let the framework list and type-check them.
 *
 * <p>Left out: the watermark options (the framework assigns watermarks) and split locality.
 */
final class IcebergReadOptions {

    /** Bounded reads: the snapshot to read. */
    static final ConfigOption<Long> SNAPSHOT_ID = FlinkReadOptions.SNAPSHOT_ID;

    /** Bounded reads: the snapshot current at this time (epoch milliseconds) is read. */
    static final ConfigOption<Long> AS_OF_TIMESTAMP = FlinkReadOptions.AS_OF_TIMESTAMP;

    /** Bounded reads: the tag whose snapshot is read. */
    static final ConfigOption<String> TAG = FlinkReadOptions.TAG;

    /** The branch read, the main branch by default. */
    static final ConfigOption<String> BRANCH = FlinkReadOptions.BRANCH;

    /** Incremental reads: the snapshot after which appends are read (exclusive). */
    static final ConfigOption<Long> START_SNAPSHOT_ID = FlinkReadOptions.START_SNAPSHOT_ID;

    /** Streaming reads from {@code INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP}: the time to start at. */
    static final ConfigOption<Long> START_SNAPSHOT_TIMESTAMP = FlinkReadOptions.START_SNAPSHOT_TIMESTAMP;

    /** Bounded incremental reads: the last snapshot whose appends are read (inclusive). */
    static final ConfigOption<Long> END_SNAPSHOT_ID = FlinkReadOptions.END_SNAPSHOT_ID;

    /** Bounded incremental reads: like {@code start-snapshot-id}, by tag. */
    static final ConfigOption<String> START_TAG = FlinkReadOptions.START_TAG;

    /** Bounded incremental reads: like {@code end-snapshot-id}, by tag. */
    static final ConfigOption<String> END_TAG = FlinkReadOptions.END_TAG;

    static final ConfigOption<Boolean> CASE_SENSITIVE = ConfigOptions.key(FlinkReadOptions.CASE_SENSITIVE)
            .booleanType()
            .defaultValue(FlinkReadOptions.CASE_SENSITIVE_OPTION.defaultValue())
            .withDescription("Whether column names match case-sensitively.");

    static final ConfigOption<Boolean> STREAMING = ConfigOptions.key(FlinkReadOptions.STREAMING)
            .booleanType()
            .defaultValue(FlinkReadOptions.STREAMING_OPTION.defaultValue())
            .withDescription("Whether the read is continuous: new snapshots' appends are read as they are committed.");

    static final ConfigOption<Duration> MONITOR_INTERVAL = ConfigOptions.key(FlinkReadOptions.MONITOR_INTERVAL)
            .durationType()
            .defaultValue(TimeUtils.parseDuration(FlinkReadOptions.MONITOR_INTERVAL_OPTION.defaultValue()))
            .withDescription("Streaming reads: how often the table is checked for new snapshots.");

    static final ConfigOption<StreamingStartingStrategy> STARTING_STRATEGY = ConfigOptions.key(
                    FlinkReadOptions.STARTING_STRATEGY)
            .enumType(StreamingStartingStrategy.class)
            .defaultValue(FlinkReadOptions.STARTING_STRATEGY_OPTION.defaultValue())
            .withDescription("Streaming reads: where the read starts.");

    static final ConfigOption<Long> SPLIT_SIZE = ConfigOptions.key(FlinkReadOptions.SPLIT_SIZE)
            .longType()
            .defaultValue(FlinkReadOptions.SPLIT_SIZE_OPTION.defaultValue())
            .withDescription("Target size of a split in bytes; table property 'read.split.target-size'.");

    static final ConfigOption<Integer> SPLIT_LOOKBACK = ConfigOptions.key(FlinkReadOptions.SPLIT_LOOKBACK)
            .intType()
            .defaultValue(FlinkReadOptions.SPLIT_LOOKBACK_OPTION.defaultValue())
            .withDescription("Number of bins considered when packing files into splits;"
                    + " table property 'read.split.planning-lookback'.");

    static final ConfigOption<Long> SPLIT_FILE_OPEN_COST = ConfigOptions.key(FlinkReadOptions.SPLIT_FILE_OPEN_COST)
            .longType()
            .defaultValue(FlinkReadOptions.SPLIT_FILE_OPEN_COST_OPTION.defaultValue())
            .withDescription("Bytes a file counts for at least when packing splits;"
                    + " table property 'read.split.open-file-cost'.");

    static final ConfigOption<Boolean> INCLUDE_COLUMN_STATS = ConfigOptions.key(FlinkReadOptions.INCLUDE_COLUMN_STATS)
            .booleanType()
            .defaultValue(FlinkReadOptions.INCLUDE_COLUMN_STATS_OPTION.defaultValue())
            .withDescription("Whether splits carry the data files' column statistics.");

    static final ConfigOption<Integer> MAX_PLANNING_SNAPSHOT_COUNT = ConfigOptions.key(
                    FlinkReadOptions.MAX_PLANNING_SNAPSHOT_COUNT)
            .intType()
            .defaultValue(FlinkReadOptions.MAX_PLANNING_SNAPSHOT_COUNT_OPTION.defaultValue())
            .withDescription("Streaming reads: at most this many snapshots are planned at a time.");

    static final ConfigOption<Long> LIMIT = ConfigOptions.key(FlinkReadOptions.LIMIT)
            .longType()
            .defaultValue(FlinkReadOptions.LIMIT_OPTION.defaultValue())
            .withDescription("At most this many rows per source subtask (-1: no limit).");

    static final ConfigOption<Integer> MAX_ALLOWED_PLANNING_FAILURES = ConfigOptions.key(
                    FlinkReadOptions.MAX_ALLOWED_PLANNING_FAILURES)
            .intType()
            .defaultValue(FlinkReadOptions.MAX_ALLOWED_PLANNING_FAILURES_OPTION.defaultValue())
            .withDescription("Streaming reads: consecutive planning failures tolerated before the read fails"
                    + " (-1: any number).");

    private IcebergReadOptions() {}

    /** All read options. */
    static ConfigOption<?>[] all() {
        return new ConfigOption<?>[] {
            SNAPSHOT_ID,
            AS_OF_TIMESTAMP,
            TAG,
            BRANCH,
            START_SNAPSHOT_ID,
            START_SNAPSHOT_TIMESTAMP,
            END_SNAPSHOT_ID,
            START_TAG,
            END_TAG,
            CASE_SENSITIVE,
            STREAMING,
            MONITOR_INTERVAL,
            STARTING_STRATEGY,
            SPLIT_SIZE,
            SPLIT_LOOKBACK,
            SPLIT_FILE_OPEN_COST,
            INCLUDE_COLUMN_STATS,
            MAX_PLANNING_SNAPSHOT_COUNT,
            LIMIT,
            MAX_ALLOWED_PLANNING_FAILURES
        };
    }
}
