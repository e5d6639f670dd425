package io.sluice.testshared.campaign;

import org.apache.flink.api.common.functions.RichMapFunction;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chained to the source: slows each subtask down to about {@code recordsPerSecond}, so a
 * STREAMING job lives through checkpoints, and injects the campaign's failure "in the source
 * after some subtasks finished": once any split's last number went by, the next number of another
 * split fails the task, once per run. The state of a run lives in this JVM (the MiniCluster's),
 * keyed by the run's id, so it survives the task's restart.
 */
public final class Pacer extends RichMapFunction<Long, Long> {

    private static final long serialVersionUID = 1L;

    private static final Map<String, RunState> RUNS = new ConcurrentHashMap<>();

    private final String runId;
    private final long[] splitEnds;
    private final int recordsPerSecond;
    private final boolean failAfterASplitFinished;
    private transient long emitted;
    private transient long startNanos;

    public Pacer(String runId, long[] splitEnds, int recordsPerSecond, boolean failAfterASplitFinished) {
        this.runId = runId;
        this.splitEnds = splitEnds.clone();
        this.recordsPerSecond = recordsPerSecond;
        this.failAfterASplitFinished = failAfterASplitFinished;
    }

    /** Whether the run's source failure was injected. */
    public static boolean injected(String runId) {
        RunState state = RUNS.get(runId);
        return state != null && state.failed.get();
    }

    /** Forgets a run. */
    public static void forget(String runId) {
        RUNS.remove(runId);
    }

    @Override
    public Long map(Long value) throws Exception {
        RunState state = RUNS.computeIfAbsent(runId, k -> new RunState());
        if (failAfterASplitFinished
                && state.finishedSplits.get() > 0
                && Arrays.binarySearch(splitEnds, value) < 0
                && state.failed.compareAndSet(false, true)) {
            throw new IllegalStateException("campaign: injected source failure at " + value + " after "
                    + state.finishedSplits.get() + " source split(s) finished");
        }
        if (Arrays.binarySearch(splitEnds, value) >= 0) {
            state.finishedSplits.incrementAndGet();
        }
        pace();
        return value;
    }

    private void pace() throws InterruptedException {
        if (recordsPerSecond <= 0) {
            return;
        }
        if (emitted++ == 0) {
            startNanos = System.nanoTime();
        }
        long due = startNanos + emitted * 1_000_000_000L / recordsPerSecond;
        long wait = due - System.nanoTime();
        if (wait > 1_000_000) {
            Thread.sleep(wait / 1_000_000);
        }
    }

    private static final class RunState {
        final AtomicInteger finishedSplits = new AtomicInteger();
        final AtomicBoolean failed = new AtomicBoolean();
    }
}
