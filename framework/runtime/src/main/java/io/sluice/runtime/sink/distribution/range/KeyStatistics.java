package io.sluice.runtime.sink.distribution.range;

import io.sluice.runtime.sink.distribution.StatisticsType;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The traffic of sort keys over one checkpoint cycle, as one subtask counted it or as the
 * coordinator aggregated it: exact counts per key ({@link StatisticsType#MAP}) or a sample of the
 * keys in which each entry stands for {@code rows / sample.size()} rows ({@link
 * StatisticsType#SKETCH}). Keys are strings whose characters are the key's bytes (ISO-8859-1), so
 * that {@link String#compareTo} is the unsigned byte order of the target's key.
 *
 * <p>Independent of the number of writers: restored with another parallelism, the same statistics
 * give the new writers their ranges.
 */
final class KeyStatistics {

    private final long checkpointId;
    private final StatisticsType type;
    private final long rows;
    private final Map<String, Long> counts;
    private final List<String> sample;

    private KeyStatistics(
            long checkpointId, StatisticsType type, long rows, Map<String, Long> counts, List<String> sample) {
        this.checkpointId = checkpointId;
        this.type = type;
        this.rows = rows;
        this.counts = counts;
        this.sample = sample;
    }

    static KeyStatistics ofCounts(long checkpointId, Map<String, Long> counts) {
        long rows = 0;
        for (long count : counts.values()) {
            rows += count;
        }
        return new KeyStatistics(
                checkpointId, StatisticsType.MAP, rows, Collections.unmodifiableMap(counts), Collections.emptyList());
    }

    static KeyStatistics ofSample(long checkpointId, long rows, List<String> sample) {
        return new KeyStatistics(
                checkpointId,
                StatisticsType.SKETCH,
                rows,
                Collections.emptyMap(),
                Collections.unmodifiableList(sample));
    }

    /** The checkpoint whose cycle these statistics count (the last one counted, once aggregated). */
    long checkpointId() {
        return checkpointId;
    }

    /** {@link StatisticsType#MAP} or {@link StatisticsType#SKETCH}. */
    StatisticsType type() {
        return type;
    }

    /** The rows counted. */
    long rows() {
        return rows;
    }

    /** MAP: rows per key. */
    Map<String, Long> counts() {
        return counts;
    }

    /** SKETCH: the sampled keys, in no particular order. */
    List<String> sample() {
        return sample;
    }

    /** The number of distinct keys: exact for MAP, of the sample for SKETCH. */
    long distinctKeys() {
        return type == StatisticsType.MAP
                ? counts.size()
                : sample.stream().distinct().count();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof KeyStatistics)) {
            return false;
        }
        KeyStatistics other = (KeyStatistics) o;
        return checkpointId == other.checkpointId
                && type == other.type
                && rows == other.rows
                && counts.equals(other.counts)
                && sample.equals(other.sample);
    }

    @Override
    public int hashCode() {
        return Objects.hash(checkpointId, type, rows, counts, sample);
    }

    @Override
    public String toString() {
        return type.optionValue() + " statistics of checkpoint " + checkpointId + ": " + rows + " rows, "
                + (type == StatisticsType.MAP ? counts.size() + " keys" : sample.size() + " sampled keys");
    }
}
