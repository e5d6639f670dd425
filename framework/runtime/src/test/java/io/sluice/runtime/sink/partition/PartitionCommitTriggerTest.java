package io.sluice.runtime.sink.partition;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The partition commit trigger decides as Flink's filesystem connector does: process-time after
 * the partition's creation plus the delay; partition-time once the watermark passes the
 * partition's extracted time (in the watermark time zone) plus the delay; bad values are errors
 * naming the option.
 */
class PartitionCommitTriggerTest {

    private static final long HOUR = 3_600_000L;

    private static PartitionCommitTrigger committer(String... keyValues) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            options.put(keyValues[i], keyValues[i + 1]);
        }
        return new PartitionCommitTrigger(new Context(options));
    }

    private static long utc(String dateTime) {
        return LocalDateTime.parse(dateTime).toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    @Test
    void processTimeWaitsForCreationPlusDelay() throws Exception {
        PartitionCommitTrigger noDelay = committer();
        assertThat(noDelay.isReady("dt=x", 1000, 1000, Long.MIN_VALUE)).isTrue();
        PartitionCommitTrigger hour = committer("sink.partition-commit.delay", "1 h");
        assertThat(hour.isReady("dt=x", 1000, 1000 + HOUR - 1, Long.MIN_VALUE)).isFalse();
        assertThat(hour.isReady("dt=x", 1000, 1000 + HOUR, Long.MIN_VALUE)).isTrue();
    }

    @Test
    void partitionTimeWaitsForTheWatermark() throws Exception {
        PartitionCommitTrigger day =
                committer("sink.partition-commit.trigger", "partition-time", "sink.partition-commit.delay", "1 d");
        long endOfDay = utc("2024-01-02T00:00:00");
        assertThat(day.isReady("dt=2024-01-01", 0, Long.MAX_VALUE, Long.MIN_VALUE))
                .as("no watermark yet")
                .isFalse();
        assertThat(day.isReady("dt=2024-01-01", 0, 0, endOfDay - 1)).isFalse();
        assertThat(day.isReady("dt=2024-01-01", 0, 0, endOfDay)).isTrue();
    }

    @Test
    void timestampPatternAndTimeZone() throws Exception {
        PartitionCommitTrigger hourly = committer(
                "sink.partition-commit.trigger",
                "partition-time",
                "partition.time-extractor.timestamp-pattern",
                "$dt $hour:00:00",
                "sink.partition-commit.delay",
                "1 h",
                "sink.partition-commit.watermark-time-zone",
                "Asia/Shanghai");
        // 2024-01-01 10:00 in Shanghai is 02:00 UTC; plus one hour of delay
        long ready = utc("2024-01-01T03:00:00");
        assertThat(hourly.isReady("dt=2024-01-01/hour=10", 0, 0, ready - 1)).isFalse();
        assertThat(hourly.isReady("dt=2024-01-01/hour=10", 0, 0, ready)).isTrue();
    }

    @Test
    void customFormatter() throws Exception {
        PartitionCommitTrigger compact = committer(
                "sink.partition-commit.trigger",
                "partition-time",
                "partition.time-extractor.timestamp-formatter",
                "yyyyMMdd");
        assertThat(compact.isReady("day=20240105", 0, 0, utc("2024-01-05T00:00:00")))
                .isTrue();
        assertThat(compact.isReady("day=20240105", 0, 0, utc("2024-01-04T23:59:59")))
                .isFalse();
    }

    @Test
    void badValuesNameTheOption() throws Exception {
        assertThatThrownBy(() -> committer("sink.partition-commit.trigger", "sometimes"))
                .hasMessageContaining("sink.partition-commit.trigger")
                .hasMessageContaining("sometimes");
        assertThatThrownBy(() -> committer("sink.partition-commit.watermark-time-zone", "Mars/Olympus"))
                .hasMessageContaining("sink.partition-commit.watermark-time-zone")
                .hasMessageContaining("Mars/Olympus");
        assertThatThrownBy(() -> committer(
                        "sink.partition-commit.trigger",
                        "partition-time",
                        "partition.time-extractor.timestamp-formatter",
                        "yyyy bbbb"))
                .hasMessageContaining("partition.time-extractor.timestamp-formatter")
                .hasMessageContaining("yyyy bbbb");
        PartitionCommitTrigger daily = committer("sink.partition-commit.trigger", "partition-time");
        assertThatThrownBy(() -> daily.isReady("dt=not-a-date", 0, 0, 0))
                .isInstanceOf(io.sluice.spi.NonRecoverableException.class)
                .hasMessageContaining("not-a-date")
                .hasMessageContaining("partition.time-extractor.timestamp-formatter");
    }

    private static void validate(List<String> partitionKeys, String... keyValues) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            options.put(keyValues[i], keyValues[i + 1]);
        }
        PartitionCommitTrigger.validate(
                Configuration.fromMap(options), Arrays.asList("id", "dt", "hour"), partitionKeys);
    }

    @Test
    void everyOptionIsCheckedWithoutACommitPolicyOrThePartitionTimeTrigger() throws Exception {
        List<String> keys = Arrays.asList("dt", "hour");
        assertThatThrownBy(() -> validate(keys, "sink.partition-commit.trigger", "sometimes"))
                .hasMessageContaining("sink.partition-commit.trigger")
                .hasMessageContaining("sometimes");
        assertThatThrownBy(() -> validate(keys, "sink.partition-commit.watermark-time-zone", "Mars/Olympus"))
                .hasMessageContaining("sink.partition-commit.watermark-time-zone")
                .hasMessageContaining("Mars/Olympus");
        // process-time (the default) never parses partition times, yet a bad formatter is still an error
        assertThatThrownBy(() -> validate(keys, "partition.time-extractor.timestamp-formatter", "yyyy bbbb"))
                .hasMessageContaining("partition.time-extractor.timestamp-formatter")
                .hasMessageContaining("yyyy bbbb");
        assertThatThrownBy(() -> validate(keys, "partition.time-extractor.kind", "magic"))
                .hasMessageContaining("partition.time-extractor.kind")
                .hasMessageContaining("magic");
        validate(
                keys,
                "partition.time-extractor.timestamp-pattern",
                "$dt $hour:00:00",
                "sink.partition-commit.watermark-time-zone",
                "Asia/Shanghai");
    }

    @Test
    void theTimestampPatternNamesOnlyPartitionColumns() throws Exception {
        List<String> keys = Arrays.asList("dt", "hour");
        assertThatThrownBy(() -> validate(keys, "partition.time-extractor.timestamp-pattern", "$dt $nope:00:00"))
                .hasMessageContaining("partition.time-extractor.timestamp-pattern")
                .hasMessageContaining("$dt $nope:00:00")
                .hasMessageContaining("'$nope' is not a column of the table")
                .hasMessageContaining("[dt, hour]");
        assertThatThrownBy(() -> validate(keys, "partition.time-extractor.timestamp-pattern", "$dt $id:00:00"))
                .hasMessageContaining("'$id' is not a partition column");
        assertThatThrownBy(() -> validate(Collections.emptyList(), "partition.time-extractor.timestamp-pattern", "$dt"))
                .hasMessageContaining("'$dt' is not a partition column");
        // Flink's extractor replaces '$' + key, so a key followed by more letters still works
        validate(keys, "partition.time-extractor.timestamp-pattern", "$dt${hour}x $hourh");
    }

    /** A sink context with options and, for commit policies, the extensions given (none by default). */
    static final class Context implements SinkContext {
        private final Map<String, String> options;
        private final ExtensionLookup extensions;

        Context(Map<String, String> options) {
            this(options, new ExtensionLookup() {
                @Override
                public <T extends SluiceFactory> T find(Class<T> type, String identifier) {
                    throw new IllegalArgumentException("no plugins in this test");
                }

                @Override
                public List<String> identifiers(Class<? extends SluiceFactory> type) {
                    return Collections.emptyList();
                }
            });
        }

        Context(Map<String, String> options, ExtensionLookup extensions) {
            this.options = options;
            this.extensions = extensions;
        }

        @Override
        public RowType rowType() {
            return RowType.of(new VarCharType());
        }

        @Override
        public List<String> partitionKeys() {
            return Arrays.asList("dt");
        }

        @Override
        public ReadableConfig options() {
            return Configuration.fromMap(options);
        }

        @Override
        public Map<String, String> rawOptions() {
            return Collections.unmodifiableMap(options);
        }

        @Override
        public String jobId() {
            return "test";
        }

        @Override
        public int subtaskIndex() {
            return 0;
        }

        @Override
        public int numberOfSubtasks() {
            return 1;
        }

        @Override
        public MetricGroup metricGroup() {
            return UnregisteredMetricsGroup.createSinkWriterMetricGroup();
        }

        @Override
        public ExtensionLookup extensions() {
            return extensions;
        }
    }
}
