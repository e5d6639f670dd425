package io.sluice.runtime.sink.distribution.range;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Map range partitioner: even shares of skewed keys, contiguous ranges, and the base weight
 * that keeps the long tail of tiny keys off a single writer (the example of Iceberg's write
 * options: 180 daily partitions, 10 writers, total weight 10,000 of which the oldest 150 days hold
 * 1,000; with base weight 0.02 no writer gets more than about 50 days).
 */
class MapRangeAssignmentTest {

    @Test
    void zipfTrafficOverAHundredKeysGivesFourWritersEvenShares() {
        Map<String, Long> counts = new HashMap<>();
        for (int k = 1; k <= 100; k++) {
            counts.put(key(k), Math.round(100_000.0 / k));
        }
        MapRangeAssignment assignment = MapRangeAssignment.of(counts, 4, 0.0, 7);

        long[] rows = new long[4];
        long total = 0;
        for (Map.Entry<String, Long> entry : counts.entrySet()) {
            for (long i = 0; i < entry.getValue(); i++) {
                rows[assignment.writerOf(entry.getKey())]++;
                total++;
            }
        }
        for (long r : rows) {
            assertThat((double) r / total).isBetween(0.25 * 0.95, 0.25 * 1.05);
        }
        // contiguous: the writers of the keys, in key order, never go back
        int last = 0;
        for (int[] writers : assignment.writersByKey().values()) {
            assertThat(writers[0]).isGreaterThanOrEqualTo(last);
            last = writers[writers.length - 1];
        }
    }

    @Test
    void aKeyTheStatisticsDoNotHaveGoesRoundRobin() {
        MapRangeAssignment assignment = MapRangeAssignment.of(Map.of(key(1), 10L), 3, 0.0, 0);
        TreeSet<Integer> writers = new TreeSet<>();
        for (int i = 0; i < 3; i++) {
            writers.add(assignment.writerOf(key(2)));
        }
        assertThat(writers).containsExactly(0, 1, 2);
    }

    @Test
    void theBaseWeightKeepsTheLongTailOfDaysFromOneWriter() {
        Map<String, Long> counts = longTail();
        Map<Integer, Integer> without = keysPerWriter(MapRangeAssignment.of(counts, 10, 0.0, 1));
        Map<Integer, Integer> with = keysPerWriter(MapRangeAssignment.of(counts, 10, 0.02, 1));
        System.out.println("days per writer, base weight 0: " + without + ", base weight 0.02: " + with);

        assertThat(without.values().stream().mapToInt(Integer::intValue).max().getAsInt())
                .as("without a base weight one writer takes the oldest ~150 days")
                .isGreaterThanOrEqualTo(140);
        // the documented bound: floor(1 / 0.02) + 2
        assertThat(with.values()).allSatisfy(days -> assertThat(days).isLessThanOrEqualTo(52));
        assertThat(with.values().stream().mapToInt(Integer::intValue).sum()).isGreaterThanOrEqualTo(180);
    }

    /** 180 days: the latest 30 hold 9,000 of the weight (300 each), the oldest 150 hold 1,000. */
    static Map<String, Long> longTail() {
        Map<String, Long> counts = new HashMap<>();
        for (int day = 0; day < 180; day++) {
            // day 0 is the oldest; 150 old days: 100 of weight 7 and 50 of weight 6 = 1,000
            long weight = day >= 150 ? 300 : (day < 100 ? 7 : 6);
            counts.put(key(day), weight);
        }
        return counts;
    }

    private static Map<Integer, Integer> keysPerWriter(MapRangeAssignment assignment) {
        Map<Integer, Integer> keys = new TreeMap<>();
        for (int[] writers : assignment.writersByKey().values()) {
            for (int writer : writers) {
                keys.merge(writer, 1, Integer::sum);
            }
        }
        return keys;
    }

    /** A sort key as the shuffle sees it: the ordered bytes of an int, one char per byte. */
    static String key(int k) {
        int v = k ^ Integer.MIN_VALUE;
        return new String(new char[] {
            1, (char) ((v >>> 24) & 0xFF), (char) ((v >>> 16) & 0xFF), (char) ((v >>> 8) & 0xFF), (char) (v & 0xFF)
        });
    }
}
