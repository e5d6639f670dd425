package io.sluice.testshared;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The runs of one benchmark case, Sluice's beside the connector it replaces (and, where the case
 * has one, a baseline such as the generator alone), and the ratios the benchmarks report: medians
 * of each side's runs, above 1 where Sluice is ahead.
 */
public class SideBySide<R extends TimedRun> {

    public final String name;
    public final List<R> sluice = new ArrayList<>();
    public final List<R> upstream = new ArrayList<>();
    public final List<R> baseline = new ArrayList<>();
    /** Why upstream runs failed verification (excluded from the numbers and repeated). */
    public final List<String> rejected = new ArrayList<>();

    public SideBySide(String name) {
        this.name = name;
    }

    /** Median throughput of Sluice's runs over upstream's. */
    public double ratio() {
        return ratio(sluice, upstream);
    }

    /** Upstream's median CPU time over Sluice's; see {@link #cpuRatio(List, List)}. */
    public double cpuRatio() {
        return cpuRatio(sluice, upstream);
    }

    /** ABBA order of run pair {@code i}: neither side always runs first (JIT, GC, page cache drift). */
    public static String[] alternating(int i, String a, String b) {
        return i % 2 == 0 ? new String[] {a, b} : new String[] {b, a};
    }

    /** Median throughput of {@code sluice}'s runs over {@code other}'s: > 1, Sluice is faster. */
    public static double ratio(List<? extends TimedRun> sluice, List<? extends TimedRun> other) {
        return medianRate(sluice) / medianRate(other);
    }

    /** Same work for less CPU is > 1: less sensitive to other load on the machine than throughput. */
    public static double cpuRatio(List<? extends TimedRun> sluice, List<? extends TimedRun> other) {
        return medianCpuSeconds(other) / medianCpuSeconds(sluice);
    }

    public static double medianRate(List<? extends TimedRun> runs) {
        return median(runs, TimedRun::rowsPerSecond);
    }

    public static double medianCpuSeconds(List<? extends TimedRun> runs) {
        return median(runs, TimedRun::cpuSeconds);
    }

    public static <T> double median(List<? extends T> runs, ToDoubleFunction<T> value) {
        return median(runs.stream().mapToDouble(value).toArray());
    }

    public static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
