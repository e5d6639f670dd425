package io.sluice.runtime.sink;

import io.sluice.runtime.state.Committable;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Receives what the committer made visible, remembers the partitions it touched, and commits each
 * partition (success file, metastore ...) once its trigger fires. Runs after the committer with
 * parallelism one, so it sees every partition and the job-wide watermark.
 *
 * <p>Pending partitions are kept in operator state: a partition whose data was committed before a
 * failure is committed after the restore. Policies are idempotent, so committing it twice is
 * harmless.
 */
final class PartitionCommitOperator extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<CommittableMessage<Committable>, Void>, BoundedOneInput {

    private static final long serialVersionUID = 1L;
    private static final long CHECK_INTERVAL_MS = 1000;

    private final SinkDescriptor descriptor;

    /** partition -> (first creation time, newest checkpoint id). */
    private transient TreeMap<String, long[]> pending;
    private transient ListState<Tuple3<String, Long, Long>> pendingState;
    private transient PartitionCommitter committer;
    private transient long watermark;

    PartitionCommitOperator(SinkDescriptor descriptor) {
        this.descriptor = descriptor;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        pending = new TreeMap<>();
        watermark = Long.MIN_VALUE;
        pendingState = context.getOperatorStateStore().getListState(new ListStateDescriptor<>(
                "sluice-pending-partitions", Types.TUPLE(Types.STRING, Types.LONG, Types.LONG)));
        for (Tuple3<String, Long, Long> t : pendingState.get()) {
            pending.put(t.f0, new long[] {t.f1, t.f2});
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        committer = new PartitionCommitter(new TaskSinkContext(
                descriptor, getRuntimeContext().getJobInfo().getJobId().toHexString(),
                0, 1, getMetricGroup(), descriptor.registry()));
        scheduleCheck();
    }

    private void scheduleCheck() {
        getProcessingTimeService().registerTimer(
                getProcessingTimeService().getCurrentProcessingTime() + CHECK_INTERVAL_MS, time -> {
                    commitReady();
                    scheduleCheck();
                });
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<Committable>> record) throws Exception {
        if (record.getValue() instanceof CommittableWithLineage) {
            Committable c = ((CommittableWithLineage<Committable>) record.getValue()).getCommittable();
            for (Committable.Entry e : c.entries()) {
                if (e.partition() != null && !e.partition().isEmpty()) {
                    long[] p = pending.computeIfAbsent(e.partition(), k -> new long[] {Long.MAX_VALUE, 0});
                    p[0] = Math.min(p[0], e.partitionCreationTime());
                    p[1] = Math.max(p[1], c.checkpointId());
                }
            }
            commitReady();
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        watermark = Math.max(watermark, mark.getTimestamp());
        commitReady();
        super.processWatermark(mark);
    }

    @Override
    public void endInput() throws Exception {
        // at the end of bounded input every partition is finished
        for (Map.Entry<String, long[]> e : pending.entrySet()) {
            committer.commit(e.getKey(), e.getValue()[1]);
        }
        pending.clear();
    }

    private void commitReady() throws Exception {
        long now = getProcessingTimeService().getCurrentProcessingTime();
        Iterator<Map.Entry<String, long[]>> it = pending.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, long[]> e = it.next();
            if (committer.isReady(e.getKey(), e.getValue()[0], now, watermark)) {
                committer.commit(e.getKey(), e.getValue()[1]);
                it.remove();
            }
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        pendingState.clear();
        for (Map.Entry<String, long[]> e : pending.entrySet()) {
            pendingState.add(Tuple3.of(e.getKey(), e.getValue()[0], e.getValue()[1]));
        }
    }
}
