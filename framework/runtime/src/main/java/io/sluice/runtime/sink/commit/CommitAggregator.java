package io.sluice.runtime.sink.commit;

import io.sluice.runtime.plugin.PluginLifecycle;
import io.sluice.runtime.sink.FailFast;
import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.TaskSinkContext;
import io.sluice.runtime.sink.compaction.CompactionPlanner;
import io.sluice.runtime.sink.partition.PartitionCommitPolicies;
import io.sluice.runtime.sink.partition.PartitionCommitTrigger;
import io.sluice.runtime.state.Committable;
import io.sluice.runtime.state.CommittableSerializer;
import io.sluice.spi.NonRecoverableException;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
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
 * Merges the committables of all writer subtasks into one per checkpoint and commits it when that
 * checkpoint completes, so that one commit makes a whole checkpoint visible; and decides which
 * partitions are finished, so their commit policies run right after their files became visible.
 * Runs with parallelism one, so it sees every partition and the job-wide watermark.
 *
 * <p>Pending results are merged per checkpoint, never replaced. With aligned checkpoints every
 * writer's result for checkpoint n has arrived when the barrier of n does, so everything up to n
 * becomes one committable right before the barrier, is part of this operator's snapshot n, and is
 * committed when n completes; a job restored from n commits it again at the start (targets treat
 * a repeated commit as done). The exchanges into and out of this operator are therefore aligned
 * also in a job of unaligned checkpoints: Flink's sink translator makes them so for {@code
 * SluiceSink}, {@code DynamicSink} for its own.
 *
 * <p>Why this operator commits and not Flink's committer behind it: Flink 1.20's committer, once
 * its input has ended, commits everything it holds on any checkpoint-complete notification, also
 * on a late one for a checkpoint whose barrier passed before the last files arrived. A writer
 * whose snapshot in that checkpoint still has a file open then finds, after a failover to it, the
 * file published and gone (FileSinkFailureCampaignIT seed 20261218); its rows after the checkpoint
 * would be there twice. Here, a committable is committed only by the completion of a checkpoint
 * whose snapshot holds it: what the end of input brings is held until the next snapshot (the
 * final checkpoint of FLIP-147) and committed when that completes. Without checkpoints (BATCH, or
 * STREAMING with checkpointing off) it is committed at the end of input, as Flink does. Flink's
 * committer stays in the job, idle, for the committables it holds in checkpoints of earlier
 * versions.
 *
 * <p>A writer that reaches the end of its input before the others hands over its last files under
 * the end-of-input id ({@link CommittableMessage#EOI}), and its task then finishes: a restored job
 * never runs that writer again. Its files therefore go with the next checkpoint this operator
 * sees, so they are in this operator's checkpointed state from that checkpoint on; they never wait
 * in its heap for the last writer to finish (a failover in that window would forget them).
 * Whatever has arrived and is not committed yet is this operator's state as well.
 *
 * <p>Files written for compaction wait here, in this operator's state, until the {@link
 * CompactionPlanner} finds them due; then they travel as compaction units in the committable of
 * that checkpoint. Until then they are pending files that nobody has published, so a failure at
 * any point leaves them to be published by whichever checkpoint the job restores from. In a job
 * without checkpoints they all wait until the end of input, and the planner applies upstream's
 * batch rule ({@code compaction.small-files.avg-size}, {@link CompactionPlanner#onEndOfBatch()}).
 */
public final class CommitAggregator extends AbstractStreamOperator<CommittableMessage<Committable>>
        implements OneInputStreamOperator<CommittableMessage<Committable>, CommittableMessage<Committable>>,
                BoundedOneInput {

    private static final long serialVersionUID = 1L;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CommitAggregator.class);

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
    /**
     * Operator state: the committables made for a checkpoint and not committed yet, each framed by
     * Flink's {@link SimpleVersionedSerialization} with {@link CommittableSerializer} ({@link
     * #uncommittedState}). All of them belong to the checkpoint a job restores from, which has
     * completed: a restored operator commits them at once.
     */
    static final String UNCOMMITTED_STATE = "sluice-uncommitted-committables";
    /** The label of committables made at the end of input, until a snapshot holds them. */
    private static final long NOT_SNAPSHOTTED = Long.MAX_VALUE;

    private final SinkDescriptor descriptor;
    private final CommitterFactory committers;
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
    /**
     * checkpoint id -> the committables its snapshot holds first, not committed yet ({@link
     * #NOT_SNAPSHOTTED}: made at the end of input, in no snapshot yet).
     */
    private transient TreeMap<Long, List<Committable>> uncommitted;

    private transient ListState<byte[]> uncommittedState;
    /** From the restored checkpoint, which completed: committed in {@link #open}. */
    private transient List<Committable> restoredUncommitted;

    private transient Committer<Committable> committer;
    private transient boolean checkpointing;
    /**
     * What the writers handed over since this operator's last snapshot: in no checkpoint, so
     * nobody will hand it over again. When the job fails for good it goes to the target's {@link
     * io.sluice.spi.sink.TargetCommitter#discard}; restored, the writers remove what is theirs.
     */
    private transient List<Committable.Entry> sinceSnapshot;

    /**
     * A committer that can hand the target what the job will never commit ({@link
     * io.sluice.spi.sink.TargetCommitter#discard}); the single-table sink's {@link SluiceCommitter}.
     */
    public interface Discarding {
        /** Never throws: the job's own failure is what the user must see. */
        void discard(List<Committable.Entry> entries);
    }

    /** How the operator gets the committer it commits with: on the task, in {@link #open}. */
    @FunctionalInterface
    public interface CommitterFactory extends java.io.Serializable {
        Committer<Committable> create(SinkDescriptor descriptor, String jobId, MetricGroup metrics) throws IOException;
    }

    /** Commits with the target's committer and the configured commit policies. */
    public CommitAggregator(SinkDescriptor descriptor) {
        this(descriptor, SluiceCommitter::forSink);
    }

    public CommitAggregator(SinkDescriptor descriptor, CommitterFactory committers) {
        this.descriptor = descriptor;
        this.committers = committers;
        this.tracksPartitions = PartitionCommitPolicies.isConfigured(descriptor.configuration());
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        pending = new TreeMap<>();
        waitingPartitions = new TreeMap<>();
        watermark = Long.MIN_VALUE;
        // Flink's own tuple serializer: its snapshot, kept by Flink with the state, reads old bytes
        waitingState = context.getOperatorStateStore()
                .getListState(
                        new ListStateDescriptor<>("sluice-waiting-partitions", Types.TUPLE(Types.STRING, Types.LONG)));
        pendingState = context.getOperatorStateStore()
                .getListState(new ListStateDescriptor<>(
                        PENDING_STATE, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        readPending(pendingState.get(), pending);
        for (Tuple2<String, Long> t : waitingState.get()) {
            waitingPartitions.merge(t.f0, t.f1, Math::min);
        }
        compaction = CompactionPlanner.of(descriptor.configuration(), descriptor.options());
        compactionState = context.getOperatorStateStore()
                .getListState(new ListStateDescriptor<>(
                        COMPACTION_STATE, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        ListState<byte[]> unframedCompactionState = context.getOperatorStateStore()
                .getListState(new ListStateDescriptor<>(
                        UNFRAMED_COMPACTION_STATE, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        for (byte[] snapshot : unframedCompactionState.get()) {
            compaction.restoreUnframed(snapshot);
        }
        // registered state is snapshotted with every checkpoint: the old one goes empty from now on
        unframedCompactionState.clear();
        for (byte[] snapshot : compactionState.get()) {
            compaction.restore(snapshot);
        }
        uncommitted = new TreeMap<>();
        sinceSnapshot = new ArrayList<>();
        uncommittedState = context.getOperatorStateStore()
                .getListState(new ListStateDescriptor<>(
                        UNCOMMITTED_STATE, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        restoredUncommitted = readUncommitted(uncommittedState.get());
    }

    /** The committables as {@link #UNCOMMITTED_STATE} holds them, each framed with its version. */
    static List<byte[]> uncommittedState(Iterable<Committable> committables) throws IOException {
        List<byte[]> state = new ArrayList<>();
        for (Committable c : committables) {
            state.add(SimpleVersionedSerialization.writeVersionAndSerialize(new CommittableSerializer(), c));
        }
        return state;
    }

    /** What {@link #uncommittedState} wrote, of any version, in checkpoint order. */
    static List<Committable> readUncommitted(Iterable<byte[]> state) throws IOException {
        List<Committable> read = new ArrayList<>();
        for (byte[] bytes : state) {
            read.add(SimpleVersionedSerialization.readVersionAndDeSerialize(new CommittableSerializer(), bytes));
        }
        read.sort(java.util.Comparator.comparingLong(Committable::checkpointId));
        return read;
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
            Committable c = new Committable(
                    e.getKey(), "", "", "", e.getValue(), Collections.emptyList(), Collections.emptyList());
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
        checkpointing = getOperatorConfig().isCheckpointingEnabled();
        if (descriptor.overwrite() && checkpointing) {
            // an overwrite per checkpoint would delete what the previous checkpoint published; and
            // the id of a commit cannot tell the end of input (Flink 2 numbers it as a checkpoint):
            // an overwrite commits once, at the end of input, in a job without checkpoints
            throw new SuppressRestartsException(new IllegalStateException("Overwrite of target '"
                    + descriptor.target() + "' needs bounded input run in BATCH mode (or without checkpoints);"
                    + " this job takes checkpoints"));
        }
        committer = committers.create(descriptor, jobId, getMetricGroup());
        if (!restoredUncommitted.isEmpty()) {
            // made for the checkpoint this job restored from, which completed: commit (again)
            commit(restoredUncommitted);
            restoredUncommitted = Collections.emptyList();
        }
        if (tracksPartitions) {
            trigger = new PartitionCommitTrigger(new TaskSinkContext(
                    descriptor,
                    getRuntimeContext().getJobInfo().getJobId().toHexString(),
                    0,
                    1,
                    getMetricGroup(),
                    descriptor.registry()));
        }
    }

    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            if (committer != null) {
                try {
                    committer.close();
                } catch (Exception e) {
                    LOG.warn("Cannot close the committer of target '{}'", descriptor.target(), e);
                }
                committer = null;
            }
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
            Committable c = ((CommittableWithLineage<Committable>) message).getCommittable();
            // without checkpoints everything is committed at the end of input, under its id on
            // both Flink lines (Flink 2 numbers it as the checkpoint after the last one, here 1)
            long id = checkpointing ? message.getCheckpointIdOrEOI() : CommittableMessage.EOI;
            pending.computeIfAbsent(id, k -> new ArrayList<>()).addAll(c.entries());
            sinceSnapshot.addAll(c.entries());
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        watermark = Math.max(watermark, mark.getTimestamp());
        super.processWatermark(mark);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        List<Committable> made;
        try {
            made = committablesUpTo(checkpointId, false);
        } catch (SuppressRestartsException e) {
            discardSinceSnapshot();
            throw e;
        }
        if (!made.isEmpty()) {
            uncommitted.computeIfAbsent(checkpointId, k -> new ArrayList<>()).addAll(made);
        }
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        List<Committable> atEnd = uncommitted.remove(NOT_SNAPSHOTTED);
        if (atEnd != null) {
            // the first snapshot that holds them: its completion commits them
            uncommitted
                    .computeIfAbsent(context.getCheckpointId(), k -> new ArrayList<>())
                    .addAll(atEnd);
        }
        List<Committable> all = new ArrayList<>();
        uncommitted.values().forEach(all::addAll);
        uncommittedState.update(uncommittedState(all));
        pendingState.update(pendingState(pending));
        waitingState.clear();
        for (Map.Entry<String, Long> e : waitingPartitions.entrySet()) {
            waitingState.add(Tuple2.of(e.getKey(), e.getValue()));
        }
        compactionState.update(Collections.singletonList(compaction.snapshot()));
        sinceSnapshot.clear();
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        // NOT_SNAPSHOTTED is above every id: what no snapshot holds yet is never committed here
        Map<Long, List<Committable>> due = uncommitted.headMap(checkpointId, true);
        try {
            while (!due.isEmpty()) {
                Map.Entry<Long, List<Committable>> first =
                        due.entrySet().iterator().next();
                commit(first.getValue());
                due.remove(first.getKey());
            }
        } catch (SuppressRestartsException e) {
            discardSinceSnapshot();
            throw e;
        }
    }

    @Override
    public void endInput() throws Exception {
        try {
            // at the end of bounded input every partition is finished
            List<Committable> made = committablesUpTo(CommittableMessage.EOI, true);
            if (!checkpointing) {
                // every file arrived just now: BATCH compacts by compaction.small-files.avg-size
                // no checkpoint will come: BATCH, or STREAMING without checkpoints (as Flink's committer)
                commit(made);
            } else if (!made.isEmpty()) {
                uncommitted
                        .computeIfAbsent(NOT_SNAPSHOTTED, k -> new ArrayList<>())
                        .addAll(made);
            }
        } catch (SuppressRestartsException e) {
            discardSinceSnapshot();
            throw e;
        }
    }

    /**
     * The job fails for good (an error that recurs on every attempt): what arrived since the last
     * snapshot will never be committed, and no restore hands it over again. Only the single-table
     * sink's committer discards; the dynamic sink's tables leave theirs to restored writers.
     */
    private void discardSinceSnapshot() {
        if (committer instanceof Discarding && !sinceSnapshot.isEmpty()) {
            LOG.info(
                    "Discarding the {} pending files of target '{}' handed over since the last checkpoint:"
                            + " the job fails for good",
                    sinceSnapshot.size(),
                    descriptor.target());
            ((Discarding) committer).discard(new ArrayList<>(sinceSnapshot));
            sinceSnapshot.clear();
        }
    }

    private void commit(List<Committable> committables) throws IOException, InterruptedException {
        if (committables.isEmpty()) {
            return;
        }
        List<Committer.CommitRequest<Committable>> requests = new ArrayList<>(committables.size());
        for (Committable c : committables) {
            requests.add(new FailOverRequest(c));
        }
        committer.commit(requests);
    }

    /** The committables up to {@code checkpointId}, made from what has arrived and is due. */
    private List<Committable> committablesUpTo(long checkpointId, boolean endOfInput) {
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
                    if (!waitingPartitions.containsKey(e.partition())) {
                        checkTime(e.partition());
                    }
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
        // without checkpoints, everything comes at the end of input: upstream's batch rule
        List<Committable.Unit> units =
                endOfInput && !checkpointing ? compaction.onEndOfBatch() : compaction.onCheckpoint(endOfInput);
        // a partition's files waiting for compaction are not visible yet: its policies wait too
        List<String> due = duePartitions(endOfInput);
        List<Committable> made = new ArrayList<>();
        if (ids.isEmpty() && due.isEmpty() && units.isEmpty()) {
            return made;
        }
        if (ids.isEmpty()) {
            ids.add(checkpointId);
        }
        for (int i = 0; i < ids.size(); i++) {
            long id = ids.get(i);
            List<Committable.Entry> entries = pending.containsKey(id) ? pending.remove(id) : new ArrayList<>();
            // due partitions go with the last committable: all their files are committed before
            boolean last = i == ids.size() - 1;
            made.add(new Committable(
                    id,
                    jobId,
                    operatorId,
                    epoch,
                    entries,
                    last ? units : new ArrayList<>(),
                    last ? due : new ArrayList<>()));
        }
        return made;
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
            if (all || (isReady(e.getKey(), e.getValue(), now) && !compaction.isWaiting(e.getKey()))) {
                due.add(e.getKey());
                it.remove();
            }
        }
        return due;
    }

    private boolean isReady(String partition, long creationTime, long now) {
        try {
            return trigger.isReady(partition, creationTime, now, watermark);
        } catch (NonRecoverableException e) {
            FailFast.ifNonRecoverable(e);
            throw new IllegalStateException(e); // not reached: FailFast threw
        }
    }

    private void checkTime(String partition) {
        try {
            trigger.checkTime(partition);
        } catch (NonRecoverableException e) {
            FailFast.ifNonRecoverable(e);
            throw new IllegalStateException(e); // not reached: FailFast threw
        }
    }
}
