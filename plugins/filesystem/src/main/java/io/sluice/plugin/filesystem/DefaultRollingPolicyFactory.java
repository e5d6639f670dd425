package io.sluice.plugin.filesystem;

import io.sluice.spi.FileOptions;
import io.sluice.spi.sink.PartFileState;
import io.sluice.spi.sink.RollingPolicy;
import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.TimeUtils;
import org.pf4j.Extension;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * {@code default}: rolls a part file when it exceeds {@code sink.rolling-policy.file-size}, is
 * older than {@code rollover-interval}, or has had no write for {@code inactivity-interval}. As in
 * Flink's DefaultRollingPolicy, the size and both intervals must be positive.
 */
@Extension
public final class DefaultRollingPolicyFactory implements RollingPolicyFactory {

    @Override
    public String identifier() {
        return "default";
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return new HashSet<>(Arrays.asList(
                FileOptions.ROLLING_FILE_SIZE,
                FileOptions.ROLLING_ROLLOVER_INTERVAL,
                FileOptions.ROLLING_INACTIVITY_INTERVAL,
                FileOptions.ROLLING_CHECK_INTERVAL));
    }

    @Override
    public RollingPolicy create(SinkContext context) {
        ReadableConfig o = context.options();
        long size = o.get(FileOptions.ROLLING_FILE_SIZE).getBytes();
        long rollover = o.get(FileOptions.ROLLING_ROLLOVER_INTERVAL).toMillis();
        long inactivity = o.get(FileOptions.ROLLING_INACTIVITY_INTERVAL).toMillis();
        if (size <= 0) {
            throw new IllegalArgumentException(
                    "Invalid 'sink.rolling-policy.file-size' " + size + ": must be positive");
        }
        // as Flink's DefaultRollingPolicy requires: a zero interval rolled every file on every
        // processing-time check, a file per check interval and bucket
        requirePositive(FileOptions.ROLLING_ROLLOVER_INTERVAL.key(), o.get(FileOptions.ROLLING_ROLLOVER_INTERVAL));
        requirePositive(FileOptions.ROLLING_INACTIVITY_INTERVAL.key(), o.get(FileOptions.ROLLING_INACTIVITY_INTERVAL));
        return new Policy(size, rollover, inactivity);
    }

    private static void requirePositive(String option, Duration interval) {
        if (interval.isNegative() || interval.toMillis() == 0) {
            throw new IllegalArgumentException("Invalid '" + option + "' " + TimeUtils.formatWithHighestUnit(interval)
                    + ": must be at least 1 ms");
        }
    }

    private static final class Policy implements RollingPolicy {
        private final long maxSize;
        private final long rolloverMillis;
        private final long inactivityMillis;

        Policy(long maxSize, long rolloverMillis, long inactivityMillis) {
            this.maxSize = maxSize;
            this.rolloverMillis = rolloverMillis;
            this.inactivityMillis = inactivityMillis;
        }

        @Override
        public boolean shouldRollOnCheckpoint(PartFileState f) {
            return f.size() > maxSize;
        }

        @Override
        public boolean shouldRollOnEvent(PartFileState f, RowData element) {
            return f.size() > maxSize;
        }

        @Override
        public boolean shouldRollOnProcessingTime(PartFileState f, long now) {
            return now - f.creationTime() >= rolloverMillis || now - f.lastUpdateTime() >= inactivityMillis;
        }
    }
}
