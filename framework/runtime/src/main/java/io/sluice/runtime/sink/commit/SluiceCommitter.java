package io.sluice.runtime.sink.commit;

import io.sluice.runtime.plugin.PluginLifecycle;
import io.sluice.runtime.sink.FailFast;
import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.TaskSinkContext;
import io.sluice.runtime.sink.partition.PartitionCommitPolicies;
import io.sluice.runtime.state.Committable;
import io.sluice.runtime.state.Envelope;
import io.sluice.spi.Payload;
import io.sluice.spi.sink.CompactionUnit;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.metrics.MetricGroup;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Commits: hands each checkpoint's merged {@link Committable} to the target's {@link
 * TargetCommitter}, in checkpoint order, then runs the commit policies on the partitions the
 * committable names as due. A failure fails the job; the committable is in the checkpointed state
 * and the restored job commits it again, which the target treats as a no-op where it already
 * succeeded, and policies are idempotent. The {@link CommitAggregator} commits with it; so does
 * Flink's committer operator, for the committables that checkpoints of earlier versions left in
 * its state.
 */
public final class SluiceCommitter implements Committer<Committable>, CommitAggregator.Discarding {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SluiceCommitter.class);

    private final TargetCommitter committer;
    private final String pluginId;
    private final String target;
    private final String jobId;
    private final PartitionCommitPolicies policies; // null: none configured
    private final PluginLifecycle.Attachment attachment;

    /**
     * The committer of a sink: the target's, with the commit policies its options configure, as
     * subtask {@code subtask} of {@code subtasks}; attached to the plugins until closed.
     */
    public static SluiceCommitter forSink(
            SinkDescriptor descriptor, String jobId, int subtask, int subtasks, MetricGroup metrics)
            throws IOException {
        PluginLifecycle.Attachment attachment = PluginLifecycle.attach(null);
        try {
            TaskSinkContext context =
                    new TaskSinkContext(descriptor, jobId, subtask, subtasks, metrics, descriptor.registry());
            PartitionCommitPolicies policies = PartitionCommitPolicies.isConfigured(descriptor.configuration())
                    ? new PartitionCommitPolicies(context)
                    : null;
            return new SluiceCommitter(
                    descriptor.targetFactory().createCommitter(context),
                    descriptor.pluginId(),
                    descriptor.target(),
                    jobId,
                    policies,
                    attachment);
        } catch (IOException | RuntimeException e) {
            attachment.close();
            throw e;
        }
    }

    /** The committer of the commit aggregator: the sink's only one, subtask 0 of 1. */
    static SluiceCommitter forSink(SinkDescriptor descriptor, String jobId, MetricGroup metrics) throws IOException {
        return forSink(descriptor, jobId, 0, 1, metrics);
    }

    /** A committer attached to nothing (tests). */
    public SluiceCommitter(
            TargetCommitter committer, String pluginId, String target, String jobId, PartitionCommitPolicies policies) {
        this(committer, pluginId, target, jobId, policies, PluginLifecycle.Attachment.NONE);
    }

    /** @param attachment closed with the committer */
    public SluiceCommitter(
            TargetCommitter committer,
            String pluginId,
            String target,
            String jobId,
            PartitionCommitPolicies policies,
            PluginLifecycle.Attachment attachment) {
        this.attachment = attachment;
        this.committer = committer;
        this.pluginId = pluginId;
        this.target = target;
        this.jobId = jobId;
        this.policies = policies;
    }

    @Override
    public void commit(Collection<Committer.CommitRequest<Committable>> requests) throws IOException {
        List<Committer.CommitRequest<Committable>> ordered = new ArrayList<>(requests);
        ordered.sort(Comparator.comparingLong(r -> r.getCommittable().checkpointId()));
        for (Committer.CommitRequest<Committable> request : ordered) {
            Committable c = request.getCommittable();
            List<Payload> payloads = new ArrayList<>(c.entries().size());
            for (Committable.Entry e : c.entries()) {
                payloads.add(e.envelope().payloadFor(pluginId, target));
            }
            List<CompactionUnit> units = new ArrayList<>(c.compactions().size());
            for (Committable.Unit u : c.compactions()) {
                List<Payload> inputs = new ArrayList<>(u.inputs().size());
                for (Envelope e : u.inputs()) {
                    inputs.add(e.payloadFor(pluginId, target));
                }
                units.add(CompactionUnit.of(u.bucketId(), inputs));
            }
            if (!payloads.isEmpty() || !units.isEmpty()) {
                // the job that wrote the data: a restored committable keeps its own
                String writer = c.jobId().isEmpty() ? jobId : c.jobId();
                try {
                    // qualified: Flink's Committer.CommitRequest is a member type of this class
                    committer.commit(io.sluice.spi.sink.CommitRequest.of(
                            writer, c.operatorId(), c.epoch(), c.checkpointId(), payloads, units));
                } catch (IOException | RuntimeException e) {
                    FailFast.ifNonRecoverable(e);
                    // which commit: a BATCH job's one commit carries Flink's end-of-input id, Long.MAX_VALUE
                    throw new IOException(
                            FailOverRequest.describe(c.checkpointId()) + " failed (target '" + target + "'): "
                                    + (e.getMessage() != null ? e.getMessage() : e.toString()),
                            e);
                }
            }
            commitPartitions(c);
        }
    }

    /**
     * Hands pending data the job will never commit to the target's {@link
     * TargetCommitter#discard}: the job fails for good, and no checkpoint holds these entries.
     * Never throws: the job's own failure is what the user must see; what stays is logged.
     */
    @Override
    public void discard(List<Committable.Entry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        try {
            List<PendingCommit> pending = new ArrayList<>(entries.size());
            for (Committable.Entry e : entries) {
                pending.add(new PendingCommit(
                        e.envelope().payloadFor(pluginId, target),
                        e.partition(),
                        e.partitionCreationTime(),
                        e.size(),
                        e.forCompaction()));
            }
            committer.discard(pending);
        } catch (IOException | RuntimeException e) {
            LOG.warn(
                    "Cannot discard the {} pending files of target '{}' that the failed job leaves uncommitted;"
                            + " a restored job's writers remove what is theirs",
                    entries.size(),
                    target,
                    e);
        }
    }

    private void commitPartitions(Committable c) throws IOException {
        if (policies == null) {
            return;
        }
        for (String partition : c.duePartitions()) {
            try {
                policies.commit(partition, c.checkpointId(), committer);
            } catch (IOException | RuntimeException e) {
                FailFast.ifNonRecoverable(e);
                throw e;
            } catch (Exception e) {
                throw new IOException("Commit policy failed for partition '" + partition + "'", e);
            }
        }
    }

    @Override
    public void close() throws Exception {
        // closed in reverse: the committer, then the policies (may be null), then the attachment
        try (PluginLifecycle.Attachment plugins = attachment;
                PartitionCommitPolicies commitPolicies = policies) {
            committer.close();
        }
    }
}
