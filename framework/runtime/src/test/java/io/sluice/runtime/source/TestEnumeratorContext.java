package io.sluice.runtime.source;

import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;

/**
 * A single-threaded enumerator context with two readers: periodic calls run when the test says
 * so, one-off calls at once; it records the splits assigned and the readers told there are no more.
 */
public final class TestEnumeratorContext<S extends SourceSplit> implements SplitEnumeratorContext<S> {

    private final List<S> assigned = new ArrayList<>();
    private final Set<Integer> finished = new HashSet<>();
    private final List<Periodic<?>> periodic = new ArrayList<>();
    private final Map<Integer, ReaderInfo> readers = new HashMap<>();

    public TestEnumeratorContext() {
        readers.put(0, new ReaderInfo(0, "localhost"));
        readers.put(1, new ReaderInfo(1, "localhost"));
    }

    /** Runs every periodic call once, in registration order. */
    public void runPeriodic() {
        periodic.forEach(call -> call.call().run());
    }

    /**
     * Runs every periodic call twice before handing either result over, as Flink's worker thread
     * may when the coordinator thread is slow: both calls see the same state.
     */
    public void runPeriodicTwiceBeforeHandling() {
        List<Runnable> handlers = new ArrayList<>();
        for (Periodic<?> call : periodic) {
            handlers.add(call.call());
            handlers.add(call.call());
        }
        handlers.forEach(Runnable::run);
    }

    public List<S> assigned() {
        return assigned;
    }

    /** The readers told that no more splits will come. */
    public Set<Integer> finished() {
        return finished;
    }

    @Override
    public SplitEnumeratorMetricGroup metricGroup() {
        throw new UnsupportedOperationException("no metrics in this test");
    }

    @Override
    public void sendEventToSourceReader(int subtaskId, SourceEvent event) {}

    @Override
    public int currentParallelism() {
        return readers.size();
    }

    @Override
    public Map<Integer, ReaderInfo> registeredReaders() {
        return readers;
    }

    @Override
    public void assignSplits(SplitsAssignment<S> assignment) {
        assignment.assignment().values().forEach(assigned::addAll);
    }

    @Override
    public void signalNoMoreSplits(int subtask) {
        finished.add(subtask);
    }

    @Override
    public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler) {
        run(callable, handler);
    }

    @Override
    public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler, long delay, long period) {
        periodic.add(new Periodic<>(callable, handler));
    }

    private static <T> void run(Callable<T> callable, BiConsumer<T, Throwable> handler) {
        new Periodic<>(callable, handler).call().run();
    }

    /** A call and the handler of its result. */
    private static final class Periodic<T> {
        private final Callable<T> callable;
        private final BiConsumer<T, Throwable> handler;

        Periodic(Callable<T> callable, BiConsumer<T, Throwable> handler) {
            this.callable = callable;
            this.handler = handler;
        }

        /** Makes the call now; the returned runnable hands its result (or failure) to the handler. */
        Runnable call() {
            try {
                T result = callable.call();
                return () -> handler.accept(result, null);
            } catch (Exception e) {
                return () -> handler.accept(null, e);
            }
        }
    }

    @Override
    public void runInCoordinatorThread(Runnable runnable) {
        runnable.run();
    }
}
