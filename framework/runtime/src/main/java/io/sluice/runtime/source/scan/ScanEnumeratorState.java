package io.sluice.runtime.source.scan;

import io.sluice.runtime.state.Envelope;

import javax.annotation.Nullable;

import java.util.Collections;
import java.util.List;

/**
 * Checkpointed state of a scan source's enumerator: the splits not yet handed out, the planner's
 * position after the last plan whose splits are among them or already handed out, and the number
 * the next split's id starts from.
 */
public final class ScanEnumeratorState {

    private final List<ScanSourceSplit> pendingSplits;

    @Nullable
    private final Envelope position;

    private final long nextSplitNumber;

    ScanEnumeratorState(List<ScanSourceSplit> pendingSplits, @Nullable Envelope position, long nextSplitNumber) {
        this.pendingSplits = Collections.unmodifiableList(pendingSplits);
        this.position = position;
        this.nextSplitNumber = nextSplitNumber;
    }

    public List<ScanSourceSplit> pendingSplits() {
        return pendingSplits;
    }

    /** The planner's position; {@code null} before the first plan found anything to start from. */
    @Nullable
    public Envelope position() {
        return position;
    }

    long nextSplitNumber() {
        return nextSplitNumber;
    }
}
