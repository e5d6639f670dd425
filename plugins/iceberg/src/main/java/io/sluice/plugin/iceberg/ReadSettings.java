package io.sluice.plugin.iceberg;

import io.sluice.spi.source.SourceContext;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.util.TimeUtils;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.flink.source.ScanContext;
import org.apache.iceberg.flink.source.StreamingStartingStrategy;
import org.apache.iceberg.util.SnapshotUtil;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * How a scan source reads its table: upstream's {@link ScanContext}, resolved by upstream from the
 * source's options, the job's configuration and the table's properties (in that order of
 * precedence), with the source's columns as its projection. Client, planner and readers all get
 * their settings here, so they agree.
 *
 * <p>Upstream's {@code ScanContext.build()} checks nothing (its checks run only inside {@code
 * IcebergSource}'s builder, and are package-private), so the same combinations are checked here,
 * with messages that name the options.
 */
final class ReadSettings {

    /** The longest {@code monitor-interval} a streaming read accepts. */
    static final Duration MAX_MONITOR_INTERVAL = Duration.ofDays(1);

    private final ScanContext scanContext;
    private final String tableName;

    private ReadSettings(ScanContext scanContext, String tableName) {
        this.scanContext = scanContext;
        this.tableName = tableName;
    }

    /**
     * @throws IllegalArgumentException naming the option (and value) at fault, or the source's
     *     columns that do not fit the table
     */
    static ReadSettings of(Table table, SourceContext context) {
        Map<String, String> readOptions = canonical(context.rawOptions());
        ScanContext.Builder builder = ScanContext.builder();
        try {
            builder.resolveConfig(table, readOptions, new ExplicitOnly(context.jobConfiguration()));
        } catch (IllegalArgumentException e) {
            // the source's options parsed in canonical(): most likely a value of the job's configuration
            throw new IllegalArgumentException(
                    "Invalid Iceberg read option for table '" + table.name()
                            + "' (in the source's options or the job configuration's 'connector.iceberg.*'): "
                            + e.getMessage(),
                    e);
        }
        if (!readOptions.containsKey(TableProperties.DEFAULT_NAME_MAPPING)) {
            // upstream resolves the name mapping (for files without field ids) from the read options
            // only; its SQL tables carry the table's properties as options, so the table's applies
            builder.nameMapping(table.properties().get(TableProperties.DEFAULT_NAME_MAPPING));
        }
        // a query's LIMIT stops each reader early, unless the 'limit' option says otherwise
        if (!readOptions.containsKey(IcebergReadOptions.LIMIT.key())) {
            context.pushedLimit().ifPresent(builder::limit);
        }
        // the query's filters prune the scan's partitions and files (Flink filters the rows)
        context.pushedFilters()
                .ifPresent(filters -> builder.filters(Collections.singletonList(PushedFilters.expression(filters))));
        boolean caseSensitive = builder.build().caseSensitive();
        Schema projection = ReadSchemas.projection(table.schema(), context.rowType(), caseSensitive, table.name());
        ReadSettings settings = new ReadSettings(builder.project(projection).build(), table.name());
        settings.checkCombinations(context.rawOptions());
        return settings;
    }

    /**
     * The source's options with every read option as Flink parses it (so that a bad value fails
     * naming its key) and spelled as upstream's own parser wants it: upstream parses with {@code
     * Enum.valueOf} and {@code Long.parseLong}, Flink also takes other cases and surrounding blanks.
     */
    private static Map<String, String> canonical(Map<String, String> rawOptions) {
        Configuration options = Configuration.fromMap(rawOptions);
        Map<String, String> canonical = new HashMap<>(rawOptions);
        for (ConfigOption<?> option : IcebergReadOptions.all()) {
            // throws IllegalArgumentException naming the key
            options.getOptional(option).ifPresent(value -> {
                if (option.equals(IcebergReadOptions.MONITOR_INTERVAL)) {
                    // before spelling it: formatting 9,999,999,999 days overflows
                    checkMonitorInterval((Duration) value, rawOptions.get(option.key()));
                }
                canonical.put(option.key(), spelled(value));
            });
        }
        return canonical;
    }

    private static String spelled(Object value) {
        if (value instanceof Enum) {
            return ((Enum<?>) value).name();
        }
        if (value instanceof Duration) {
            return TimeUtils.formatWithHighestUnit((Duration) value);
        }
        return String.valueOf(value);
    }

    /** The combinations upstream rejects, and the values its planning would reject later. */
    private void checkCombinations(Map<String, String> rawOptions) {
        ScanContext c = scanContext;
        if (c.isStreaming()) {
            StreamingStartingStrategy strategy = c.streamingStartingStrategy();
            if (strategy == StreamingStartingStrategy.INCREMENTAL_FROM_SNAPSHOT_ID) {
                require(c.startSnapshotId() != null, strategyNeeds(strategy, IcebergReadOptions.START_SNAPSHOT_ID));
                require(
                        c.startSnapshotTimestamp() == null,
                        strategyExcludes(strategy, IcebergReadOptions.START_SNAPSHOT_TIMESTAMP));
            }
            if (strategy == StreamingStartingStrategy.INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP) {
                require(
                        c.startSnapshotTimestamp() != null,
                        strategyNeeds(strategy, IcebergReadOptions.START_SNAPSHOT_TIMESTAMP));
                require(c.startSnapshotId() == null, strategyExcludes(strategy, IcebergReadOptions.START_SNAPSHOT_ID));
            }
            requireBoundedOnly(c.snapshotId() == null, IcebergReadOptions.SNAPSHOT_ID);
            requireBoundedOnly(c.asOfTimestamp() == null, IcebergReadOptions.AS_OF_TIMESTAMP);
            requireBoundedOnly(c.endSnapshotId() == null, IcebergReadOptions.END_SNAPSHOT_ID);
            requireBoundedOnly(c.tag() == null, IcebergReadOptions.TAG);
            requireBoundedOnly(c.endTag() == null, IcebergReadOptions.END_TAG);
            // the job's configuration or the table's properties may set it too
            checkMonitorInterval(c.monitorInterval(), rawOptions.get(IcebergReadOptions.MONITOR_INTERVAL.key()));
        }
        // a bounded scan travels to one snapshot: upstream ignores a tag next to a snapshot id, and
        // Iceberg's scan rejects a time next to either (or next to a branch) only when planning
        require(
                Stream.of(c.snapshotId(), c.tag(), c.asOfTimestamp())
                                .filter(Objects::nonNull)
                                .count()
                        <= 1,
                "'" + IcebergReadOptions.SNAPSHOT_ID.key() + "', '" + IcebergReadOptions.TAG.key() + "' and '"
                        + IcebergReadOptions.AS_OF_TIMESTAMP.key() + "' exclude each other");
        require(
                c.asOfTimestamp() == null || c.branch() == null,
                "'" + IcebergReadOptions.AS_OF_TIMESTAMP.key() + "' and '" + IcebergReadOptions.BRANCH.key()
                        + "' exclude each other");
        require(
                c.startTag() == null || c.startSnapshotId() == null,
                "'" + IcebergReadOptions.START_SNAPSHOT_ID.key() + "' and '" + IcebergReadOptions.START_TAG.key()
                        + "' exclude each other");
        require(
                c.endTag() == null || c.endSnapshotId() == null,
                "'" + IcebergReadOptions.END_SNAPSHOT_ID.key() + "' and '" + IcebergReadOptions.END_TAG.key()
                        + "' exclude each other");
        require(
                c.maxAllowedPlanningFailures() >= -1,
                "'" + IcebergReadOptions.MAX_ALLOWED_PLANNING_FAILURES.key() + "' must be -1 (no limit) or more, not "
                        + c.maxAllowedPlanningFailures());
        require(
                c.maxPlanningSnapshotCount() > 0,
                "'" + IcebergReadOptions.MAX_PLANNING_SNAPSHOT_COUNT.key() + "' must be positive, not "
                        + c.maxPlanningSnapshotCount());
        require(
                c.splitSize() > 0,
                "'" + IcebergReadOptions.SPLIT_SIZE.key() + "' (or table property"
                        + " 'read.split.target-size') must be positive, not " + c.splitSize());
        require(
                c.splitLookback() > 0,
                "'" + IcebergReadOptions.SPLIT_LOOKBACK.key() + "' (or table property"
                        + " 'read.split.planning-lookback') must be positive, not " + c.splitLookback());
        require(
                c.splitOpenFileCost() >= 0,
                "'" + IcebergReadOptions.SPLIT_FILE_OPEN_COST.key() + "' (or table property"
                        + " 'read.split.open-file-cost') must not be negative, not " + c.splitOpenFileCost());
    }

    /**
     * Checks that the snapshots and tags the options name are in the table. Only on the client: a
     * restored read has moved past them, and they may have expired since.
     *
     * @throws IllegalArgumentException naming the option, the value and the table
     */
    void checkReferences(Table table) {
        checkSnapshot(table, IcebergReadOptions.SNAPSHOT_ID, scanContext.snapshotId());
        checkSnapshot(table, IcebergReadOptions.START_SNAPSHOT_ID, scanContext.startSnapshotId());
        checkSnapshot(table, IcebergReadOptions.END_SNAPSHOT_ID, scanContext.endSnapshotId());
        if (scanContext.asOfTimestamp() != null) {
            try {
                SnapshotUtil.snapshotIdAsOfTime(table, scanContext.asOfTimestamp());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "'" + IcebergReadOptions.AS_OF_TIMESTAMP.key() + "' = " + scanContext.asOfTimestamp()
                                + ": Iceberg table '" + table.name() + "' has no snapshot at or before that time",
                        e);
            }
        }
        checkRef(table, IcebergReadOptions.TAG, scanContext.tag(), true);
        checkRef(table, IcebergReadOptions.START_TAG, scanContext.startTag(), true);
        checkRef(table, IcebergReadOptions.END_TAG, scanContext.endTag(), true);
        if (!scanContext.isStreaming()) {
            // a streaming read may wait for its branch to appear
            checkRef(table, IcebergReadOptions.BRANCH, scanContext.branch(), false);
        }
    }

    private static void checkSnapshot(Table table, ConfigOption<Long> option, Long id) {
        if (id != null && table.snapshot(id) == null) {
            throw new IllegalArgumentException(
                    "'" + option.key() + "' = " + id + ": Iceberg table '" + table.name() + "' has no such snapshot");
        }
    }

    private static void checkRef(Table table, ConfigOption<String> option, String name, boolean tag) {
        if (name == null) {
            return;
        }
        SnapshotRef ref = table.refs().get(name);
        if (ref == null || ref.isTag() != tag) {
            throw new IllegalArgumentException("'" + option.key() + "' = '" + name + "': Iceberg table '" + table.name()
                    + "' has no such " + (tag ? "tag" : "branch"));
        }
    }

    private static String strategyNeeds(StreamingStartingStrategy strategy, ConfigOption<?> option) {
        return "'" + IcebergReadOptions.STARTING_STRATEGY.key() + "' = '" + strategy + "' needs '" + option.key() + "'";
    }

    private static String strategyExcludes(StreamingStartingStrategy strategy, ConfigOption<?> option) {
        return "'" + IcebergReadOptions.STARTING_STRATEGY.key() + "' = '" + strategy + "' cannot be combined with '"
                + option.key() + "'";
    }

    private static void requireBoundedOnly(boolean ok, ConfigOption<?> option) {
        require(
                ok,
                "'" + option.key() + "' is for bounded reads only, not with '" + IcebergReadOptions.STREAMING.key()
                        + "' = true (a streaming read starts where '" + IcebergReadOptions.STARTING_STRATEGY.key()
                        + "' says)");
    }

    /**
     * A streaming read looks for snapshots at most {@link #MAX_MONITOR_INTERVAL} apart, and more
     * often than never (9,999,999,999 days was accepted).
     *
     * @param written the value as the options spell it, or null to show the duration's
     */
    private static void checkMonitorInterval(Duration interval, String written) {
        require(
                !interval.isNegative() && !interval.isZero() && interval.compareTo(MAX_MONITOR_INTERVAL) <= 0,
                "'" + IcebergReadOptions.MONITOR_INTERVAL.key() + "' '" + (written != null ? written : interval)
                        + "' must be positive and at most 1 d (to look for snapshots less often, run a bounded"
                        + " read when they are due)");
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException("Invalid read options: " + message);
        }
    }

    /** Upstream's scan context, with the source's columns as its projection. */
    ScanContext scanContext() {
        return scanContext;
    }

    /** The columns read, in the order of the source's row type. */
    Schema projection() {
        return scanContext.project();
    }

    boolean caseSensitive() {
        return scanContext.caseSensitive();
    }

    boolean streaming() {
        return scanContext.isStreaming();
    }

    Duration monitorInterval() {
        return scanContext.monitorInterval();
    }

    /** The table's full name, for messages. */
    String tableName() {
        return tableName;
    }

    /**
     * The job's configuration as upstream's option parser should see it: only what is set there.
     * Upstream asks it with {@link ReadableConfig#get}, which answers the option's default when it
     * is not set, and its split options have defaults: so the table's {@code read.split.*}
     * properties would never count (fixed upstream by apache/iceberg#17445, after 1.11).
     */
    private static final class ExplicitOnly implements ReadableConfig {

        private final ReadableConfig config;

        ExplicitOnly(ReadableConfig config) {
            this.config = config;
        }

        @Override
        public <T> T get(ConfigOption<T> option) {
            return config.getOptional(option).orElse(null);
        }

        @Override
        public <T> Optional<T> getOptional(ConfigOption<T> option) {
            return config.getOptional(option);
        }

        @Override
        public Map<String, String> toMap() {
            return config.toMap();
        }
    }
}
