package io.sluice.runtime.sink.distribution.range;

import io.sluice.runtime.sink.distribution.StatisticsType;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Merges the statistics every shuffle subtask sent for one checkpoint into the global statistics
 * the coordinator broadcasts, together with the global statistics before them at half their
 * weight: a cycle of few rows (a short or slow one) cannot swing the ranges on its own, while a
 * change of traffic outweighs the past within a cycle or two, and keys that stop coming fade out. Counts add up; once any part is a sample, or Auto statistics have
 * more than {@link TrafficCounter#SKETCH_THRESHOLD} distinct keys, the result is a sample: {@code
 * sampleSize} keys at evenly spaced quantiles of the merged traffic, each part's entries weighted
 * by the rows they stand for, so a key with more traffic appears in the sample more often.
 */
final class StatisticsAggregation {

    private StatisticsAggregation() {}

    /** The sample a Sketch keeps, per subtask and globally, for a number of writers. */
    static int sampleSize(int writers) {
        return Math.max(10_000, 100 * writers);
    }

    /**
     * The new global statistics.
     *
     * @param previous the global statistics so far, or null
     */
    static KeyStatistics aggregate(
            long checkpointId,
            Collection<KeyStatistics> cycle,
            @javax.annotation.Nullable KeyStatistics previous,
            StatisticsType configured,
            int sampleSize) {
        List<KeyStatistics> parts = new ArrayList<>(cycle);
        if (previous != null) {
            parts.add(halved(previous));
        }
        return aggregate(checkpointId, parts, configured, sampleSize);
    }

    /** The statistics at half their weight: counts halved (a key whose count reaches 0 drops out). */
    private static KeyStatistics halved(KeyStatistics statistics) {
        if (statistics.type() == StatisticsType.MAP) {
            Map<String, Long> counts = new HashMap<>();
            statistics.counts().forEach((key, count) -> {
                if (count / 2 > 0) {
                    counts.put(key, count / 2);
                }
            });
            return KeyStatistics.ofCounts(statistics.checkpointId(), counts);
        }
        return KeyStatistics.ofSample(statistics.checkpointId(), statistics.rows() / 2, statistics.sample());
    }

    /** The statistics of one cycle's parts, merged. */
    static KeyStatistics aggregate(
            long checkpointId, Collection<KeyStatistics> parts, StatisticsType configured, int sampleSize) {
        boolean sketch = configured == StatisticsType.SKETCH;
        for (KeyStatistics part : parts) {
            sketch |= part.type() == StatisticsType.SKETCH;
        }
        Map<String, Long> counts = new HashMap<>();
        if (!sketch) {
            for (KeyStatistics part : parts) {
                part.counts().forEach((key, count) -> counts.merge(key, count, Long::sum));
            }
            if (configured != StatisticsType.AUTO || counts.size() <= TrafficCounter.SKETCH_THRESHOLD) {
                return KeyStatistics.ofCounts(checkpointId, counts);
            }
        }
        // key -> the rows its entries stand for, in key order
        TreeMap<String, Double> weights = new TreeMap<>();
        long rows = 0;
        for (KeyStatistics part : parts) {
            rows += part.rows();
            if (part.type() == StatisticsType.MAP) {
                part.counts().forEach((key, count) -> weights.merge(key, (double) count, Double::sum));
            } else if (!part.sample().isEmpty()) {
                double each = (double) part.rows() / part.sample().size();
                for (String key : part.sample()) {
                    weights.merge(key, each, Double::sum);
                }
            }
        }
        return KeyStatistics.ofSample(checkpointId, rows, quantiles(weights, sampleSize));
    }

    /** {@code size} keys at the midpoints of equal slices of the cumulative weight. */
    private static List<String> quantiles(TreeMap<String, Double> weights, int size) {
        double total = 0;
        for (double weight : weights.values()) {
            total += weight;
        }
        List<String> sample = new ArrayList<>(size);
        if (total <= 0) {
            return sample;
        }
        double step = total / size;
        double next = step / 2;
        double cumulative = 0;
        for (Map.Entry<String, Double> entry : weights.entrySet()) {
            cumulative += entry.getValue();
            while (next < cumulative && sample.size() < size) {
                sample.add(entry.getKey());
                next += step;
            }
        }
        return sample;
    }
}
