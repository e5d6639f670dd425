package io.sluice.runtime.source.scan;

import io.sluice.runtime.source.SplitAssignment;
import io.sluice.runtime.state.Envelope;
import io.sluice.spi.Payload;
import io.sluice.spi.source.PlannedSplit;
import io.sluice.spi.source.ScanPlan;
import io.sluice.spi.source.ScanPlanner;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Hands out the splits of a scan source. A bounded read gets its splits from one plan made before
 * the enumerator starts; a continuous one asks the planner every monitor interval (in Flink's
 * worker thread) for what is new after its position, and takes the new splits and the new position
 * together (in the coordinator thread, which also takes the checkpoints), so a checkpoint never
 * holds a position whose splits it lacks.
 */
final class ScanSplitEnumerator implements SplitEnumerator<ScanSourceSplit, ScanEnumeratorState> {

    private final SplitEnumeratorContext<ScanSourceSplit> context;

    @Nullable
    private final ScanPlanner planner; // null: bounded, already planned

    private final String pluginId;
    private final String target;
    private final long monitorIntervalMillis;
    private final SplitAssignment<ScanSourceSplit> assignment;

    @Nullable
    private volatile Envelope position;

    private long nextSplitNumber;

    private ScanSplitEnumerator(
            SplitEnumeratorContext<ScanSourceSplit> context,
            @Nullable ScanPlanner planner,
            String pluginId,
            String target,
            long monitorIntervalMillis,
            ScanEnumeratorState state) {
        this.context = context;
        this.planner = planner;
        this.pluginId = pluginId;
        this.target = target;
        this.monitorIntervalMillis = monitorIntervalMillis;
        this.assignment = new SplitAssignment<>(context, planner == null, state.pendingSplits());
        this.position = state.position();
        this.nextSplitNumber = state.nextSplitNumber();
    }

    /** The enumerator of a bounded read, holding the splits of its one plan (or of a checkpoint). */
    static ScanSplitEnumerator bounded(
            SplitEnumeratorContext<ScanSourceSplit> context,
            String pluginId,
            String target,
            ScanEnumeratorState state) {
        return new ScanSplitEnumerator(context, null, pluginId, target, 0, state);
    }

    /** The enumerator of a continuous read, new ({@code restored} null) or restored. */
    static ScanSplitEnumerator continuous(
            SplitEnumeratorContext<ScanSourceSplit> context,
            ScanPlanner planner,
            String pluginId,
            String target,
            long monitorIntervalMillis,
            @Nullable ScanEnumeratorState restored) {
        ScanEnumeratorState state = restored != null ? restored : new ScanEnumeratorState(new ArrayList<>(), null, 0);
        return new ScanSplitEnumerator(context, planner, pluginId, target, monitorIntervalMillis, state);
    }

    /**
     * Makes the one plan of a bounded read, numbering its splits from zero.
     *
     * @throws FlinkRuntimeException naming the target when planning fails
     */
    static ScanEnumeratorState planOnce(ScanPlanner planner, String pluginId, String target) {
        try {
            ScanPlan plan = planner.plan(null);
            List<ScanSourceSplit> splits = splitsOf(plan, pluginId, target, 0);
            return new ScanEnumeratorState(splits, envelope(plan.position(), pluginId, target), splits.size());
        } catch (IOException | RuntimeException e) {
            throw new FlinkRuntimeException(
                    "Cannot plan the splits of the '" + target + "' source: " + e.getMessage(), e);
        }
    }

    @Override
    public void start() {
        if (planner != null) {
            context.callAsync(this::plan, this::takePlan, 0, monitorIntervalMillis);
        }
    }

    /** In the worker thread: plans after the position the coordinator holds now. */
    private PlanAfter plan() throws IOException {
        Envelope from = position;
        Payload payload = from == null ? null : from.payloadFor(pluginId, target);
        return new PlanAfter(from, planner.plan(payload));
    }

    /** In the coordinator thread: takes the plan's splits and position, unless the position moved meanwhile. */
    private void takePlan(PlanAfter result, Throwable error) {
        if (error != null) {
            throw new FlinkRuntimeException(
                    "Cannot plan new splits of the '" + target + "' source: " + error.getMessage(), error);
        }
        if (!Objects.equals(result.from, position)) {
            return; // planned from a position an earlier plan has since moved; the next round plans again
        }
        List<ScanSourceSplit> splits = splitsOf(result.plan, pluginId, target, nextSplitNumber);
        nextSplitNumber += splits.size();
        position = envelope(result.plan.position(), pluginId, target);
        assignment.add(splits);
    }

    private static List<ScanSourceSplit> splitsOf(ScanPlan plan, String pluginId, String target, long firstNumber) {
        List<ScanSourceSplit> splits = new ArrayList<>(plan.splits().size());
        long number = firstNumber;
        for (PlannedSplit planned : plan.splits()) {
            splits.add(new ScanSourceSplit(
                    "scan-" + number++,
                    planned.description(),
                    new Envelope(pluginId, target, planned.payload()),
                    null));
        }
        return splits;
    }

    @Nullable
    private static Envelope envelope(@Nullable Payload position, String pluginId, String target) {
        return position == null ? null : new Envelope(pluginId, target, position);
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        assignment.request(subtaskId);
    }

    @Override
    public void addSplitsBack(List<ScanSourceSplit> splits, int subtaskId) {
        assignment.add(splits);
    }

    @Override
    public void addReader(int subtaskId) {
        // readers ask for splits themselves
    }

    @Override
    public ScanEnumeratorState snapshotState(long checkpointId) {
        return new ScanEnumeratorState(assignment.pending(), position, nextSplitNumber);
    }

    @Override
    public void close() throws IOException {
        if (planner != null) {
            planner.close();
        }
    }

    /** A plan and the position it was made from. */
    private static final class PlanAfter {
        @Nullable
        final Envelope from;

        final ScanPlan plan;

        PlanAfter(@Nullable Envelope from, ScanPlan plan) {
            this.from = from;
            this.plan = plan;
        }
    }
}
