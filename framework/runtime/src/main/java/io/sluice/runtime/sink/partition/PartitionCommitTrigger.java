package io.sluice.runtime.sink.partition;

import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.Extensions;
import io.sluice.spi.NonRecoverableException;
import io.sluice.spi.partition.PartitionPaths;
import io.sluice.spi.partition.PartitionTimeExtractor;
import io.sluice.spi.partition.PartitionTimeExtractorFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.ReadableConfig;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides when a partition is finished, as Flink's filesystem connector does ({@code
 * sink.partition-commit.trigger}, {@code .delay}, {@code .watermark-time-zone}, {@code
 * partition.time-extractor.*}): {@code process-time} once the processing time passes the
 * partition's creation plus the delay; {@code partition-time} once the watermark passes the
 * partition's extracted time plus the delay.
 */
public final class PartitionCommitTrigger {

    private enum Kind {
        PROCESS_TIME,
        PARTITION_TIME
    }

    private final Kind kind;
    private final long delayMillis;
    private final ZoneId watermarkZone;
    private final PartitionTimeExtractor extractor; // only for partition-time

    /** @throws IllegalArgumentException naming the option for any invalid value */
    public PartitionCommitTrigger(SinkContext context) {
        ReadableConfig options = context.options();
        this.kind = kind(options);
        this.delayMillis = options.get(SluiceOptions.PARTITION_COMMIT_DELAY).toMillis();
        this.watermarkZone = watermarkZone(options);
        this.extractor = kind == Kind.PARTITION_TIME ? createExtractor(options, context) : null;
    }

    /**
     * Checks every trigger and time-extractor option on the client, whether or not a commit policy
     * uses them: a value the README documents must be an error when it is wrong, not only once a
     * later change of another option starts to read it. A timestamp pattern may only name partition
     * columns, since only those have values in a partition's path.
     *
     * @param columns the sink's columns, to tell a column that is not a partition column from one
     *     that does not exist
     * @throws IllegalArgumentException naming the option and the value
     */
    public static void validate(ReadableConfig options, List<String> columns, List<String> partitionKeys) {
        kind(options);
        watermarkZone(options);
        String extractorKind = options.get(SluiceOptions.PARTITION_TIME_EXTRACTOR_KIND);
        if (!extractorKind.equals("default") && !extractorKind.equals("custom")) {
            throw new IllegalArgumentException("Invalid '" + SluiceOptions.PARTITION_TIME_EXTRACTOR_KIND.key() + "' '"
                    + extractorKind + "': expected 'default' or 'custom'");
        }
        // the constructor parses the formatter and reports it with the option's name
        new DefaultPartitionTimeExtractor(
                null, options.get(SluiceOptions.PARTITION_TIME_EXTRACTOR_TIMESTAMP_FORMATTER));
        String pattern = options.getOptional(SluiceOptions.PARTITION_TIME_EXTRACTOR_TIMESTAMP_PATTERN)
                .orElse(null);
        if (pattern != null) {
            checkPattern(pattern, columns, partitionKeys);
        }
    }

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");

    private static void checkPattern(String pattern, List<String> columns, List<String> partitionKeys) {
        Matcher m = PLACEHOLDER.matcher(pattern);
        while (m.find()) {
            String name = m.group(1);
            // '$dthour' still works when 'dt' is a key: the extractor replaces '$' + key, as Flink's does
            boolean substituted = partitionKeys.stream().anyMatch(name::startsWith);
            if (substituted) {
                continue;
            }
            String what = columns.contains(name) ? "is not a partition column" : "is not a column of the table";
            throw new IllegalArgumentException(
                    "Invalid '" + SluiceOptions.PARTITION_TIME_EXTRACTOR_TIMESTAMP_PATTERN.key() + "' '" + pattern
                            + "': '$" + name + "' " + what + "; partition columns: " + partitionKeys);
        }
    }

    private static Kind kind(ReadableConfig options) {
        String trigger = options.get(SluiceOptions.PARTITION_COMMIT_TRIGGER);
        switch (trigger) {
            case "process-time":
                return Kind.PROCESS_TIME;
            case "partition-time":
                return Kind.PARTITION_TIME;
            default:
                throw new IllegalArgumentException("Invalid '" + SluiceOptions.PARTITION_COMMIT_TRIGGER.key() + "' '"
                        + trigger + "': expected 'process-time' or 'partition-time'");
        }
    }

    private static ZoneId watermarkZone(ReadableConfig options) {
        String zone = options.get(SluiceOptions.PARTITION_COMMIT_WATERMARK_TIME_ZONE);
        try {
            return ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(
                    "Invalid '" + SluiceOptions.PARTITION_COMMIT_WATERMARK_TIME_ZONE.key() + "' '" + zone
                            + "': not a time zone id such as 'UTC' or 'Asia/Shanghai'",
                    e);
        }
    }

    private static PartitionTimeExtractor createExtractor(ReadableConfig options, SinkContext context) {
        String kind = options.get(SluiceOptions.PARTITION_TIME_EXTRACTOR_KIND);
        if (kind.equals("default")) {
            return new DefaultPartitionTimeExtractor(
                    options.getOptional(SluiceOptions.PARTITION_TIME_EXTRACTOR_TIMESTAMP_PATTERN)
                            .orElse(null),
                    options.get(SluiceOptions.PARTITION_TIME_EXTRACTOR_TIMESTAMP_FORMATTER));
        }
        if (kind.equals("custom")) {
            String name = options.getOptional(SluiceOptions.PARTITION_TIME_EXTRACTOR_CLASS)
                    .orElseThrow(
                            () -> new IllegalArgumentException("'" + SluiceOptions.PARTITION_TIME_EXTRACTOR_KIND.key()
                                    + "' 'custom' needs '" + SluiceOptions.PARTITION_TIME_EXTRACTOR_CLASS.key() + "'"));
            return Extensions.byNameOrClass(
                            context.extensions(),
                            PartitionTimeExtractorFactory.class,
                            name,
                            SluiceOptions.PARTITION_TIME_EXTRACTOR_CLASS.key())
                    .create(context);
        }
        throw new IllegalArgumentException("Invalid '" + SluiceOptions.PARTITION_TIME_EXTRACTOR_KIND.key() + "' '"
                + kind + "': expected 'default' or 'custom'");
    }

    /**
     * Whether the partition, first written at {@code creationTime}, is finished now.
     *
     * @throws NonRecoverableException if the partition's time cannot be extracted
     */
    public boolean isReady(String partition, long creationTime, long now, long watermark)
            throws NonRecoverableException {
        if (kind == Kind.PROCESS_TIME) {
            return now >= creationTime + delayMillis;
        }
        if (watermark == Long.MIN_VALUE) {
            return false;
        }
        long partitionMillis =
                partitionTime(partition).atZone(watermarkZone).toInstant().toEpochMilli();
        return watermark >= partitionMillis + delayMillis;
    }

    /**
     * Checks, for {@code partition-time}, that a new partition's time can be extracted: as soon as
     * it is written, not when a watermark (or the end of input, which commits every partition)
     * comes, so that a value that is not a time fails the job instead of being committed or
     * waiting forever.
     *
     * @throws NonRecoverableException naming the partition, the option and the pattern
     */
    public void checkTime(String partition) throws NonRecoverableException {
        if (kind == Kind.PARTITION_TIME) {
            partitionTime(partition);
        }
    }

    private LocalDateTime partitionTime(String partition) throws NonRecoverableException {
        LinkedHashMap<String, String> spec = PartitionPaths.spec(partition);
        try {
            return extractor.extract(new ArrayList<>(spec.keySet()), new ArrayList<>(spec.values()));
        } catch (IllegalArgumentException | DateTimeException e) {
            // the extractor is a function of the partition's values: every attempt fails alike
            throw new NonRecoverableException(
                    "Partition '" + partition + "' has no time for '" + SluiceOptions.PARTITION_COMMIT_TRIGGER.key()
                            + "' 'partition-time': " + e.getMessage(),
                    e);
        }
    }
}
