package io.sluice.runtime.sink.commit;

import io.sluice.runtime.plugin.PluginLifecycle;
import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.TaskSinkContext;
import io.sluice.runtime.sink.compaction.CompactionPlanner;
import io.sluice.runtime.sink.partition.PartitionCommitPolicies;
import io.sluice.runtime.sink.partition.PartitionCommitTrigger;
import io.sluice.runtime.state.Committable;
import io.sluice.runtime.state.CommittableSerializer;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Merges the committables of all writer subtasks into one per checkpoint, so that one committer
 * makes a whole checkpoint visible in one commit; and decides which partitions are finished, so
 * the committer runs the commit policies on them right after their files became visible. Runs with
 * parallelism one, so it sees every partition and the job-wide watermark.
 *
 * <p>Pending results are merged per checkpoint, never replaced. With aligned checkpoints every
 * writer's result for checkpoint n has arrived when the barrier of n does, so everything up to n
 * is emitted right before it, to be committed when n completes.
 *
 * <p>A writer that reaches the end of its input before the others hands over its last files under
 * the end-of-input id ({@link CommittableMessage#EOI}), and its task then finishes: a restored job
 * never runs that writer again. Its files therefore go with the next checkpoint the aggregator
 * sees, as part of that checkpoint's committable, so they are in the committer's checkpointed
 * state from that checkpoint on, and committed when it completes; they never wait in this
 * operator's heap for the last writer to finish (a failover in that window would forget them).
 * Whatever has arrived and is not emitted yet is this operator's state as well.
 *
 * <p>Why the partition decision is made here and not after the committer: Flink sends end-of-data
 * downstream before the final checkpoint completes, so what a committer emits after the final
 * commit never reaches an operator behind it (FLINK-38614), and the last partitions would never be
 * committed. Here, the decision travels inside the committable: the partitions still waiting for
 * their trigger are this operator's state, and a partition found due at checkpoint n is committed
 * by the committer with checkpoint n, also when that commit is retried after a restore.
 *
 * <p>Files written for compaction wait here, in this operator's state, until the {@link
 * CompactionPlanner} finds them due; then they travel as compaction units in the committable of
 * that checkpoint. Until then they are pending files that nobody has published, so a failure at
 * any point leaves them to be published by whichever checkpoint the job restores from.
 */
public final class CommitAggregator extends AbstractStreamOperator<CommittableMessage<Committable>>
        implements OneInputStreamOperator<CommittableMessage<Committable>, CommittableMessage<Committable>>,
                BoundedOneInput {

    private static final long serialVersionUID = 1L;

    /** Operator state: the handovers not emitted yet ({@link #pendingState}). */
    static final String PENDING_STATE = "sluice-pending-committables";
    /**
     * Operator state: the compaction planner's, each element framed by Flink's {@link
     * SimpleVersionedSerialization} ({@link CompactionPlanner#snapshot()}).
     */
    static final String COMPACTION_STATE = "sluice-compaction-planner";
    /**
     * Operator state written before {@link #COMPACTION_STATE}: the compaction planner's version 1
     * without a frame, so without its version. Read on restore, then left empty; a new name
     * because unframed bytes cannot be told from framed ones by looking at them.
     */
    static final String UNFRAMED_COMPACTION_STATE = "sluice-compaction-waiting";

    private final SinkDescriptor descriptor;
    private final boolean tracksPartitions;

    /** checkpoint id (or EOI) -> what the writers handed over for it, not emitted yet. */
    private transient TreeMap<Long, List<Committable.Entry>> pending;
    private transient ListState<byte[]> pendingState;
    /** partition -> processing time it was first written (the earliest of its writers). */
    private transient TreeMap<String, Long> waitingPartitions;
    private transient ListState<Tuple2<String, Long>> waitingState;
    private transient CompactionPlanner compaction;
    private transient ListState<byte[]> compactionState;
    private transient String jobId;
    private transient String operatorId;
    /** New with every start and restore: see {@link Committable#epoch()}. */
    private transient String epoch;
    private transient PartitionCommitTrigger trigger;
    private transient PluginLifecycle.Attachment attachment;
    private transient long watermark;

    public CommitAggregator(SinkDescriptor descriptor) {
        this.descriptor = descriptor;
        this.tracksPartitions = PartitionCommitPolicies.isConfigured(descriptor.configuration());
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        pending = new TreeMap<>();
        waitingPartitions = new TreeMap<>();
        watermark = Long.MIN_VALUE;
        // Flink's own tuple serializer: its snapshot, kept by Flink with the state, reads old bytes
        waitingState = context.getOperatorStateStore().getListState(new ListStateDescriptor<>(
                "sluice-waiting-partitions", Types.TUPLE(Types.STRING, Types.LONG)));
        pendingState = context.getOperatorStateStore().getListState(new ListStateDescriptor<>(
                PENDING_STATE, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        readPending(pendingState.get(), pending);
        for (Tuple2<String, Long> t : waitingState.get()) {
            waitingPartitions.merge(t.f0, t.f1, Math::min);
        }
        compaction = CompactionPlanner.of(descriptor.configuration(), descriptor.options());
        compactionState = context.getOperatorStateStore().getListState(new ListStateDescriptor<>(
                COMPACTION_STATE, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        ListState<byte[]> unframedCompactionState = context.getOperatorStateStore().getListState(new ListStateDescriptor<>(
                UNFRAMED_COMPACTION_STATE, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        for (byte[] snapshot : unframedCompactionState.get()) {
            compaction.restoreUnframed(snapshot);
        }
        // registered state is snapshotted with every checkpoint: the old one goes empty from now on
        unframedCompactionState.clear();
        for (byte[] snapshot : compactionState.get()) {
            compaction.restore(snapshot);
        }
    }

    /**
     * The pending handovers as {@link #PENDING_STATE} holds them: per checkpoint id (or {@link
     * CommittableMessage#EOI}) one committable of its entries, framed by Flink's {@link
     * SimpleVersionedSerialization} with {@link CommittableSerializer}, so each element carries its
     * version (2 until the serializer's version 3, 3 since).
     */
    static List<byte[]> pendingState(TreeMap<Long, List<Committable.Entry>> pending) throws IOException {
        List<byte[]> state = new ArrayList<>(pending.size());
        for (Map.Entry<Long, List<Committable.Entry>> e : pending.entrySet()) {
            Committable c = new Committable(e.getKey(), "", "", "", e.getValue(), Collections.emptyList(),
                    Collections.emptyList());
            state.add(SimpleVersionedSerialization.writeVersionAndSerialize(new CommittableSerializer(), c));
        }
        return state;
    }

    /** Adds what {@link #pendingState} wrote, of any version, to {@code pending} (merging equal ids). */
    static void readPending(Iterable<byte[]> state, TreeMap<Long, List<Committable.Entry>> pending) throws IOException {
        for (byte[] bytes : state) {
            Committable c = SimpleVersionedSerialization.readVersionAndDeSerialize(new CommittableSerializer(), bytes);
            pending.computeIfAbsent(c.checkpointId(), k -> new ArrayList<>()).addAll(c.entries());
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        attachment = PluginLifecycle.attach(null);
        jobId = getRuntimeContext().getJobInfo().getJobId().toHexString();
        operatorId = getOperatorID().toHexString();
        epoch = UUID.randomUUID().toString();
        if (tracksPartitions) {
            trigger = new PartitionCommitTrigger(new TaskSinkContext(descriptor,
                    getRuntimeContext().getJobInfo().getJobId().toHexString(), 0, 1, getMetricGroup(),
                    descriptor.registry()));
        }
    }

    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            if (attachment != null) {
                attachment.close();
                attachment = null;
            }
        }
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<Committable>> record) {
        CommittableMessage<Committable> message = record.getValue();
        if (message instanceof CommittableWithLineage) {
            if (descriptor.overwrite() && message.getCheckpointIdOrEOI() != CommittableMessage.EOI) {
                // an overwrite per checkpoint would delete what the previous checkpoint published
                throw new IllegalStateException("Overwrite of target '" + descriptor.target() + "' needs bounded input"
                        + " run in BATCH mode; this job committed at checkpoint " + message.getCheckpointIdOrEOI());
            }
            Committable c = ((CommittableWithLineage<Committable>) message).getCommittable();
            pending.computeIfAbsent(message.getCheckpointIdOrEOI(), k -> new ArrayList<>()).addAll(c.entries());
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        watermark = Math.max(watermark, mark.getTimestamp());
        super.processWatermark(mark);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        emitUpTo(checkpointId, false);
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        pendingState.update(pendingState(pending));
        waitingState.clear();
        for (Map.Entry<String, Long> e : waitingPartitions.entrySet()) {
            waitingState.add(Tuple2.of(e.getKey(), e.getValue()));
        }
        compactionState.update(Collections.singletonList(compaction.snapshot()));
    }

    @Override
    public void endInput() {
        // at the end of bounded input every partition is finished
        emitUpTo(CommittableMessage.EOI, true);
    }

    private void emitUpTo(long checkpointId, boolean endOfInput) {
        List<Committable.Entry> finishedWriters = endOfInput ? null : pending.remove(CommittableMessage.EOI);
        if (finishedWriters != null) {
            // writers that have finished: their files commit with this checkpoint (see class doc)
            pending.computeIfAbsent(checkpointId, k -> new ArrayList<>()).addAll(finishedWriters);
        }
        List<Long> ids = new ArrayList<>(pending.headMap(checkpointId, true).keySet());
        for (Long id : ids) {
            List<Committable.Entry> direct = new ArrayList<>();
            for (Committable.Entry e : pending.get(id)) {
                if (tracksPartitions && e.partition() != null && !e.partition().isEmpty()) {
                    waitingPartitions.merge(e.partition(), e.partitionCreationTime(), Math::min);
                }
                if (e.forCompaction()) {
                    compaction.add(e);
                } else {
                    direct.add(e);
                }
            }
            pending.put(id, direct);
        }
        List<Committable.Unit> units = compaction.onCheckpoint(endOfInput);
        // a partition's files waiting for compaction are not visible yet: its policies wait too
        List<String> due = duePartitions(endOfInput);
        if (ids.isEmpty() && due.isEmpty() && units.isEmpty()) {
            return;
        }
        if (ids.isEmpty()) {
            ids.add(checkpointId);
        }
        for (int i = 0; i < ids.size(); i++) {
            long id = ids.get(i);
            List<Committable.Entry> entries = pending.containsKey(id) ? pending.remove(id) : new ArrayList<>();
            // due partitions go with the last committable: all their files are committed before
            boolean last = i == ids.size() - 1;
            Committable c = new Committable(id, jobId, operatorId, epoch, entries,
                    last ? units : new ArrayList<>(), last ? due : new ArrayList<>());
            output.collect(new StreamRecord<>(new CommittableSummary<>(0, 1, id, 1, 1, 0)));
            output.collect(new StreamRecord<>(new CommittableWithLineage<>(c, id, 0)));
        }
    }

    private List<String> duePartitions(boolean all) {
        List<String> due = new ArrayList<>();
        if (!tracksPartitions) {
            return due;
        }
        long now = getProcessingTimeService().getCurrentProcessingTime();
        Iterator<Map.Entry<String, Long>> it = waitingPartitions.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Long> e = it.next();
            if (all || (trigger.isReady(e.getKey(), e.getValue(), now, watermark) && !compaction.isWaiting(e.getKey()))) {
                due.add(e.getKey());
                it.remove();
            }
        }
        return due;
    }
}
