package io.sluice.runtime.sink.distribution.range;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Ranges of exactly counted keys: the keys in their order are laid end to end by weight, and
 * writer {@code i} takes the slice {@code [i, i + 1)} of writers' target weights, so every writer
 * gets the same weight, a key heavier than the remainder of a writer's slice is split over the
 * following writers (its rows go to them at random in proportion), and each writer sees a narrow,
 * contiguous run of keys. A key the statistics do not have goes round-robin until they do.
 *
 * <p>With a base weight {@code b}, every key weighs at least {@code b} times a writer's target
 * weight (the target computed with those weights), so a writer holds at most {@code floor(1 / b) +
 * 2} keys: whole keys weigh at least {@code b} each, plus at most one split key at each end of its
 * slice. When the keys are so many that base weights alone exceed the writers ({@code keys * b >=
 * writers}), every key weighs the same and each writer holds about {@code keys / writers}.
 */
final class MapRangeAssignment implements RangeAssignment {

    /** The writers one key's rows go to, with the cumulative shares of its traffic. */
    private static final class KeyWriters {
        final int[] writers;
        final double[] cumulative;

        KeyWriters(int[] writers, double[] cumulative) {
            this.writers = writers;
            this.cumulative = cumulative;
        }
    }

    private final Map<String, KeyWriters> assignment;
    private final int writers;
    private final SplittableRandom random;
    private int nextUnknown;

    private MapRangeAssignment(Map<String, KeyWriters> assignment, int writers, long seed) {
        this.assignment = assignment;
        this.writers = writers;
        this.random = new SplittableRandom(seed);
        this.nextUnknown = (int) Math.floorMod(seed, (long) writers);
    }

    static MapRangeAssignment of(Map<String, Long> counts, int writers, double baseWeight, long seed) {
        TreeMap<String, Long> ordered = new TreeMap<>(counts);
        double[] weights = weights(ordered.values(), writers, baseWeight);
        double total = 0;
        for (double weight : weights) {
            total += weight;
        }
        double target = total / writers;
        double epsilon = target * 1e-9;
        Map<String, KeyWriters> assignment = new HashMap<>(Math.max(16, ordered.size() * 2));
        int writer = 0;
        double room = target;
        int k = 0;
        for (String key : ordered.keySet()) {
            double weight = weights[k++];
            List<int[]> owners = new ArrayList<>();
            List<Double> shares = new ArrayList<>();
            double left = weight;
            do {
                double take = writer == writers - 1 ? left : Math.min(left, room);
                if (take > epsilon || owners.isEmpty()) {
                    owners.add(new int[] {writer});
                    shares.add(take);
                }
                left -= take;
                room -= take;
                if (room <= epsilon && writer < writers - 1) {
                    writer++;
                    room = target;
                }
            } while (left > epsilon);
            int[] owned = new int[owners.size()];
            double[] cumulative = new double[owners.size()];
            double sum = 0;
            for (int i = 0; i < owned.length; i++) {
                owned[i] = owners.get(i)[0];
                sum += shares.get(i);
                cumulative[i] = weight > 0 ? sum / weight : (i + 1.0) / owned.length;
            }
            cumulative[owned.length - 1] = 1.0;
            assignment.put(key, new KeyWriters(owned, cumulative));
        }
        return new MapRangeAssignment(assignment, writers, seed);
    }

    /**
     * Each key's weight: its count, raised to {@code baseWeight} times a writer's target weight,
     * where the target is the total of these weights over the writers (a fixed point, found by
     * iteration: the step shrinks by the factor {@code keys * baseWeight / writers} each time).
     */
    private static double[] weights(java.util.Collection<Long> counts, int writers, double baseWeight) {
        double[] raw = new double[counts.size()];
        int i = 0;
        double total = 0;
        for (long count : counts) {
            raw[i++] = count;
            total += count;
        }
        if (baseWeight <= 0 || raw.length == 0) {
            return raw;
        }
        if (raw.length * baseWeight >= writers) {
            double[] even = new double[raw.length];
            Arrays.fill(even, 1.0);
            return even;
        }
        double floor = baseWeight * total / writers;
        for (int round = 0; round < 200; round++) {
            double sum = 0;
            for (double w : raw) {
                sum += Math.max(w, floor);
            }
            double next = baseWeight * sum / writers;
            if (Math.abs(next - floor) <= floor * 1e-12) {
                floor = next;
                break;
            }
            floor = next;
        }
        double[] weighted = new double[raw.length];
        for (int j = 0; j < raw.length; j++) {
            weighted[j] = Math.max(raw[j], floor);
        }
        return weighted;
    }

    @Override
    public int writerOf(String key) {
        KeyWriters owners = assignment.get(key);
        if (owners == null) {
            int writer = nextUnknown;
            nextUnknown = (nextUnknown + 1) % writers;
            return writer;
        }
        if (owners.writers.length == 1) {
            return owners.writers[0];
        }
        double r = random.nextDouble();
        int i = Arrays.binarySearch(owners.cumulative, r);
        // the first share whose cumulative bound is above r
        i = i >= 0 ? Math.min(i + 1, owners.writers.length - 1) : -i - 1;
        return owners.writers[i];
    }

    /** The writers each key goes to (for tests and logs). */
    Map<String, int[]> writersByKey() {
        Map<String, int[]> writersByKey = new TreeMap<>();
        assignment.forEach((key, owners) -> writersByKey.put(key, owners.writers.clone()));
        return writersByKey;
    }
}
