package io.sluice.runtime.sink.distribution.range;

import io.sluice.runtime.sink.distribution.StatisticsType;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sketch statistics end to end without a cluster: four subtasks sample 200,000 rows of 50,000
 * distinct keys, the coordinator's aggregation merges the samples, and the ranges of the merged
 * sample give four writers even shares; Auto counts exactly up to 10,000 distinct keys and samples
 * above.
 */
class SketchStatisticsTest {

    @Test
    void mergedSamplesSplitTheKeySpaceEvenly() {
        long seed = 20261201L;
        System.out.println("SketchStatisticsTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        List<TrafficCounter> counters = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
            counters.add(new TrafficCounter(StatisticsType.SKETCH, StatisticsAggregation.sampleSize(4), s));
        }
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            // skewed: low keys more often (the square of a uniform number)
            double u = random.nextDouble();
            String key = MapRangeAssignmentTest.key((int) (u * u * 50_000));
            rows.add(key);
            counters.get(i % 4).add(key);
        }
        List<KeyStatistics> parts = new ArrayList<>();
        for (TrafficCounter counter : counters) {
            parts.add(counter.takeStatistics(1));
        }
        KeyStatistics global =
                StatisticsAggregation.aggregate(1, parts, StatisticsType.SKETCH, StatisticsAggregation.sampleSize(4));
        assertThat(global.type()).isEqualTo(StatisticsType.SKETCH);
        assertThat(global.rows()).isEqualTo(200_000);

        RangeAssignment assignment = RangeAssignment.of(global, 4, 0.0, 1);
        long[] shares = new long[4];
        for (String key : rows) {
            shares[assignment.writerOf(key)]++;
        }
        for (long share : shares) {
            assertThat(share / 200_000.0).isBetween(0.25 * 0.9, 0.25 * 1.1);
        }
    }

    @Test
    void autoCountsExactlyUpToTenThousandKeysAndSamplesAbove() {
        TrafficCounter counter = new TrafficCounter(StatisticsType.AUTO, 1_000, 1);
        for (int k = 0; k < TrafficCounter.SKETCH_THRESHOLD; k++) {
            counter.add(MapRangeAssignmentTest.key(k));
        }
        assertThat(counter.sketching()).isFalse();
        counter.add(MapRangeAssignmentTest.key(-1));
        assertThat(counter.sketching()).isTrue();
        KeyStatistics statistics = counter.takeStatistics(5);
        assertThat(statistics.type()).isEqualTo(StatisticsType.SKETCH);
        assertThat(statistics.rows()).isEqualTo(TrafficCounter.SKETCH_THRESHOLD + 1);
        assertThat(statistics.sample()).hasSize(1_000);

        // the coordinator makes a sketch of Auto counts above the threshold too
        TrafficCounter a = new TrafficCounter(StatisticsType.AUTO, 1_000, 1);
        TrafficCounter b = new TrafficCounter(StatisticsType.AUTO, 1_000, 2);
        for (int k = 0; k < 6_000; k++) {
            a.add(MapRangeAssignmentTest.key(k));
            b.add(MapRangeAssignmentTest.key(k + 6_000));
        }
        KeyStatistics global = StatisticsAggregation.aggregate(
                7, List.of(a.takeStatistics(7), b.takeStatistics(7)), StatisticsType.AUTO, 2_000);
        assertThat(global.type()).isEqualTo(StatisticsType.SKETCH);
        assertThat(global.sample()).hasSize(2_000);
        // Map stays Map, whatever the cardinality
        TrafficCounter map = new TrafficCounter(StatisticsType.MAP, 1_000, 1);
        for (int k = 0; k < 12_000; k++) {
            map.add(MapRangeAssignmentTest.key(k));
        }
        assertThat(StatisticsAggregation.aggregate(8, List.of(map.takeStatistics(8)), StatisticsType.MAP, 2_000)
                        .counts())
                .hasSize(12_000);
    }
}
