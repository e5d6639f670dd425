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

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Commits a dynamic sink's checkpoint one table (and branch) at a time, in the order of their
 * names: each table's entries of the checkpoint, unframed ({@link TableFrames}), go to that table's
 * committer as one committable of that checkpoint, so every table gets one commit per checkpoint,
 * idempotent as its single-table commits are. A failure in table 7 of 20 fails the job; the
 * restored commit aggregator commits the checkpoint again, which tables 1 to 6 find done.
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

    DynamicCommitter(SinkDescriptor base, String jobId, MetricGroup metrics) throws IOException {
        this.base = base;
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
                committer(targets.get(table.getKey())).commit(List.of(new FailOverRequest(ofTable)));
            }
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
