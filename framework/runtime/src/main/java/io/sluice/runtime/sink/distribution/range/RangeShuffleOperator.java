package io.sluice.runtime.sink.distribution.range;

import io.sluice.runtime.compat.StreamOperatorBase;
import io.sluice.runtime.plugin.PluginLifecycle;
import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.TaskSinkContext;
import io.sluice.runtime.sink.distribution.StatisticsType;
import io.sluice.runtime.sink.distribution.WriterDistribution;
import io.sluice.spi.distribution.DistributionKey;

import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.OperatorStateStore;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.apache.flink.runtime.operators.coordination.OperatorEventGateway;
import org.apache.flink.runtime.operators.coordination.OperatorEventHandler;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The shuffle side of distribution mode {@code range}, one subtask per writer: it asks the target
 * for each row's sort key ({@code DistributionSupport#rangeKey}), counts the key ({@link
 * TrafficCounter}), and tags the row with the writer the range partitioner ({@link
 * RangeAssignment}) picks under the global statistics last applied; before any, rows go
 * round-robin. At each checkpoint it sends its counts of the cycle to the {@link
 * RangeStatisticsCoordinator}, and applies the global statistics the coordinator sends back when
 * they arrive.
 *
 * <p>Its state is the global statistics it applies, one copy per subtask in a list state split
 * among the subtasks on restore, so a restored subtask partitions as before from its first row; one
 * that a larger parallelism left without a copy partitions round-robin until the coordinator, which
 * keeps the statistics in its own checkpoint, sends them as the subtask becomes ready. Not union
 * list state: Flink aborts every checkpoint of a vertex with union state while part of its subtasks
 * have finished, so one source subtask at the end of its input would stop all commits until the
 * slowest one finished. The union state that snapshots before 0.1.0 hold ({@value #LEGACY_STATE})
 * is read on restore and cleared; Flink keeps a restored state registered, though, so a job
 * restored from such a snapshot keeps that limitation until it starts without one.
 *
 * <p>Gauges, in the operator's metric group: {@code rangeStatisticsType} ({@code Map} or {@code
 * Sketch}: of the statistics applied, else of what the subtask collects), {@code
 * rangeStatisticsKeys} (distinct keys of the statistics applied: exact for Map, of the sample for
 * Sketch) and {@code rangeStatisticsCheckpoint} (the checkpoint whose statistics are applied, -1
 * before any).
 */
final class RangeShuffleOperator extends StreamOperatorBase<Tuple2<Integer, RowData>>
        implements OneInputStreamOperator<RowData, Tuple2<Integer, RowData>>, OperatorEventHandler {

    private static final long serialVersionUID = 1L;

    /** The statistics applied, one copy per subtask. */
    static final String STATE = "range-statistics-applied";

    /** Union list state of the same, written by subtask 0 only (snapshots before 0.1.0). */
    static final String LEGACY_STATE = "range-statistics";

    private final SinkDescriptor descriptor;
    private final StatisticsType type;
    private final double baseWeight;
    private final RangeShuffleHooks hooks;
    private final transient OperatorEventGateway coordinator;

    private transient PluginLifecycle.Attachment attachment;
    private transient DistributionKey key;
    private transient TrafficCounter counter;
    private transient ListState<byte[]> appliedState;

    @Nullable
    private transient KeyStatistics applied;

    /** {@link #applied} serialized, made at the first checkpoint after it changed, not at every one. */
    @Nullable
    private transient byte[] appliedBytes;

    @Nullable
    private transient RangeAssignment assignment;

    private transient int writers;
    private transient int nextRoundRobin;

    /** One that Flink sets up itself (a test harness's). */
    RangeShuffleOperator(
            SinkDescriptor descriptor, StatisticsType type, double baseWeight, OperatorEventGateway coordinator) {
        this.descriptor = descriptor;
        this.type = type;
        this.baseWeight = baseWeight;
        this.coordinator = coordinator;
        this.hooks = RangeShuffleHooks.NONE;
    }

    /** One that {@link RangeShuffleOperatorFactory} creates, set up with its parameters. */
    RangeShuffleOperator(
            StreamOperatorParameters<Tuple2<Integer, RowData>> parameters,
            SinkDescriptor descriptor,
            StatisticsType type,
            double baseWeight,
            OperatorEventGateway coordinator,
            RangeShuffleHooks hooks) {
        super(parameters);
        this.descriptor = descriptor;
        this.type = type;
        this.baseWeight = baseWeight;
        this.coordinator = coordinator;
        this.hooks = hooks;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        writers = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        counter = new TrafficCounter(type, StatisticsAggregation.sampleSize(writers), 31L * subtask + 17);
        nextRoundRobin = subtask % writers;
        OperatorStateStore store = context.getOperatorStateStore();
        appliedState = store.getListState(new ListStateDescriptor<>(STATE, BytePrimitiveArraySerializer.INSTANCE));
        KeyStatistics restored = newest(null, appliedState.get());
        if (store.getRegisteredStateNames().contains(LEGACY_STATE)) {
            ListState<byte[]> legacy = store.getUnionListState(
                    new ListStateDescriptor<>(LEGACY_STATE, BytePrimitiveArraySerializer.INSTANCE));
            restored = newest(restored, legacy.get());
            legacy.clear();
        }
        if (restored != null) {
            apply(restored);
        }
    }

    @Nullable
    private static KeyStatistics newest(@Nullable KeyStatistics newest, Iterable<byte[]> copies) throws IOException {
        for (byte[] bytes : copies) {
            KeyStatistics statistics =
                    SimpleVersionedSerialization.readVersionAndDeSerialize(KeyStatisticsSerializer.INSTANCE, bytes);
            if (newest == null || statistics.checkpointId() > newest.checkpointId()) {
                newest = statistics;
            }
        }
        return newest;
    }

    @Override
    public void open() throws Exception {
        super.open();
        attachment = PluginLifecycle.attach(null);
        TaskSinkContext context = new TaskSinkContext(
                descriptor,
                getRuntimeContext().getJobInfo().getJobId().toHexString(),
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                writers,
                getMetricGroup(),
                descriptor.registry());
        key = WriterDistribution.support(descriptor).rangeKey(context);
        MetricGroup metrics = getMetricGroup();
        metrics.gauge("rangeStatisticsType", (Gauge<String>) () -> applied != null
                ? applied.type().optionValue()
                : (counter.sketching() ? StatisticsType.SKETCH : StatisticsType.MAP).optionValue());
        metrics.gauge("rangeStatisticsKeys", (Gauge<Long>) () -> applied == null ? 0L : applied.distinctKeys());
        metrics.gauge("rangeStatisticsCheckpoint", (Gauge<Long>) () -> applied == null ? -1L : applied.checkpointId());
    }

    @Override
    public void processElement(StreamRecord<RowData> record) throws Exception {
        hooks.onRecord();
        RowData row = record.getValue();
        String sortKey = new String(key.of(row), StandardCharsets.ISO_8859_1);
        counter.add(sortKey);
        int writer;
        if (assignment == null) {
            writer = nextRoundRobin;
            nextRoundRobin = (nextRoundRobin + 1) % writers;
        } else {
            writer = assignment.writerOf(sortKey);
        }
        output.collect(record.replace(Tuple2.of(writer, row)));
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        coordinator.sendEventToCoordinator(StatisticsEvent.local(counter.takeStatistics(context.getCheckpointId())));
        appliedState.clear();
        if (applied != null) {
            if (appliedBytes == null) {
                appliedBytes = SimpleVersionedSerialization.writeVersionAndSerialize(
                        KeyStatisticsSerializer.INSTANCE, applied);
            }
            appliedState.add(appliedBytes);
        }
    }

    @Override
    public void handleOperatorEvent(OperatorEvent event) {
        if (!(event instanceof StatisticsEvent) || !((StatisticsEvent) event).isGlobal()) {
            throw new IllegalArgumentException("Range shuffle of " + descriptor.target() + " got " + event);
        }
        try {
            apply(((StatisticsEvent) event).statistics());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The global statistics the range partitioner works by, null before any. */
    @VisibleForTesting
    @Nullable
    KeyStatistics applied() {
        return applied;
    }

    private void apply(KeyStatistics statistics) {
        if (applied != null && statistics.checkpointId() < applied.checkpointId()) {
            return;
        }
        applied = statistics;
        appliedBytes = null;
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        assignment = RangeAssignment.of(statistics, writers, baseWeight, 31L * subtask + statistics.checkpointId());
        if (statistics.type() == StatisticsType.SKETCH) {
            counter.switchToSketch();
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
}
