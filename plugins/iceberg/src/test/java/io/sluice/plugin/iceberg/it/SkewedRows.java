package io.sluice.plugin.iceberg.it;

import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

import java.util.SplittableRandom;

/**
 * Rows {@code (id, p)} with ids 1..n and {@code p} one of {@code keys} partition values ({@code
 * p000}, {@code p001}, ...) drawn Zipf-like (value {@code k} with weight {@code 1 / (k + 1)}), the
 * draw of id {@code i} fixed by the seed and {@code i}, so every run and every restore sees the
 * same rows.
 */
public final class SkewedRows implements GeneratorFunction<Long, RowData> {

    private static final long serialVersionUID = 1L;

    private final long seed;
    private final double[] cumulative;

    public SkewedRows(long seed, int keys) {
        this.seed = seed;
        this.cumulative = new double[keys];
        double sum = 0;
        for (int k = 0; k < keys; k++) {
            sum += 1.0 / (k + 1);
            cumulative[k] = sum;
        }
        for (int k = 0; k < keys; k++) {
            cumulative[k] /= sum;
        }
    }

    /** The partition value of id {@code id}. */
    String partitionOf(long id) {
        double u = new SplittableRandom(seed * 1_000_003L + id).nextDouble();
        int k = java.util.Arrays.binarySearch(cumulative, u);
        k = k >= 0 ? k : Math.min(-k - 1, cumulative.length - 1);
        return String.format("p%03d", k);
    }

    @Override
    public RowData map(Long index) {
        long id = index + 1;
        return GenericRowData.of(id, StringData.fromString(partitionOf(id)));
    }
}
