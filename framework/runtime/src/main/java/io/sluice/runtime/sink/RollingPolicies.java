package io.sluice.runtime.sink;

import io.sluice.runtime.config.Durations;
import io.sluice.spi.FileOptions;

import org.apache.flink.configuration.MemorySize;

import java.time.Duration;
import java.util.Collections;

/**
 * The built-in rolling policies, for {@link SluiceSinkBuilder#withRollingPolicy}. The defaults of
 * {@link #defaultPolicy()} are those of Flink's {@code DefaultRollingPolicy}: 128 MiB, 60 s
 * rollover, 60 s inactivity.
 */
public final class RollingPolicies {

    /** Option selecting the rolling policy by identifier. */
    public static final String KIND = FileOptions.ROLLING_POLICY.key();

    private RollingPolicies() {}

    /** Rolls on size, age and inactivity. */
    public static DefaultPolicy defaultPolicy() {
        return new DefaultPolicy(named("default")
                .with(FileOptions.ROLLING_FILE_SIZE.key(), "128mb")
                .with(FileOptions.ROLLING_ROLLOVER_INTERVAL.key(), "60 s")
                .with(FileOptions.ROLLING_INACTIVITY_INTERVAL.key(), "60 s"));
    }

    /** Rolls at every checkpoint (and only then). */
    public static ExtensionChoice onCheckpoint() {
        return named("on-checkpoint");
    }

    /** Any rolling policy extension by identifier. */
    public static ExtensionChoice named(String identifier) {
        return new ExtensionChoice(Collections.singletonMap(KIND, identifier));
    }

    /** Builder of the default policy's settings. */
    public static final class DefaultPolicy {
        private ExtensionChoice choice;

        private DefaultPolicy(ExtensionChoice choice) {
            this.choice = choice;
        }

        public DefaultPolicy withMaxPartSize(MemorySize size) {
            choice = choice.with(FileOptions.ROLLING_FILE_SIZE.key(), size.toString());
            return this;
        }

        public DefaultPolicy withRolloverInterval(Duration interval) {
            String key = FileOptions.ROLLING_ROLLOVER_INTERVAL.key();
            choice = choice.with(key, Durations.asOptionValue(key, interval));
            return this;
        }

        public DefaultPolicy withInactivityInterval(Duration interval) {
            String key = FileOptions.ROLLING_INACTIVITY_INTERVAL.key();
            choice = choice.with(key, Durations.asOptionValue(key, interval));
            return this;
        }

        public DefaultPolicy withCheckInterval(Duration interval) {
            String key = FileOptions.ROLLING_CHECK_INTERVAL.key();
            choice = choice.with(key, Durations.asOptionValue(key, interval));
            return this;
        }

        public ExtensionChoice build() {
            return choice;
        }
    }
}
