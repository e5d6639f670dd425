package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.commit.CommitAggregator;
import io.sluice.runtime.state.Committable;
import io.sluice.runtime.state.CommittableSerializer;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A dynamic sink's writer subtask and its commit aggregator (committing with {@link
 * DynamicCommitter}) on Flink's operator test harnesses, without a cluster, as the job wires them:
 * what the writer hands over before a barrier or at the end of input goes to the aggregator, both
 * snapshot at every checkpoint and restore together from any of them, as after a failover. The
 * target is {@link DirTables}, so what a test checks is in files.
 */
final class DynamicSinkHarness implements AutoCloseable {

    private final SinkDescriptor base;
    private final DynamicSinkHooks hooks;
    private OneInputStreamOperatorTestHarness<RoutedRow, CommittableMessage<Committable>> writer;
    private OneInputStreamOperatorTestHarness<CommittableMessage<Committable>, CommittableMessage<Committable>>
            aggregator;
    private final Map<Long, OperatorSubtaskState[]> snapshots = new TreeMap<>();
    /** Every committable the writer handed over, in order, across restores. */
    final List<CommittableWithLineage<Committable>> handed = new ArrayList<>();

    DynamicSinkHarness(SinkDescriptor base) throws Exception {
        this(base, DynamicSinkHooks.NONE);
    }

    /** With a writer operator that calls {@code hooks}. */
    DynamicSinkHarness(SinkDescriptor base, DynamicSinkHooks hooks) throws Exception {
        this.base = base;
        this.hooks = hooks;
        start(null);
    }

    private void start(OperatorSubtaskState[] restored) throws Exception {
        // the committables' own serializer, as in a job (the harness would otherwise copy them with Kryo)
        TypeSerializer<CommittableMessage<Committable>> serializer =
                CommittableMessageTypeInfo.of(CommittableSerializer::new).createSerializer(new SerializerConfigImpl());
        writer = new OneInputStreamOperatorTestHarness<>(
                new DynamicWriterOperator(base, hooks), new RoutedRowSerializer());
        writer.setup(serializer);
        aggregator = new OneInputStreamOperatorTestHarness<>(
                new CommitAggregator(base, (d, job, metrics) -> new DynamicCommitter(d, job, metrics, 2)), serializer);
        aggregator.setup(serializer);
        if (restored == null) {
            writer.initializeEmptyState();
            aggregator.initializeEmptyState();
        } else {
            writer.initializeState(restored[0]);
            aggregator.initializeState(restored[1]);
        }
        writer.open();
        aggregator.open();
    }

    void write(WriteTarget target, RowData row) throws Exception {
        writer.processElement(new StreamRecord<>(new RoutedRow(target, row, 0)));
    }

    /** Checkpoint {@code id}: the barrier passes the writer, then the aggregator; both snapshot. */
    void checkpoint(long id) throws Exception {
        writer.prepareSnapshotPreBarrier(id);
        forward();
        OperatorSubtaskState w = writer.snapshot(id, id);
        aggregator.prepareSnapshotPreBarrier(id);
        OperatorSubtaskState a = aggregator.snapshot(id, id);
        snapshots.put(id, new OperatorSubtaskState[] {w, a});
    }

    /** Checkpoint {@code id} completed: the aggregator commits. */
    void complete(long id) throws Exception {
        writer.notifyOfCompletedCheckpoint(id);
        aggregator.notifyOfCompletedCheckpoint(id);
    }

    void endOfInput() throws Exception {
        writer.endInput();
        forward();
        aggregator.endInput();
    }

    /** A failover: both operators restart from checkpoint {@code id}'s state. */
    void restore(long id) throws Exception {
        closeQuietly();
        start(snapshots.get(id));
    }

    private void forward() throws Exception {
        List<Object> out = new ArrayList<>(writer.getOutput());
        writer.getOutput().clear();
        for (Object o : out) {
            if (o instanceof StreamRecord) {
                @SuppressWarnings("unchecked")
                StreamRecord<CommittableMessage<Committable>> r = (StreamRecord<CommittableMessage<Committable>>) o;
                handed.add((CommittableWithLineage<Committable>) r.getValue());
                aggregator.processElement(r);
            }
        }
    }

    private void closeQuietly() {
        try {
            writer.close();
        } catch (Exception ignored) {
            // a failed operator's close may fail too; the restore starts new ones
        }
        try {
            aggregator.close();
        } catch (Exception ignored) {
            // as above
        }
    }

    @Override
    public void close() {
        closeQuietly();
    }
}
