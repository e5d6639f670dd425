package io.sluice.it;

import io.sluice.runtime.sink.RangeShuffleFaults;
import io.sluice.runtime.sink.RollingPolicies;
import io.sluice.runtime.sink.SluiceSink;
import io.sluice.runtime.sink.SluiceSinkBuilder;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.testshared.FailoverCluster;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Exactly-once through the filesystem target with {@code distribution-mode} {@code range}: a
 * numbered sequence over 20 partitions is written by a STREAMING job with parallelism 2 and 100 ms
 * checkpoints, failed once in the statistics operator, in the writer (the {@code chaos-filesystem}
 * test plugin) or in the coordinator's aggregation, at a point drawn from a printed seed; after the
 * restart the committed files hold every number exactly once. A sink without a sort key (no
 * partition columns, no primary key) is refused.
 */
@Tag("both-lines")
class RangeDistributionExactlyOnceIT {

    private static final int PARALLELISM = 2;
    private static final long COUNT = 12_000;
    private static final int PARTITIONS = 20;

    @RegisterExtension
    static final FailoverCluster MINI_CLUSTER = new FailoverCluster(4);

    private static final RowType ROW = RowType.of(
            new org.apache.flink.table.types.logical.LogicalType[] {new BigIntType(false), new VarCharType(false, 10)},
            new String[] {"id", "p"});

    @TempDir
    Path tmp;

    @AfterEach
    void clearFaults() {
        RangeShuffleFaults.clear();
    }

    @ParameterizedTest(name = "fails in the {0}")
    @ValueSource(strings = {"statistics-operator", "writer", "coordinator"})
    void everyRecordExactlyOnce(String failure) throws Exception {
        long seed = Long.getLong("sluice.it.seed", System.nanoTime());
        System.out.println(
                "RangeDistributionExactlyOnceIT " + failure + " seed " + seed + " (-Dsluice.it.seed=" + seed + ")");
        Random random = new Random(seed);
        Path out = tmp.resolve("out");
        Map<String, String> chaos = new HashMap<>();
        chaos.put("chaos.marker-dir", tmp.resolve("markers").toString());
        AtomicLong shuffled = new AtomicLong();
        AtomicBoolean failed = new AtomicBoolean();
        long failAt = COUNT / 4 + random.nextInt((int) (COUNT / 2));
        int failAtAggregation = 2 + random.nextInt(3);
        AtomicLong aggregations = new AtomicLong();
        RangeShuffleFaults faults = new RangeShuffleFaults().onRecord(() -> {
            if (shuffled.incrementAndGet() == failAt
                    && failure.equals("statistics-operator")
                    && failed.compareAndSet(false, true)) {
                throw new IllegalStateException("chaos: injected failure in the statistics operator");
            }
        });
        if (failure.equals("coordinator")) {
            faults.onAggregation(() -> {
                if (aggregations.incrementAndGet() == failAtAggregation && failed.compareAndSet(false, true)) {
                    throw new IllegalStateException("chaos: injected failure in the coordinator's aggregation");
                }
            });
        }
        if (failure.equals("writer")) {
            chaos.put("chaos.writer.fail-after-records", String.valueOf(failAt / PARALLELISM));
        }

        StreamExecutionEnvironment env = MINI_CLUSTER.restartingEnvironment(PARALLELISM, 100);

        DataGeneratorSource<RowData> source = new DataGeneratorSource<>(
                i -> GenericRowData.of(i + 1, StringData.fromString(String.format("p%02d", skewed(i)))),
                COUNT,
                // paced by checkpoints, not by the clock: at least 12 cycles however loaded the
                // machine, so the aggregation the coordinator fails at (the 2nd to 4th) comes
                RateLimiterStrategy.perCheckpoint((int) (COUNT / 12)),
                InternalTypeInfo.of(ROW));
        SluiceSinkBuilder builder = SluiceSink.forRowData(ROW)
                .withTarget("chaos-filesystem")
                .withPluginsDir(TestDistribution.pluginsDirWithTestPlugins())
                .withPath(out.toString())
                .withFormat("csv")
                .withPartitionKeys("p")
                // small files: committed while the job runs, which the writer's failure waits for
                .withRollingPolicy(RollingPolicies.defaultPolicy()
                        .withMaxPartSize(org.apache.flink.configuration.MemorySize.parse("1kb")))
                .distributionMode(DistributionMode.RANGE)
                .withOptions(chaos);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "numbers").sinkTo(faults.into(builder.build()));
        env.execute("range exactly-once, fails in the " + failure);

        if (failure.equals("writer")) {
            assertThat(Files.exists(tmp.resolve("markers")))
                    .as("the failure was injected")
                    .isTrue();
        } else {
            assertThat(failed).as("the failure was injected").isTrue();
        }
        assertThat(shuffled.get()).as("rows through the range shuffle").isGreaterThanOrEqualTo(COUNT);
        List<Long> ids = CommittedFiles.lines(out).stream()
                .map(l -> Long.parseLong(l.split(",")[0]))
                .collect(Collectors.toList());
        assertThat(ids)
                .as(() -> "committed files: " + CommittedFiles.visible(out))
                .hasSize((int) COUNT);
        assertThat(ids.stream().distinct().count()).isEqualTo(COUNT);
        assertThat(ids.stream().mapToLong(Long::longValue).min().getAsLong()).isEqualTo(1);
        assertThat(ids.stream().mapToLong(Long::longValue).max().getAsLong()).isEqualTo(COUNT);
    }

    @Test
    void aSinkWithoutSortKeyIsRefusedAndBadOptionsNameThemselves() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        DataGeneratorSource<RowData> source = new DataGeneratorSource<>(
                i -> GenericRowData.of(i + 1, StringData.fromString("p")), 10, InternalTypeInfo.of(ROW));
        SluiceSinkBuilder unpartitioned = SluiceSink.forRowData(ROW)
                .withTarget("filesystem")
                .withPluginsDir(TestDistribution.pluginsDir())
                .withPath(tmp.resolve("plain").toString())
                .withFormat("csv")
                .distributionMode(DistributionMode.RANGE);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "numbers").sinkTo(unpartitioned.build());
        assertThatThrownBy(() -> env.execute("range without a sort key"))
                .hasStackTraceContaining("Invalid distribution mode 'range' for target 'filesystem'")
                .hasStackTraceContaining("neither partition columns nor a key");
        assertThat(tmp.resolve("plain")).doesNotExist();

        assertThatThrownBy(() -> SluiceSink.forRowData(ROW)
                        .withTarget("filesystem")
                        .withPluginsDir(TestDistribution.pluginsDir())
                        .withPath(tmp.resolve("bad").toString())
                        .withFormat("csv")
                        .withPartitionKeys("p")
                        .distributionMode(DistributionMode.RANGE)
                        .withOption("range-distribution-statistics-type", "Histogram")
                        .build())
                .hasStackTraceContaining("'range-distribution-statistics-type' 'Histogram': one of Map, Sketch, Auto");
        assertThatThrownBy(() -> SluiceSink.forRowData(ROW)
                        .withTarget("filesystem")
                        .withPluginsDir(TestDistribution.pluginsDir())
                        .withPath(tmp.resolve("bad").toString())
                        .withFormat("csv")
                        .withPartitionKeys("p")
                        .distributionMode(DistributionMode.RANGE)
                        .rangeDistributionSortKeyBaseWeight(1.5)
                        .build())
                .hasStackTraceContaining("'range-distribution-sort-key-base-weight' '1.5': must be in [0, 1)");
    }

    /** Partition {@code p<k>} of row {@code i}, skewed: low partitions far more often. */
    private static int skewed(long i) {
        double u = new Random(i * 7919).nextDouble();
        return (int) (u * u * u * PARTITIONS);
    }
}
