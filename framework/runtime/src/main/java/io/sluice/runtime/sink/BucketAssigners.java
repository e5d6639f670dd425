package io.sluice.runtime.sink;

import io.sluice.spi.FileOptions;

import java.time.ZoneId;
import java.util.Collections;

/**
 * The built-in bucket assigners of the {@code filesystem} target, for {@link
 * SluiceSinkBuilder#withBucketAssigner}. A third party's assigner is chosen with {@link
 * #named(String)} plus its own options.
 */
public final class BucketAssigners {

    /** Option selecting the bucket assigner by identifier. */
    public static final String KIND = FileOptions.BUCKET_ASSIGNER.key();

    private BucketAssigners() {}

    /** Buckets by processing time, {@code yyyy-MM-dd--HH} in the JVM's time zone. */
    public static ExtensionChoice dateTime() {
        return named("date-time");
    }

    /** Buckets by processing time with the given {@link java.time.format.DateTimeFormatter} pattern and zone. */
    public static ExtensionChoice dateTime(String format, ZoneId zone) {
        return named("date-time")
                .with("sink.bucket-assigner.date-time.format", format)
                .with("sink.bucket-assigner.date-time.time-zone", zone.getId());
    }

    /** Everything in the base path. */
    public static ExtensionChoice basePath() {
        return named("base-path");
    }

    /** Hive-style {@code k=v} directories from the partition keys. */
    public static ExtensionChoice partition() {
        return named("partition");
    }

    /** Any bucket assigner extension by identifier. */
    public static ExtensionChoice named(String identifier) {
        return new ExtensionChoice(Collections.singletonMap(KIND, identifier));
    }
}
