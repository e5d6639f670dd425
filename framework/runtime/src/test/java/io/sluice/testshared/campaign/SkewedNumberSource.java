package io.sluice.testshared.campaign;

import org.apache.flink.api.connector.source.lib.NumberSequenceSource;

import java.util.ArrayList;
import java.util.List;

/**
 * The numbers {@code 1..n} in splits of the given sizes, one split per reader as readers ask:
 * uneven input per subtask, and subtasks with no input at all when there are fewer splits than
 * readers. Flink's own sequence source, with its checkpointed positions, apart from the split sizes.
 */
public final class SkewedNumberSource extends NumberSequenceSource {

    private static final long serialVersionUID = 1L;

    private final long[] splitSizes;

    public SkewedNumberSource(long[] splitSizes) {
        super(1, total(splitSizes));
        this.splitSizes = splitSizes.clone();
    }

    private static long total(long[] sizes) {
        long n = 0;
        for (long s : sizes) {
            if (s <= 0) {
                throw new IllegalArgumentException("split sizes must be positive");
            }
            n += s;
        }
        return n;
    }

    /** The last number of each split: a reader that emits one has finished its input. */
    public static long[] splitEnds(long[] splitSizes) {
        long[] ends = new long[splitSizes.length];
        long n = 0;
        for (int i = 0; i < splitSizes.length; i++) {
            n += splitSizes[i];
            ends[i] = n;
        }
        return ends;
    }

    @Override
    protected List<NumberSequenceSplit> splitNumberRange(long from, long to, int numSplits) {
        List<NumberSequenceSplit> splits = new ArrayList<>();
        long next = from;
        for (int i = 0; i < splitSizes.length; i++) {
            splits.add(new NumberSequenceSplit(String.valueOf(i), next, next + splitSizes[i] - 1));
            next += splitSizes[i];
        }
        return splits;
    }
}
