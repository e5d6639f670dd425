package io.sluice.runtime.sink.distribution.range;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Ranges of a sampled key space: {@code writers - 1} boundaries at evenly spaced positions of the
 * sorted sample, so that each writer gets about the same share of the sampled traffic; a row goes
 * to the writer whose range holds its key. A single key hotter than a writer's share is not split
 * (it sits on several equal boundaries and goes to one writer), a known limit of sampled ranges.
 */
final class SketchRangeAssignment implements RangeAssignment {

    private final String[] boundaries;

    private SketchRangeAssignment(String[] boundaries) {
        this.boundaries = boundaries;
    }

    static SketchRangeAssignment of(List<String> sample, int writers) {
        List<String> sorted = new ArrayList<>(sample);
        Collections.sort(sorted);
        String[] boundaries = new String[sorted.isEmpty() ? 0 : writers - 1];
        for (int i = 1; i < writers && !sorted.isEmpty(); i++) {
            boundaries[i - 1] = sorted.get((int) ((long) i * sorted.size() / writers));
        }
        return new SketchRangeAssignment(boundaries);
    }

    @Override
    public int writerOf(String key) {
        // the number of boundaries at or below the key: writer i holds [boundary i-1, boundary i)
        int low = 0;
        int high = boundaries.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (boundaries[mid].compareTo(key) <= 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** The boundaries (for tests and logs). */
    List<String> boundaries() {
        return Arrays.asList(boundaries.clone());
    }
}
