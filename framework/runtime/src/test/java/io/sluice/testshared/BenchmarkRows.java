package io.sluice.testshared;

/**
 * The values of the benchmarks' generated rows, so that every benchmark writes and reads the same
 * data: row {@code i} has a hash, 16 letters derived from it (which do not repeat, so Parquet's
 * dictionary gives up on them as it would on real names or ids) and an amount with cents.
 */
public final class BenchmarkRows {

    private BenchmarkRows() {}

    /** A well-mixed 64-bit hash of {@code i} (SplitMix64's finalizer). */
    public static long hash(long i) {
        long z = (i ^ (i >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** 16 letters from a hash. */
    public static String name(long hash) {
        char[] name = new char[16];
        for (int k = 0; k < 16; k++) {
            name[k] = (char) ('a' + ((hash >>> (4 * k)) & 0xf) + (k % 2) * 10);
        }
        return new String(name);
    }

    /** An amount below 100,000 with cents, from a hash. */
    public static double amount(long hash) {
        return Math.floorMod(hash >>> 20, 10_000_000L) / 100.0;
    }
}
