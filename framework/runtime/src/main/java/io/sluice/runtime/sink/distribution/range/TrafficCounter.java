package io.sluice.runtime.sink.distribution.range;

import io.sluice.runtime.sink.distribution.StatisticsType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What one shuffle subtask counts of the sort keys it sees between two checkpoints: exact counts
 * (Map) or a uniform reservoir sample (Sketch, Vitter's algorithm R). With {@link
 * StatisticsType#AUTO} it counts exactly until it has seen more than {@link #SKETCH_THRESHOLD}
 * distinct keys in a cycle, or until the coordinator's statistics are a sketch, and samples from
 * then on. Used by the task thread only.
 */
final class TrafficCounter {

    /** Distinct keys above which Auto statistics become a sketch, as upstream's. */
    static final int SKETCH_THRESHOLD = 10_000;

    private final StatisticsType type;
    private final int reservoirSize;
    private final SplittableRandom random;
    private boolean sketching;
    private Map<String, long[]> counts = new HashMap<>();
    private String[] reservoir;
    private long rows;

    /**
     * @param reservoirSize the sample a Sketch keeps per cycle
     * @param seed of the sampling; a subtask's own, so that subtasks do not sample in step
     */
    TrafficCounter(StatisticsType type, int reservoirSize, long seed) {
        this.type = type;
        this.reservoirSize = reservoirSize;
        this.random = new SplittableRandom(seed);
        this.sketching = type == StatisticsType.SKETCH;
        this.reservoir = sketching ? new String[reservoirSize] : null;
    }

    /** Counts one row of the key. */
    void add(String key) {
        if (sketching) {
            sample(key);
            return;
        }
        rows++;
        counts.computeIfAbsent(key, k -> new long[1])[0]++;
        if (type == StatisticsType.AUTO && counts.size() > SKETCH_THRESHOLD) {
            switchToSketch();
        }
    }

    /** Whether the counter samples (Sketch) rather than counts (Map). */
    boolean sketching() {
        return sketching;
    }

    /**
     * From now on a sample: the counts of this cycle so far go into it as the rows they counted,
     * so the sample is as if the cycle had been sampled from its start. Only Auto switches.
     */
    void switchToSketch() {
        if (sketching || type != StatisticsType.AUTO) {
            return;
        }
        sketching = true;
        reservoir = new String[reservoirSize];
        Map<String, long[]> counted = counts;
        counts = new HashMap<>();
        rows = 0;
        for (Map.Entry<String, long[]> entry : counted.entrySet()) {
            for (long i = 0; i < entry.getValue()[0]; i++) {
                sample(entry.getKey());
            }
        }
    }

    private void sample(String key) {
        rows++;
        if (rows <= reservoirSize) {
            reservoir[(int) (rows - 1)] = key;
        } else {
            long slot = random.nextLong(rows);
            if (slot < reservoirSize) {
                reservoir[(int) slot] = key;
            }
        }
    }

    /** This cycle's statistics, labelled with the checkpoint that ends it; the counter starts over. */
    KeyStatistics takeStatistics(long checkpointId) {
        KeyStatistics statistics;
        if (sketching) {
            int size = (int) Math.min(rows, reservoirSize);
            List<String> sample = new ArrayList<>(Arrays.asList(reservoir).subList(0, size));
            statistics = KeyStatistics.ofSample(checkpointId, rows, sample);
            Arrays.fill(reservoir, null);
        } else {
            Map<String, Long> exact = new HashMap<>(Math.max(16, counts.size() * 2));
            counts.forEach((key, count) -> exact.put(key, count[0]));
            statistics = KeyStatistics.ofCounts(checkpointId, exact);
            counts = new HashMap<>();
        }
        rows = 0;
        return statistics;
    }
}
