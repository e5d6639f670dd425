package io.sluice.runtime.sink.distribution.range;

import io.sluice.runtime.sink.distribution.StatisticsType;

import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;

import javax.annotation.Nullable;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Aggregates the traffic statistics of the range shuffle: every subtask sends its counts when it
 * takes a checkpoint; once all of them sent theirs for checkpoint {@code n}, the aggregate becomes
 * the global statistics and goes to every subtask, which applies it to its range partitioner on
 * arrival (so a change of traffic reaches the partitioner within two checkpoint cycles). The
 * aggregate weighs the statistics before it at half ({@link StatisticsAggregation}); a cycle
 * without rows keeps them as they are.
 *
 * <p>Its checkpoint holds the global statistics ({@link KeyStatisticsSerializer}, framed with its
 * version); a restored coordinator sends them to each subtask as it becomes ready, so a job
 * restored with another parallelism partitions by them from its first row. Partial aggregations
 * are not checkpointed: a cycle a failure cut short is counted again after the restore.
 *
 * <p>Flink calls it from the JobManager's main thread; it aggregates there, which takes
 * milliseconds for the sizes of Map and Sketch statistics.
 */
final class RangeStatisticsCoordinator implements OperatorCoordinator {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RangeStatisticsCoordinator.class);

    private final String name;
    private final Context context;
    private final StatisticsType type;
    private final RangeShuffleHooks hooks;
    private final Map<Integer, SubtaskGateway> gateways = new HashMap<>();
    /** checkpoint -> subtask -> its statistics of the cycle that checkpoint ends. */
    private final TreeMap<Long, Map<Integer, KeyStatistics>> pending = new TreeMap<>();

    @Nullable
    private KeyStatistics global;

    RangeStatisticsCoordinator(String name, Context context, StatisticsType type, RangeShuffleHooks hooks) {
        this.name = name;
        this.context = context;
        this.type = type;
        this.hooks = hooks;
    }

    @Override
    public void start() {}

    @Override
    public void close() {
        pending.clear();
        gateways.clear();
    }

    @Override
    public synchronized void handleEventFromOperator(int subtask, int attemptNumber, OperatorEvent event)
            throws Exception {
        if (!(event instanceof StatisticsEvent) || ((StatisticsEvent) event).isGlobal()) {
            throw new IllegalArgumentException("Range statistics coordinator of " + name + " got " + event);
        }
        KeyStatistics statistics = ((StatisticsEvent) event).statistics();
        long checkpointId = statistics.checkpointId();
        if (global != null && checkpointId <= global.checkpointId()) {
            return; // a late part of a cycle already superseded
        }
        Map<Integer, KeyStatistics> parts = pending.computeIfAbsent(checkpointId, id -> new HashMap<>());
        parts.put(subtask, statistics);
        if (parts.size() < context.currentParallelism()) {
            return;
        }
        pending.headMap(checkpointId, true).clear();
        try {
            hooks.onAggregation();
            long cycleRows =
                    parts.values().stream().mapToLong(KeyStatistics::rows).sum();
            if (cycleRows == 0) {
                return;
            }
            global = StatisticsAggregation.aggregate(
                    checkpointId,
                    parts.values(),
                    global,
                    type,
                    StatisticsAggregation.sampleSize(context.currentParallelism()));
        } catch (RuntimeException e) {
            context.failJob(new IllegalStateException(
                    "The range statistics of " + name + " could not be aggregated at checkpoint " + checkpointId, e));
            return;
        }
        LOG.debug("{}: {}", name, global);
        for (SubtaskGateway gateway : gateways.values()) {
            gateway.sendEvent(StatisticsEvent.global(global));
        }
    }

    @Override
    public synchronized void checkpointCoordinator(long checkpointId, CompletableFuture<byte[]> result) {
        try {
            result.complete(
                    global == null
                            ? new byte[0]
                            : SimpleVersionedSerialization.writeVersionAndSerialize(
                                    KeyStatisticsSerializer.INSTANCE, global));
        } catch (Exception e) {
            result.completeExceptionally(e);
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    @Override
    public synchronized void resetToCheckpoint(long checkpointId, @Nullable byte[] checkpointData) throws Exception {
        pending.clear();
        global = checkpointData == null || checkpointData.length == 0
                ? null
                : SimpleVersionedSerialization.readVersionAndDeSerialize(
                        KeyStatisticsSerializer.INSTANCE, checkpointData);
    }

    @Override
    public synchronized void subtaskReset(int subtask, long checkpointId) {
        // its part of a cycle in progress will not come: that cycle is counted again
        pending.clear();
    }

    @Override
    public synchronized void executionAttemptFailed(int subtask, int attemptNumber, @Nullable Throwable reason) {
        gateways.remove(subtask);
    }

    @Override
    public synchronized void executionAttemptReady(int subtask, int attemptNumber, SubtaskGateway gateway) {
        gateways.put(subtask, gateway);
        if (global != null) {
            gateway.sendEvent(StatisticsEvent.global(global));
        }
    }

    /** Creates the coordinator on the JobManager; travels in the job graph. */
    static final class Provider implements OperatorCoordinator.Provider {

        private static final long serialVersionUID = 1L;

        private final OperatorID operatorId;
        private final String name;
        private final StatisticsType type;
        private final RangeShuffleHooks hooks;

        Provider(OperatorID operatorId, String name, StatisticsType type, RangeShuffleHooks hooks) {
            this.operatorId = operatorId;
            this.name = name;
            this.type = type;
            this.hooks = hooks;
        }

        @Override
        public OperatorID getOperatorId() {
            return operatorId;
        }

        @Override
        public OperatorCoordinator create(Context context) {
            return new RangeStatisticsCoordinator(name, context, type, hooks);
        }
    }
}
