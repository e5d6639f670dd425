package io.sluice.runtime.sink;

import io.sluice.runtime.state.Committable;

import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Merges the committables of all writer subtasks into one per checkpoint, so that one committer
 * makes a whole checkpoint visible in one commit. Runs with parallelism one.
 *
 * <p>Pending results are merged per checkpoint, never replaced; results of different checkpoints
 * (writers that reached end of input at different times, or results restored from unaligned
 * channel state) stay apart. With aligned checkpoints every writer's result for checkpoint n has
 * arrived when the barrier of n does, so everything up to n is emitted right before it and the
 * operator needs no state of its own.
 */
final class CommitAggregator extends AbstractStreamOperator<CommittableMessage<Committable>>
        implements OneInputStreamOperator<CommittableMessage<Committable>, CommittableMessage<Committable>>,
                BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private transient TreeMap<Long, List<Committable.Entry>> pending;

    @Override
    public void open() throws Exception {
        super.open();
        pending = new TreeMap<>();
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<Committable>> record) {
        CommittableMessage<Committable> message = record.getValue();
        if (message instanceof CommittableWithLineage) {
            Committable c = ((CommittableWithLineage<Committable>) message).getCommittable();
            pending.computeIfAbsent(message.getCheckpointIdOrEOI(), k -> new ArrayList<>()).addAll(c.entries());
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        emitUpTo(checkpointId);
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void endInput() {
        emitUpTo(Long.MAX_VALUE);
    }

    private void emitUpTo(long checkpointId) {
        Iterator<Map.Entry<Long, List<Committable.Entry>>> it = pending.headMap(checkpointId, true).entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, List<Committable.Entry>> e = it.next();
            long id = e.getKey();
            output.collect(new StreamRecord<>(new CommittableSummary<>(0, 1, id, 1, 1, 0)));
            output.collect(new StreamRecord<>(new CommittableWithLineage<>(new Committable(id, e.getValue()), id, 0)));
            it.remove();
        }
    }
}
