package io.sluice.runtime.sink;

import io.sluice.runtime.config.SluiceOptions;
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

/**
 * Decides when a partition is finished, as Flink's filesystem connector does ({@code
 * sink.partition-commit.trigger}, {@code .delay}, {@code .watermark-time-zone}, {@code
 * partition.time-extractor.*}): {@code process-time} once the processing time passes the
 * partition's creation plus the delay; {@code partition-time} once the watermark passes the
 * partition's extracted time plus the delay.
 */
final class PartitionCommitTrigger {

    private enum Kind { PROCESS_TIME, PARTITION_TIME }

    private final Kind kind;
    private final long delayMillis;
    private final ZoneId watermarkZone;
    private final PartitionTimeExtractor extractor; // only for partition-time

    /** @throws IllegalArgumentException naming the option for any invalid value */
    PartitionCommitTrigger(SinkContext context) {
        ReadableConfig options = context.options();
        String trigger = options.get(SluiceOptions.PARTITION_COMMIT_TRIGGER);
        switch (trigger) {
            case "process-time":
                this.kind = Kind.PROCESS_TIME;
                break;
            case "partition-time":
                this.kind = Kind.PARTITION_TIME;
                break;
            default:
                throw new IllegalArgumentException("Invalid '" + SluiceOptions.PARTITION_COMMIT_TRIGGER.key() + "' '"
                        + trigger + "': expected 'process-time' or 'partition-time'");
        }
        this.delayMillis = options.get(SluiceOptions.PARTITION_COMMIT_DELAY).toMillis();
        String zone = options.get(SluiceOptions.PARTITION_COMMIT_WATERMARK_TIME_ZONE);
        try {
            this.watermarkZone = ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("Invalid '" + SluiceOptions.PARTITION_COMMIT_WATERMARK_TIME_ZONE.key()
                    + "' '" + zone + "': not a time zone id such as 'UTC' or 'Asia/Shanghai'", e);
        }
        this.extractor = kind == Kind.PARTITION_TIME ? createExtractor(options, context) : null;
    }

    private static PartitionTimeExtractor createExtractor(ReadableConfig options, SinkContext context) {
        String kind = options.get(SluiceOptions.PARTITION_TIME_EXTRACTOR_KIND);
        if (kind.equals("default")) {
            return new DefaultPartitionTimeExtractor(
                    options.getOptional(SluiceOptions.PARTITION_TIME_EXTRACTOR_TIMESTAMP_PATTERN).orElse(null),
                    options.get(SluiceOptions.PARTITION_TIME_EXTRACTOR_TIMESTAMP_FORMATTER));
        }
        if (kind.equals("custom")) {
            String name = options.getOptional(SluiceOptions.PARTITION_TIME_EXTRACTOR_CLASS).orElseThrow(() ->
                    new IllegalArgumentException("'" + SluiceOptions.PARTITION_TIME_EXTRACTOR_KIND.key()
                            + "' 'custom' needs '" + SluiceOptions.PARTITION_TIME_EXTRACTOR_CLASS.key() + "'"));
            return Extensions.byNameOrClass(context.extensions(), PartitionTimeExtractorFactory.class, name,
                    SluiceOptions.PARTITION_TIME_EXTRACTOR_CLASS.key()).create(context);
        }
        throw new IllegalArgumentException("Invalid '" + SluiceOptions.PARTITION_TIME_EXTRACTOR_KIND.key() + "' '"
                + kind + "': expected 'default' or 'custom'");
    }

    /** Whether the partition, first written at {@code creationTime}, is finished now. */
    boolean isReady(String partition, long creationTime, long now, long watermark) {
        if (kind == Kind.PROCESS_TIME) {
            return now >= creationTime + delayMillis;
        }
        if (watermark == Long.MIN_VALUE) {
            return false;
        }
        LinkedHashMap<String, String> spec = PartitionPaths.spec(partition);
        LocalDateTime time = extractor.extract(new ArrayList<>(spec.keySet()), new ArrayList<>(spec.values()));
        long partitionMillis = time.atZone(watermarkZone).toInstant().toEpochMilli();
        return watermark >= partitionMillis + delayMillis;
    }
}
