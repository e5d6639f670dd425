package io.sluice.spi.sink;

import io.sluice.spi.Payload;

import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One checkpoint's worth of pending data, from all writers, to make visible in one commit.
 *
 * <p>A request may be handed to the committer more than once (after a failure whose outcome was
 * unknown, or on restore from a checkpoint taken before the commit finished). The job id, operator
 * id, epoch and checkpoint id together identify it, so that a target can find its own earlier
 * success and make the repetition a no-op: rename targets through deterministic names, snapshot
 * targets through what they record in the commit itself.
 *
 * <p>A value: the framework makes it, and a plugin's tests make their own with {@link #of}.
 *
 * @since 3.0.0 a final class (an interface before)
 */
public final class CommitRequest {

    private final String jobId;
    private final String operatorId;
    private final String epoch;
    private final long checkpointId;
    private final List<Payload> pending;
    private final List<CompactionUnit> compactions;

    private CommitRequest(
            String jobId,
            String operatorId,
            String epoch,
            long checkpointId,
            List<Payload> pending,
            List<CompactionUnit> compactions) {
        this.jobId = Objects.requireNonNull(jobId, "jobId");
        this.operatorId = Objects.requireNonNull(operatorId, "operatorId");
        this.epoch = Objects.requireNonNull(epoch, "epoch");
        this.checkpointId = checkpointId;
        this.pending = Collections.unmodifiableList(List.copyOf(pending));
        this.compactions = Collections.unmodifiableList(List.copyOf(compactions));
    }

    /** A request without compaction units. */
    public static CommitRequest of(
            String jobId, String operatorId, String epoch, long checkpointId, List<Payload> pending) {
        return new CommitRequest(jobId, operatorId, epoch, checkpointId, pending, Collections.emptyList());
    }

    /** A request that also publishes compacted files. */
    public static CommitRequest of(
            String jobId,
            String operatorId,
            String epoch,
            long checkpointId,
            List<Payload> pending,
            List<CompactionUnit> compactions) {
        return new CommitRequest(jobId, operatorId, epoch, checkpointId, pending, compactions);
    }

    /** The id of the Flink job that wrote the data, as a hex string. */
    public String jobId() {
        return jobId;
    }

    /**
     * A stable id of the sink within its job (the operator id of its commit aggregator), as a hex
     * string. Survives restarts and restores from savepoints as long as the sink's uid does.
     */
    public String operatorId() {
        return operatorId;
    }

    /**
     * The run of the job that made this request: new after every start and restore. A job restored
     * from an older checkpoint (with a fixed job id, as in application mode) numbers its new
     * checkpoints from there again, so checkpoint n of this epoch is not checkpoint n of an earlier
     * one: a target that records committed checkpoint ids records the epoch with them, and finds its
     * own earlier success by (job id, operator id, epoch, checkpoint id). Empty where the framework
     * has none (requests of Sluice versions before epochs).
     */
    public String epoch() {
        return epoch;
    }

    /** The checkpoint the data belongs to; {@code Long.MAX_VALUE} at end of bounded input. */
    public long checkpointId() {
        return checkpointId;
    }

    /** What the writers returned from {@link TargetWriter#prepareCommit}, in no defined order. */
    public List<Payload> pending() {
        return pending;
    }

    /**
     * Pending files that were written for compaction and are published now, grouped into units
     * that each become one file; empty unless the target wrote {@link
     * PendingCommit#forCompaction()} files. The committer makes {@link #pending()} visible and
     * runs every unit, both idempotently.
     */
    public List<CompactionUnit> compactions() {
        return compactions;
    }

    @Override
    public String toString() {
        return "CommitRequest{job " + jobId + ", sink " + operatorId + ", epoch '" + epoch + "', checkpoint "
                + checkpointId + ", " + pending.size() + " pending, " + compactions.size() + " compaction units}";
    }
}
