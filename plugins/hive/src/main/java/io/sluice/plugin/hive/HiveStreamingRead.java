package io.sluice.plugin.hive;

import io.sluice.plugin.hive.StreamingPosition.KeyKind;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.file.table.DefaultPartTimeExtractor;
import org.apache.flink.connector.file.table.FileSystemConnectorOptions;
import org.apache.flink.connectors.hive.HiveOptions;
import org.apache.flink.connectors.hive.HiveOptions.PartitionOrder;

import javax.annotation.Nullable;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The {@code streaming-source.*} options of a Hive table read, with upstream's names, defaults and
 * meanings, checked on the client: whether the read follows the table ({@code enable}), which
 * partitions a temporal join holds ({@code partition.include}: {@code all}, or {@code latest}, for
 * temporal joins only), the order new partitions are taken in ({@code partition-order}, or the
 * deprecated {@code consume-order}), where the read starts ({@code consume-start-offset}) and how
 * often it looks ({@code monitor-interval}: 1 min for reads, 60 min for temporal joins).
 *
 * <p>Sluice's {@code create-time} is the time the metastore created the partition, not the
 * modification time of its folder that upstream compares: that time moves whenever a file lands,
 * and upstream then reads the partition again. The metastore's time never moves, so a partition is
 * read once. An unpartitioned table is followed file by file in the order of their modification
 * times.
 */
final class HiveStreamingRead {

    static final ConfigOption<Boolean> ENABLE = HiveOptions.STREAMING_SOURCE_ENABLE;
    static final ConfigOption<String> PARTITION_INCLUDE = HiveOptions.STREAMING_SOURCE_PARTITION_INCLUDE;
    static final ConfigOption<Duration> MONITOR_INTERVAL = HiveOptions.STREAMING_SOURCE_MONITOR_INTERVAL;
    /**
     * Upstream's {@code STREAMING_SOURCE_PARTITION_ORDER} (same key, default and deprecated key),
     * declared here: the port of upstream's connector to Flink 2 drops the deprecated key, which
     * docs/hive.md still promises.
     */
    static final ConfigOption<PartitionOrder> PARTITION_ORDER = ConfigOptions.key("streaming-source.partition-order")
            .enumType(PartitionOrder.class)
            .defaultValue(PartitionOrder.PARTITION_NAME)
            .withDeprecatedKeys("streaming-source.consume-order")
            .withDescription("The order in which a streaming read takes new partitions: partition-name,"
                    + " create-time or partition-time. 'streaming-source.consume-order' is its deprecated"
                    + " name.");

    static final ConfigOption<String> CONSUME_START_OFFSET = HiveOptions.STREAMING_SOURCE_CONSUME_START_OFFSET;
    static final ConfigOption<Duration> LOOKUP_JOIN_CACHE_TTL = HiveOptions.LOOKUP_JOIN_CACHE_TTL;

    /**
     * How long before the newest file a read of an unpartitioned table still looks for files it has
     * not seen: the same option, name and default as the framework's file source.
     */
    static final ConfigOption<Duration> MONITOR_LOOKBACK = ConfigOptions.key("source.monitor-lookback")
            .durationType()
            .defaultValue(Duration.ofHours(1))
            .withDescription("A streaming read of an unpartitioned Hive table remembers the files modified within"
                    + " this time before the newest one it read; older files count as read. Must exceed how long a"
                    + " file can take to appear after its last modification.");

    static final Duration SCAN_MONITOR_INTERVAL = Duration.ofMinutes(1);

    /** The longest {@code monitor-interval} a streaming read or a temporal join accepts. */
    static final Duration MAX_MONITOR_INTERVAL = Duration.ofDays(1);

    static final Duration LOOKUP_MONITOR_INTERVAL = Duration.ofHours(1);

    /**
     * In {@code create-time} order, partitions the metastore created up to this long before the
     * newest one read are still looked for: two writers adding partitions at once may become
     * visible out of the order of their creation times.
     */
    static final long CREATE_TIME_LOOKBACK_MILLIS = 5_000;

    /**
     * {@code yyyy-[m]m-[d]d [hh:mm:ss]}, strictly: upstream's lenient parser takes a month 13 to
     * the next year, and a read would start where nobody asked.
     */
    private static final java.time.format.DateTimeFormatter DEFAULT_TIMESTAMP =
            new java.time.format.DateTimeFormatterBuilder()
                    .appendPattern("uuuu-M-d")
                    .optionalStart()
                    .appendPattern(" H:m:s")
                    .optionalEnd()
                    .parseDefaulting(java.time.temporal.ChronoField.HOUR_OF_DAY, 0)
                    .parseDefaulting(java.time.temporal.ChronoField.MINUTE_OF_HOUR, 0)
                    .parseDefaulting(java.time.temporal.ChronoField.SECOND_OF_MINUTE, 0)
                    .toFormatter(Locale.ROOT)
                    .withResolverStyle(java.time.format.ResolverStyle.STRICT);

    private static final String ALL = "all";
    private static final String LATEST = "latest";

    final boolean enabled;
    final boolean latest;
    final PartitionOrder order;
    /** Whether {@link #order} was given (or only the default). */
    final boolean orderGiven;

    @Nullable
    final String startOffset;

    @Nullable
    private final Duration monitorInterval;

    private final Duration cacheTtl;
    private final Duration fileLookback;

    @Nullable
    private final String timestampFormatter;

    private HiveStreamingRead(
            boolean enabled,
            boolean latest,
            PartitionOrder order,
            boolean orderGiven,
            @Nullable String startOffset,
            @Nullable Duration monitorInterval,
            Duration cacheTtl,
            Duration fileLookback,
            String timestampFormatter) {
        this.enabled = enabled;
        this.latest = latest;
        this.order = order;
        this.orderGiven = orderGiven;
        this.startOffset = startOffset;
        this.monitorInterval = monitorInterval;
        this.cacheTtl = cacheTtl;
        this.fileLookback = fileLookback;
        this.timestampFormatter = timestampFormatter;
    }

    /**
     * The options of a read, each checked alone and against the others (for a scan or a lookup as
     * the context says; the framework first asks while it cannot tell, as a scan whose {@code latest}
     * is left for the planner to refuse).
     *
     * @throws IllegalArgumentException naming the option and value at fault
     */
    static HiveStreamingRead of(SourceContext context) {
        ReadableConfig options = context.options();
        boolean enabled = get(options, ENABLE);
        String include = get(options, PARTITION_INCLUDE).trim().toLowerCase(Locale.ROOT);
        if (!include.equals(ALL) && !include.equals(LATEST)) {
            throw new IllegalArgumentException("Invalid '" + PARTITION_INCLUDE.key() + "' '"
                    + SerDeRecords.printable(get(options, PARTITION_INCLUDE)) + "': 'all' or 'latest'");
        }
        boolean latest = include.equals(LATEST);
        if (latest && !enabled) {
            throw new IllegalArgumentException("'" + PARTITION_INCLUDE.key() + "' = 'latest' needs '" + ENABLE.key()
                    + "' = 'true': it is for temporal joins, which then join the latest partition (a bounded"
                    + " table is joined whole, with 'all'); a read that is not a temporal join takes 'all'");
        }
        PartitionOrder order;
        try {
            order = options.get(PARTITION_ORDER);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Invalid '" + PARTITION_ORDER.key() + "' (or the deprecated"
                            + " 'streaming-source.consume-order'): " + e.getMessage() + " Valid: "
                            + Arrays.stream(PartitionOrder.values())
                                    .map(PartitionOrder::toString)
                                    .collect(Collectors.joining(", ")),
                    e);
        }
        boolean orderGiven = options.getOptional(PARTITION_ORDER).isPresent();
        Duration interval = get(options, MONITOR_INTERVAL);
        if (interval != null
                && (interval.isZero() || interval.isNegative() || interval.compareTo(MAX_MONITOR_INTERVAL) > 0)) {
            // a read that looks every 9,999,999,999 days never looks again
            String written = options.getOptional(ConfigOptions.key(MONITOR_INTERVAL.key())
                            .stringType()
                            .noDefaultValue())
                    .orElse(interval.toString()); // formatting 9,999,999,999 days would overflow
            throw new IllegalArgumentException(
                    "Invalid '" + MONITOR_INTERVAL.key() + "' '" + written + "': must be positive and at most 1 d");
        }
        Duration ttl = get(options, LOOKUP_JOIN_CACHE_TTL);
        if (ttl.isZero() || ttl.isNegative()) {
            throw new IllegalArgumentException(
                    "Invalid '" + LOOKUP_JOIN_CACHE_TTL.key() + "' " + ttl + ": must be positive");
        }
        Duration lookback = get(options, MONITOR_LOOKBACK);
        if (lookback.isNegative()) {
            throw new IllegalArgumentException(
                    "Invalid '" + MONITOR_LOOKBACK.key() + "' " + lookback + ": must not be negative");
        }
        String kind = get(options, FileSystemConnectorOptions.PARTITION_TIME_EXTRACTOR_KIND);
        if (order == PartitionOrder.PARTITION_TIME && !kind.equals(DefaultPartTimeExtractor.DEFAULT)) {
            throw new IllegalArgumentException("'" + PARTITION_ORDER.key() + "' = 'partition-time' with '"
                    + FileSystemConnectorOptions.PARTITION_TIME_EXTRACTOR_KIND.key() + "' '"
                    + SerDeRecords.printable(kind) + "': the hive source extracts partition times with the default"
                    + " extractor ('partition.time-extractor.timestamp-pattern') only");
        }
        String startOffset = get(options, CONSUME_START_OFFSET);
        if (startOffset != null && latest && context.lookup()) {
            throw new IllegalArgumentException("'" + CONSUME_START_OFFSET.key() + "' is not for a temporal join"
                    + " of the latest partition ('" + PARTITION_INCLUDE.key() + "' = 'latest'), which always"
                    + " joins the newest one");
        }
        return new HiveStreamingRead(
                enabled,
                latest,
                order,
                orderGiven,
                startOffset,
                interval,
                ttl,
                lookback,
                get(options, FileSystemConnectorOptions.PARTITION_TIME_EXTRACTOR_TIMESTAMP_FORMATTER));
    }

    /**
     * Checks what depends on the table: an unpartitioned table is followed by its files' times, so
     * it takes no partition order but {@code create-time}, and a start offset must fit the order.
     */
    void checkTable(String table, List<String> partitionKeys) {
        if (!enabled) {
            return;
        }
        if (partitionKeys.isEmpty() && orderGiven && order != PartitionOrder.CREATE_TIME) {
            throw new IllegalArgumentException("'" + PARTITION_ORDER.key() + "' = '" + order + "': Hive table "
                    + table + " has no partitions, so a streaming read takes its new files in the order of their"
                    + " modification times ('create-time', the default for an unpartitioned table)");
        }
        startKey(table, partitionKeys);
    }

    /** How keys compare in this read of a table with these partition keys. */
    KeyKind keyKind(List<String> partitionKeys) {
        return !partitionKeys.isEmpty() && order == PartitionOrder.PARTITION_NAME ? KeyKind.NAME : KeyKind.TIME;
    }

    /** The lookback of the order: see {@link StreamingPosition#after}. */
    long lookbackMillis(List<String> partitionKeys) {
        if (partitionKeys.isEmpty()) {
            return fileLookback.toMillis();
        }
        return order == PartitionOrder.CREATE_TIME ? CREATE_TIME_LOOKBACK_MILLIS : 0;
    }

    /** The position before the first plan of a streaming read. */
    StreamingPosition startPosition(String table, List<String> partitionKeys) {
        return StreamingPosition.start(keyKind(partitionKeys), startKey(table, partitionKeys));
    }

    /**
     * {@link #CONSUME_START_OFFSET} as a key: a partition name of the table's keys ({@code
     * partition-name}), else a timestamp ({@code yyyy-[m]m-[d]d [hh:mm:ss]}, or the pattern of {@code
     * partition.time-extractor.timestamp-formatter}) in milliseconds of its wall-clock time.
     */
    @Nullable
    private Comparable<?> startKey(String table, List<String> partitionKeys) {
        if (startOffset == null) {
            return null;
        }
        if (keyKind(partitionKeys) == KeyKind.NAME) {
            String[] parts = startOffset.split("/", -1);
            boolean fits = parts.length == partitionKeys.size();
            for (int i = 0; fits && i < parts.length; i++) {
                fits = parts[i].startsWith(partitionKeys.get(i) + "=")
                        && parts[i].length() > partitionKeys.get(i).length() + 1;
            }
            if (!fits) {
                throw new IllegalArgumentException("Invalid '" + CONSUME_START_OFFSET.key() + "' '"
                        + SerDeRecords.printable(startOffset) + "': in the order 'partition-name' it is a partition"
                        + " name of Hive table " + table + ", " + example(partitionKeys));
            }
            return startOffset;
        }
        try {
            return localMillis(
                    timestampFormatter == null
                            ? LocalDateTime.parse(startOffset.trim(), DEFAULT_TIMESTAMP)
                            : DefaultPartTimeExtractor.toLocalDateTime(startOffset, timestampFormatter));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "Invalid '" + CONSUME_START_OFFSET.key() + "' '" + SerDeRecords.printable(startOffset)
                            + "': in the order '" + (partitionKeys.isEmpty() ? PartitionOrder.CREATE_TIME : order)
                            + "' it is a timestamp, "
                            + (timestampFormatter == null
                                    ? "yyyy-[m]m-[d]d [hh:mm:ss] such as '2020-10-01 08:00:00'"
                                    : "of the pattern '" + SerDeRecords.printable(timestampFormatter) + "' of '"
                                            + FileSystemConnectorOptions.PARTITION_TIME_EXTRACTOR_TIMESTAMP_FORMATTER
                                                    .key()
                                            + "'"),
                    e);
        }
    }

    private static String example(List<String> keys) {
        StringBuilder s = new StringBuilder("such as '");
        for (int i = 0; i < keys.size(); i++) {
            s.append(i == 0 ? "" : "/").append(keys.get(i)).append("=...");
        }
        return s.append("'").toString();
    }

    /** A wall-clock time as the milliseconds keys compare in (upstream's convention: as if UTC). */
    static long localMillis(LocalDateTime time) {
        return DefaultPartTimeExtractor.toMills(time);
    }

    /** An instant (a file's or the metastore's time) as the wall-clock milliseconds of this JVM's zone. */
    static long localMillis(long epochMillis) {
        return localMillis(
                LocalDateTime.ofInstant(java.time.Instant.ofEpochMilli(epochMillis), java.time.ZoneId.systemDefault()));
    }

    /** How often a streaming scan plans: {@code monitor-interval}, 1 min by default. */
    Optional<Duration> scanInterval() {
        return enabled
                ? Optional.of(monitorInterval != null ? monitorInterval : SCAN_MONITOR_INTERVAL)
                : Optional.empty();
    }

    /**
     * How long a temporal join serves one load: the latest partition is looked for every {@code
     * monitor-interval} (60 min by default), a bounded table is read again after {@code
     * lookup.join.cache.ttl}.
     */
    Duration lookupReloadInterval() {
        if (enabled) {
            return monitorInterval != null ? monitorInterval : LOOKUP_MONITOR_INTERVAL;
        }
        return cacheTtl;
    }

    private static <T> T get(ReadableConfig options, ConfigOption<T> option) {
        try {
            return options.get(option);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Invalid '" + option.key() + "': " + e.getMessage(), e);
        }
    }
}
