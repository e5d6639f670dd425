package io.sluice.runtime.sink;

import io.sluice.runtime.sink.distribution.range.RangeShuffleHooks;

import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the exactly-once tests fail the range shuffle's own parts, which no plugin or job function
 * reaches: the statistics operator (per row) and the coordinator's aggregation (per checkpoint). A
 * test makes one, sets what each part runs, and puts it {@link #into} its sink; {@link #clear}
 * after the test.
 *
 * <p>The hooks travel in the job graph, and each task and the JobManager deserialize their own
 * copy, again after every restart; in the JVM of a MiniCluster every copy resolves to the instance
 * the test made, so the test's counters and flags are the ones the job's parts see. Elsewhere a
 * copy does nothing.
 */
public final class RangeShuffleFaults implements RangeShuffleHooks {

    private static final long serialVersionUID = 1L;

    /** The instances of this JVM's tests, by id, until {@link #clear}. */
    private static final Map<String, RangeShuffleFaults> LIVE = new ConcurrentHashMap<>();

    private final String id = UUID.randomUUID().toString();
    private transient volatile Runnable onRecord;
    private transient volatile Runnable onAggregation;

    public RangeShuffleFaults() {
        LIVE.put(id, this);
    }

    /** Forgets every instance: copies deserialized from now on do nothing. */
    public static void clear() {
        LIVE.clear();
    }

    /** Runs {@code fault} for every row the statistics operator takes, on the task thread. */
    public RangeShuffleFaults onRecord(Runnable fault) {
        this.onRecord = Objects.requireNonNull(fault, "fault");
        return this;
    }

    /** Runs {@code fault} before the coordinator aggregates a checkpoint's statistics. */
    public RangeShuffleFaults onAggregation(Runnable fault) {
        this.onAggregation = Objects.requireNonNull(fault, "fault");
        return this;
    }

    /** {@code sink}, its range shuffle calling these hooks. */
    public SluiceSink into(SluiceSink sink) {
        return sink.withRangeShuffleHooks(this);
    }

    @Override
    public void onRecord() {
        Runnable fault = onRecord;
        if (fault != null) {
            fault.run();
        }
    }

    @Override
    public void onAggregation() {
        Runnable fault = onAggregation;
        if (fault != null) {
            fault.run();
        }
    }

    private Object readResolve() {
        return LIVE.getOrDefault(id, this);
    }
}
