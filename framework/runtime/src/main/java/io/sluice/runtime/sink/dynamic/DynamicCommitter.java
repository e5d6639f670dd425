package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.plugin.PluginLifecycle;
import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.TaskSinkContext;
import io.sluice.runtime.sink.commit.FailOverRequest;
import io.sluice.runtime.sink.commit.SluiceCommitter;
import io.sluice.runtime.state.Committable;
import io.sluice.spi.dynamic.DynamicTables;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.metrics.MetricGroup;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Commits a dynamic sink's checkpoint table (and branch) by table: each table's entries of the
 * checkpoint, unframed ({@link TableFrames}), go to that table's committer as one committable of
 * that checkpoint, so every table gets one commit per checkpoint, idempotent as its single-table
 * commits are. Up to {@code concurrency} tables (the sink's write parallelism, as many as
 * upstream's committer subtasks) commit at once, each on its own committer: a commit is mostly
 * waiting on the catalog and the storage, and one table after the other kept a checkpoint of a
 * hundred tables waiting for a hundred round trips in a row. Checkpoints still commit one after
 * the other. A failure in table 7 of 20 fails the job once the other tables' commits ended; the
 * restored commit aggregator commits the checkpoint again, which the tables committed find done.
 */
final class DynamicCommitter implements Committer<Committable> {

    private final SinkDescriptor base;
    private final String jobId;
    private final MetricGroup metrics;
    private final PluginLifecycle.Attachment attachment;
    private final DynamicTables tables;
    private final TableSinks sinks;
    private final WriteTarget.TypeCache types = new WriteTarget.TypeCache();
    /** table and branch -> its committer. */
    private final Map<String, SluiceCommitter> committers = new HashMap<>();

    private final int concurrency;

    /** The threads that commit tables side by side, made at the first checkpoint of several tables. */
    @Nullable
    private ExecutorService pool;

    DynamicCommitter(SinkDescriptor base, String jobId, MetricGroup metrics, int concurrency) throws IOException {
        this.base = base;
        this.concurrency = Math.max(1, concurrency);
        this.jobId = jobId;
        this.metrics = metrics;
        this.attachment = PluginLifecycle.attach(null);
        try {
            this.tables =
                    DynamicSink.dynamicTables(base, new TaskSinkContext(base, jobId, 0, 1, metrics, base.registry()));
        } catch (IOException | RuntimeException e) {
            attachment.close();
            throw e;
        }
        this.sinks = new TableSinks(base, tables);
    }

    @Override
    public void commit(Collection<CommitRequest<Committable>> requests) throws IOException, InterruptedException {
        List<CommitRequest<Committable>> ordered = new ArrayList<>(requests);
        ordered.sort(Comparator.comparingLong(r -> r.getCommittable().checkpointId()));
        for (CommitRequest<Committable> request : ordered) {
            Committable c = request.getCommittable();
            if (!c.compactions().isEmpty() || !c.duePartitions().isEmpty()) {
                throw new IllegalStateException("A dynamic sink's committable has compaction units or due partitions,"
                        + " which a dynamic sink does not make: " + c.compactions() + " " + c.duePartitions());
            }
            TreeMap<String, List<Committable.Entry>> byTable = new TreeMap<>();
            Map<String, WriteTarget> targets = new HashMap<>();
            for (Committable.Entry e : c.entries()) {
                TableFrames.Framed framed = TableFrames.unframe(e.envelope(), types);
                String key = framed.target().commitKey();
                targets.putIfAbsent(key, framed.target());
                byTable.computeIfAbsent(key, k -> new ArrayList<>())
                        .add(new Committable.Entry(
                                framed.envelope(),
                                e.partition(),
                                e.partitionCreationTime(),
                                e.size(),
                                e.forCompaction()));
            }
            List<Callable<Void>> commits = new ArrayList<>(byTable.size());
            for (Map.Entry<String, List<Committable.Entry>> table : byTable.entrySet()) {
                // no trigger decides when a partition is done: every partition a commit wrote to is
                // due right after it (as process-time with no delay), its policies idempotent
                java.util.TreeSet<String> due = new java.util.TreeSet<>();
                for (Committable.Entry e : table.getValue()) {
                    if (e.partition() != null && !e.partition().isEmpty()) {
                        due.add(e.partition());
                    }
                }
                Committable ofTable = new Committable(
                        c.checkpointId(),
                        c.jobId(),
                        c.operatorId(),
                        c.epoch(),
                        table.getValue(),
                        List.of(),
                        new ArrayList<>(due));
                // made here, on the task's thread: a new committer registers its metrics
                SluiceCommitter committer = committer(targets.get(table.getKey()));
                commits.add(() -> {
                    committer.commit(List.of(new FailOverRequest(ofTable)));
                    return null;
                });
            }
            commitAll(commits);
        }
    }

    /** Runs the commits, side by side when there are several; throws the first failure after all ended. */
    private void commitAll(List<Callable<Void>> commits) throws IOException, InterruptedException {
        if (commits.size() == 1 || concurrency == 1) {
            for (Callable<Void> commit : commits) {
                call(commit);
            }
            return;
        }
        if (pool == null) {
            AtomicInteger threads = new AtomicInteger();
            pool = Executors.newFixedThreadPool(concurrency, runnable -> {
                Thread t = new Thread(runnable, "sluice-dynamic-commit-" + threads.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
        List<Future<Void>> running = new ArrayList<>(commits.size());
        for (Callable<Void> commit : commits) {
            running.add(pool.submit(commit));
        }
        Exception failure = null;
        try {
            for (Future<Void> f : running) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    Exception cause = e.getCause() instanceof Exception
                            ? (Exception) e.getCause()
                            : new IOException(e.getCause());
                    if (failure == null) {
                        failure = cause;
                    } else {
                        failure.addSuppressed(cause);
                    }
                }
            }
        } catch (InterruptedException e) {
            // the task is being cancelled: let the commits that have begun end on their own. A commit
            // interrupted inside a catalog's lock (Iceberg's Hive metastore lock) can leave the lock
            // taken, and the restored attempt then waits for it; a commit that ends here is one the
            // restored committer finds in the table and does not repeat. Flink restores only after
            // this task has ended, so nothing of this attempt commits beside the next one.
            running.forEach(f -> f.cancel(false));
            awaitBegun(running);
            throw e;
        }
        if (failure instanceof IOException) {
            throw (IOException) failure;
        }
        if (failure instanceof RuntimeException) {
            throw (RuntimeException) failure;
        }
        if (failure != null) {
            throw new IOException(failure);
        }
    }

    /** How long a cancelled task waits for its begun commits before it interrupts them after all. */
    private static final long BEGUN_COMMITS_WAIT_MILLIS = 60_000;

    /** Waits for the begun commits to end (at most a minute), keeping a repeated interrupt for the caller. */
    static void awaitBegun(List<Future<Void>> running) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BEGUN_COMMITS_WAIT_MILLIS);
        boolean interrupted = false;
        for (Future<Void> f : running) {
            while (!f.isDone()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    running.forEach(r -> r.cancel(true));
                    break;
                }
                try {
                    f.get(left, TimeUnit.NANOSECONDS);
                } catch (InterruptedException again) {
                    interrupted = true; // Flink interrupts a cancelled task repeatedly
                } catch (ExecutionException
                        | java.util.concurrent.CancellationException
                        | java.util.concurrent.TimeoutException ended) {
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void call(Callable<Void> commit) throws IOException, InterruptedException {
        try {
            commit.call();
        } catch (IOException | InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    private SluiceCommitter committer(WriteTarget target) throws IOException {
        SluiceCommitter committer = committers.get(target.commitKey());
        if (committer == null) {
            SinkDescriptor table = sinks.descriptor(target);
            committer = SluiceCommitter.forSink(table, jobId, 0, 1, metrics.addGroup("table", target.commitKey()));
            committers.put(target.commitKey(), committer);
        }
        return committer;
    }

    @Override
    public void close() throws Exception {
        if (pool != null) {
            pool.shutdownNow();
            pool = null;
        }
        Exception failure = null;
        for (SluiceCommitter committer : committers.values()) {
            try {
                committer.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        committers.clear();
        try {
            tables.close();
        } catch (Exception e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        attachment.close();
        if (failure != null) {
            throw failure;
        }
    }
}
