package io.sluice.testkit;

import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;

/**
 * A single-threaded {@link SplitEnumeratorContext} for driving a split enumerator in a test: every
 * reader is registered from the start, asynchronous calls run at once in the caller's thread, and
 * periodic calls (a continuous read's listings) run only when the test calls {@link
 * #runPeriodicCalls()}, so a test decides exactly when a listing happens relative to the files it
 * writes. It records every split assigned and every reader told that no more splits come.
 *
 * @param <SplitT> the split type
 */
public final class TestSplitEnumeratorContext<SplitT extends SourceSplit> implements SplitEnumeratorContext<SplitT> {

    private final int parallelism;
    private final Map<Integer, ReaderInfo> readers = new HashMap<>();
    private final List<Assigned<SplitT>> assigned = new ArrayList<>();
    private final Set<Integer> noMoreSplits = new LinkedHashSet<>();
    private final List<Runnable> periodic = new ArrayList<>();

    /** A context with readers {@code 0 .. parallelism - 1}, all registered. */
    public TestSplitEnumeratorContext(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
        }
        this.parallelism = parallelism;
        for (int i = 0; i < parallelism; i++) {
            readers.put(i, new ReaderInfo(i, "localhost"));
        }
    }

    /** Runs every periodic call registered so far once, in registration order. */
    public void runPeriodicCalls() {
        // a copy: a periodic call may register another one
        for (Runnable call : new ArrayList<>(periodic)) {
            call.run();
        }
    }

    /** How many periodic calls are registered (a continuous enumerator registers one on start). */
    public int periodicCallCount() {
        return periodic.size();
    }

    /** Every split assigned so far, in assignment order. */
    public List<SplitT> assignedSplits() {
        List<SplitT> splits = new ArrayList<>(assigned.size());
        for (Assigned<SplitT> a : assigned) {
            splits.add(a.split);
        }
        return splits;
    }

    /** The splits assigned to one reader so far, in assignment order. */
    public List<SplitT> assignedSplits(int subtask) {
        List<SplitT> splits = new ArrayList<>();
        for (Assigned<SplitT> a : assigned) {
            if (a.subtask == subtask) {
                splits.add(a.split);
            }
        }
        return splits;
    }

    /** The readers told that no more splits will come. */
    public Set<Integer> readersWithoutMoreSplits() {
        return Collections.unmodifiableSet(noMoreSplits);
    }

    @Override
    public SplitEnumeratorMetricGroup metricGroup() {
        return UnregisteredMetricsGroup.createSplitEnumeratorMetricGroup();
    }

    @Override
    public void sendEventToSourceReader(int subtaskId, SourceEvent event) {
        // no reader runs in this context; events have nowhere to go
    }

    @Override
    public int currentParallelism() {
        return parallelism;
    }

    @Override
    public Map<Integer, ReaderInfo> registeredReaders() {
        return Collections.unmodifiableMap(readers);
    }

    @Override
    public void assignSplits(SplitsAssignment<SplitT> assignment) {
        assignment.assignment().forEach((subtask, splits) -> {
            if (!readers.containsKey(subtask)) {
                throw new IllegalStateException("Split assigned to unregistered reader " + subtask + ": " + splits);
            }
            for (SplitT split : splits) {
                assigned.add(new Assigned<>(subtask, split));
            }
        });
    }

    @Override
    public void signalNoMoreSplits(int subtask) {
        noMoreSplits.add(subtask);
    }

    @Override
    public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler) {
        run(callable, handler);
    }

    @Override
    public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler, long initialDelay, long period) {
        periodic.add(() -> run(callable, handler));
    }

    @Override
    public void runInCoordinatorThread(Runnable runnable) {
        runnable.run();
    }

    private static <T> void run(Callable<T> callable, BiConsumer<T, Throwable> handler) {
        T result;
        try {
            result = callable.call();
        } catch (Exception e) {
            // as Flink does: the handler sees the failure and decides (an enumerator rethrows it)
            handler.accept(null, e);
            return;
        }
        handler.accept(result, null);
    }

    private static final class Assigned<SplitT> {
        final int subtask;
        final SplitT split;

        Assigned(int subtask, SplitT split) {
            this.subtask = subtask;
            this.split = split;
        }
    }
}
