package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.plugin.PluginLifecycle;
import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.SluiceSinkWriter;
import io.sluice.runtime.sink.TaskSinkContext;
import io.sluice.runtime.state.Committable;
import io.sluice.runtime.state.Envelope;
import io.sluice.runtime.state.WriterState;
import io.sluice.spi.Payload;
import io.sluice.spi.dynamic.DynamicTables;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.core.io.SimpleVersionedSerialization;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The writers of a dynamic sink's subtask: one writer of the target per write target that rows
 * arrive for, each made from that table's single-table sink ({@link TableSinks}), so that every
 * table is written as its target writes one table. What they make visible at a checkpoint goes to
 * the commit aggregator as one committable whose entries are framed with their write targets
 * ({@link TableFrames}), right before the barrier (at the end of input under {@link
 * CommittableMessage#EOI}), as Flink's own sink writer operator hands over committables; their
 * state is this operator's, framed the same way, so a restored subtask (of any parallelism)
 * recreates every writer that had state with it.
 *
 * <p>A writer that got no rows for {@link #IDLE_CHECKPOINTS} checkpoints in a row and is idle
 * ({@code TargetWriter#isIdle}: nothing open that a restore would need) is closed (a table no longer written to, a schema a table has outgrown), so a long job's
 * writers stay as many as its live write targets; the gauge {@code openWriters} shows how many.
 */
final class DynamicWriterOperator extends AbstractStreamOperator<CommittableMessage<Committable>>
        implements OneInputStreamOperator<RoutedRow, CommittableMessage<Committable>>, BoundedOneInput {

    private static final long serialVersionUID = 1L;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DynamicWriterOperator.class);

    /**
     * Operator state: per element one subtask's {@link DynamicWriterState}, framed with its version
     * (version 1, of checkpoints before the attempts' starts were kept, a {@link WriterState}).
     */
    static final String STATE = "sluice-dynamic-writers";

    /**
     * Checkpoints without rows after which a writer without state is closed: a table written at
     * every other checkpoint keeps its writer (creating one may cost the target catalog calls).
     */
    static final int IDLE_CHECKPOINTS = 3;

    /**
     * How many attempts' starts a subtask's state keeps ({@link DynamicWriterState.Start}): each
     * attempt cleans up in the tables it writes, one that never writes a table again hands on the
     * starts of the attempts before it, the most recent first.
     */
    static final int MAX_STARTS = 16;

    private final SinkDescriptor base;
    private final DynamicSinkHooks hooks;

    private transient ListState<byte[]> state;

    /** The checkpoint this attempt began from (empty: a fresh start). */
    private transient java.util.OptionalLong restoredCheckpoint;
    /** The starts of the attempts whose leftovers this attempt's table writers clean up. */
    private transient List<DynamicWriterState.Start> inherited;
    /** The table writers this attempt opened: each has its opening number. */
    private transient int openings;
    /** The tables ({@link WriteTarget#commitKey()}) this attempt opened a writer of. */
    private transient java.util.Set<String> openedTables;
    /** Whether the target keeps the writers of one table apart by their opening. */
    private transient boolean writerOpenings;

    private transient Map<WriteTarget, List<Payload>> restored;
    private transient Map<WriteTarget, OpenWriter> writers;
    private transient PluginLifecycle.Attachment attachment;
    private transient DynamicTables tables;
    private transient TableSinks sinks;
    private transient RowContext context;
    private transient String jobId;

    DynamicWriterOperator(SinkDescriptor base, DynamicSinkHooks hooks) {
        this.base = base;
        this.hooks = hooks;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        state = context.getOperatorStateStore()
                .getListState(new ListStateDescriptor<>(STATE, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        restored = new LinkedHashMap<>();
        restoredCheckpoint = context.getRestoredCheckpointId();
        inherited = new ArrayList<>();
        WriteTarget.TypeCache types = new WriteTarget.TypeCache();
        for (byte[] bytes : state.get()) {
            DynamicWriterState subtaskState =
                    SimpleVersionedSerialization.readVersionAndDeSerialize(new DynamicWriterState.Serializer(), bytes);
            for (DynamicWriterState.Start start : subtaskState.starts) {
                if (!inherited.contains(start)) {
                    inherited.add(start);
                }
            }
            for (Envelope envelope : subtaskState.writers.envelopes()) {
                TableFrames.Framed framed = TableFrames.unframe(envelope, types);
                restored.computeIfAbsent(framed.target(), t -> new ArrayList<>())
                        .add(framed.envelope().payloadFor(base.pluginId(), base.target()));
            }
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        attachment = PluginLifecycle.attach(null);
        jobId = getRuntimeContext().getJobInfo().getJobId().toHexString();
        tables = DynamicSink.dynamicTables(
                base, new TaskSinkContext(base, jobId, subtask(), subtasks(), getMetricGroup(), base.registry()));
        sinks = new TableSinks(base, tables);
        writers = new HashMap<>();
        openings = 0;
        openedTables = new java.util.HashSet<>();
        writerOpenings = DynamicSink.support(base).supportsWriterOpenings();
        context = new RowContext();
        getMetricGroup().gauge("openWriters", () -> writers == null ? 0 : writers.size());
        // every writer with state now: what it had pending commits with the next checkpoint
        for (Map.Entry<WriteTarget, List<Payload>> e : restored.entrySet()) {
            writers.put(e.getKey(), new OpenWriter(create(e.getKey(), e.getValue())));
        }
        restored = null;
    }

    private int subtask() {
        return getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    }

    private int subtasks() {
        return getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
    }

    private SluiceSinkWriter create(WriteTarget target, List<Payload> state) throws IOException {
        SinkDescriptor table = sinks.descriptor(target);
        return SluiceSinkWriter.create(
                table,
                jobId,
                subtask(),
                subtasks(),
                getMetricGroup().addGroup("table", target.commitKey()),
                getProcessingTimeService(),
                null,
                state,
                lineage(target));
    }

    private int attempt() {
        return getRuntimeContext().getTaskInfo().getAttemptNumber();
    }

    /**
     * The lineage of the table writer opened now: its id is made from the operator, the table and
     * this attempt's start, so that a later attempt recognises the files of a table writer that
     * opened after the checkpoint it restores, which no state names. Writers of a table that close
     * when idle and open again, or of two schemas of it at once, share the id and are told apart by
     * their opening. A target that cannot tell them apart gets no lineage: its writers choose their
     * own ids, as before, and leftovers of those opened after the checkpoint stay.
     */
    @javax.annotation.Nullable
    private io.sluice.spi.sink.WriterLineage lineage(WriteTarget target) {
        String table = target.commitKey();
        boolean reopened = !openedTables.add(table);
        int opening = openings++;
        return lineage(
                getOperatorID().toHexString() + "\n" + table,
                jobId,
                restoredCheckpoint,
                subtask(),
                attempt(),
                inherited,
                writerOpenings ? opening : -1,
                reopened);
    }

    /**
     * The lineage of a table writer of the sink (operator and table) {@code sinkId}, opened as the
     * {@code opening}-th writer of this attempt (-1: the target cannot tell writers of one id apart,
     * no lineage then), after the attempts {@code inherited} whose starts the restored state holds.
     */
    @javax.annotation.Nullable
    static io.sluice.spi.sink.WriterLineage lineage(
            String sinkId,
            String jobId,
            java.util.OptionalLong restoredCheckpoint,
            int subtask,
            int attempt,
            List<DynamicWriterState.Start> inherited,
            int opening,
            boolean reopened) {
        if (opening < 0) {
            return null;
        }
        io.sluice.spi.sink.WriterLineage own =
                io.sluice.runtime.sink.WriterLineages.of(sinkId, jobId, restoredCheckpoint, subtask, attempt);
        // the attempts in the restored state's starts: all writers of those before the attempt
        // that took the checkpoint, of that attempt those opened after the checkpoint
        java.util.Set<String> all = new java.util.LinkedHashSet<>(own.predecessorIds());
        Map<String, Integer> later = new LinkedHashMap<>();
        for (DynamicWriterState.Start start : inherited) {
            io.sluice.spi.sink.WriterLineage theirs =
                    io.sluice.runtime.sink.WriterLineages.of(sinkId, jobId, start.origin, start.subtask, start.attempt);
            all.addAll(theirs.predecessorIds());
            later.merge(theirs.writerId(), start.openings, Math::min);
        }
        // an id both ways: only its later writers, the safe side
        all.removeAll(later.keySet());
        all.remove(own.writerId());
        later.remove(own.writerId());
        return io.sluice.spi.sink.WriterLineage.ofOpening(own.writerId(), all, later, opening, reopened);
    }

    @Override
    public void processElement(StreamRecord<RoutedRow> record) throws Exception {
        RoutedRow routed = record.getValue();
        OpenWriter open = writers.get(routed.target());
        if (open == null) {
            open = new OpenWriter(create(routed.target(), List.of()));
            writers.put(routed.target(), open);
        }
        open.idleCheckpoints = 0;
        context.timestamp = record.hasTimestamp() ? record.getTimestamp() : null;
        open.writer.write(routed.row(), context);
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        context.watermark = mark.getTimestamp();
        for (OpenWriter open : writers.values()) {
            open.writer.writeWatermark(new org.apache.flink.api.common.eventtime.Watermark(mark.getTimestamp()));
        }
        super.processWatermark(mark);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        handOver(checkpointId, false);
    }

    @Override
    public void endInput() throws Exception {
        handOver(CommittableMessage.EOI, true);
    }

    /** Everything the writers make visible now, as one committable of framed entries. */
    private void handOver(long checkpointId, boolean endOfInput) throws IOException, InterruptedException {
        List<Committable.Entry> entries = new ArrayList<>();
        for (Map.Entry<WriteTarget, OpenWriter> w : writers.entrySet()) {
            w.getValue().writer.flush(endOfInput);
            for (Committable c : w.getValue().writer.prepareCommit()) {
                for (Committable.Entry e : c.entries()) {
                    entries.add(new Committable.Entry(
                            TableFrames.frame(w.getKey(), e.envelope()),
                            e.partition(),
                            e.partitionCreationTime(),
                            e.size(),
                            e.forCompaction()));
                }
            }
        }
        if (!entries.isEmpty()) {
            output.collect(new StreamRecord<>(
                    new CommittableWithLineage<>(new Committable(entries), checkpointId, subtask())));
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        List<Envelope> envelopes = new ArrayList<>();
        List<WriteTarget> retired = new ArrayList<>();
        for (Map.Entry<WriteTarget, OpenWriter> w : writers.entrySet()) {
            OpenWriter open = w.getValue();
            if (++open.idleCheckpoints > IDLE_CHECKPOINTS && open.writer.isIdle()) {
                // handed over before the barrier, nothing open: a restore needs nothing of it
                retired.add(w.getKey());
                continue;
            }
            for (WriterState s : open.writer.snapshotState(context.getCheckpointId())) {
                for (Envelope e : s.envelopes()) {
                    envelopes.add(TableFrames.frame(w.getKey(), e));
                }
            }
        }
        for (WriteTarget target : retired) {
            writers.remove(target).writer.close();
            hooks.onIdleWriterClosed(target.toString());
        }
        // this attempt's start first, then those it inherited: an attempt's writers clean up only in
        // the tables they write, so another table's leftovers wait for a later attempt
        List<DynamicWriterState.Start> starts = new ArrayList<>();
        DynamicWriterState.Start own = new DynamicWriterState.Start(subtask(), restoredCheckpoint, attempt(), openings);
        starts.add(own);
        for (DynamicWriterState.Start start : inherited) {
            if (starts.size() < MAX_STARTS && !start.sameAttempt(own)) {
                starts.add(start);
            }
        }
        state.update(List.of(SimpleVersionedSerialization.writeVersionAndSerialize(
                new DynamicWriterState.Serializer(), new DynamicWriterState(new WriterState(envelopes), starts))));
    }

    @Override
    public void close() throws Exception {
        Exception failure = null;
        try {
            super.close();
        } catch (Exception e) {
            failure = e;
        }
        if (writers != null) {
            for (OpenWriter open : writers.values()) {
                try {
                    open.writer.close();
                } catch (Exception e) {
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
            writers = null;
        }
        if (tables != null) {
            try {
                tables.close();
            } catch (Exception e) {
                LOG.warn("Cannot close the dynamic tables of target '{}'", base.target(), e);
            }
            tables = null;
        }
        if (attachment != null) {
            attachment.close();
            attachment = null;
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** A write target's writer and the checkpoints since its last row: one map lookup per row. */
    private static final class OpenWriter {
        final SluiceSinkWriter writer;
        int idleCheckpoints;

        OpenWriter(SluiceSinkWriter writer) {
            this.writer = writer;
        }
    }

    /** The writer's view of the row being written: one per operator, updated per row. */
    private static final class RowContext implements SinkWriter.Context {
        Long timestamp;
        long watermark = Long.MIN_VALUE;

        @Override
        public long currentWatermark() {
            return watermark;
        }

        @Override
        public Long timestamp() {
            return timestamp;
        }
    }
}
