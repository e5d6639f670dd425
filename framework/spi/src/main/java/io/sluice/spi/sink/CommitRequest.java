package io.sluice.spi.sink;

import io.sluice.spi.Payload;

import java.util.Collections;
import java.util.List;

/**
 * One checkpoint's worth of pending data, from all writers, to make visible in one commit.
 *
 * <p>A request may be handed to the committer more than once (after a failure whose outcome was
 * unknown, or on restore from a checkpoint taken before the commit finished). The job id, operator
 * id and checkpoint id together identify it, so that a target can find its own earlier success and
 * make the repetition a no-op: rename targets through deterministic names, snapshot targets
 * through what they record in the commit itself.
 */
public interface CommitRequest {

    /** The id of the Flink job that wrote the data, as a hex string. */
    String jobId();

    /**
     * A stable id of the sink within its job (the operator id of its commit aggregator), as a hex
     * string. Survives restarts and restores from savepoints as long as the sink's uid does.
     */
    String operatorId();

    /**
     * The run of the job that made this request: new after every start and restore. A job restored
     * from an older checkpoint (with a fixed job id, as in application mode) numbers its new
     * checkpoints from there again, so checkpoint n of this epoch is not checkpoint n of an earlier
     * one: a target that records committed checkpoint ids records the epoch with them, and finds its
     * own earlier success by (job id, operator id, epoch, checkpoint id).
     */
    default String epoch() {
        return "";
    }

    /** The checkpoint the data belongs to; {@code Long.MAX_VALUE} at end of bounded input. */
    long checkpointId();

    /** What the writers returned from {@link TargetWriter#prepareCommit}, in no defined order. */
    List<Payload> pending();

    /**
     * Pending files that were written for compaction and are published now, grouped into units
     * that each become one file; empty unless the target wrote {@link
     * PendingCommit#forCompaction()} files. The committer makes {@link #pending()} visible and
     * runs every unit, both idempotently.
     */
    default List<CompactionUnit> compactions() {
        return Collections.emptyList();
    }
}
