package io.sluice.runtime.source;

import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The splits an enumerator has found but not yet handed out, and the readers waiting for one.
 * Readers ask for a split when they are idle; a reader that asks when none is pending waits until
 * one arrives, or, in a bounded read, is told that there will be no more. Shared by the file and
 * the scan enumerators; used from the coordinator thread only.
 */
public final class SplitAssignment<S extends SourceSplit> {

    private final SplitEnumeratorContext<S> context;
    private final boolean bounded;
    private final ArrayDeque<S> pending;
    private final Set<Integer> waitingReaders = new LinkedHashSet<>();

    public SplitAssignment(SplitEnumeratorContext<S> context, boolean bounded, Collection<S> pending) {
        this.context = context;
        this.bounded = bounded;
        this.pending = new ArrayDeque<>(pending);
    }

    /** Queues new splits (or splits a failed reader gave back) and serves waiting readers. */
    public void add(Collection<S> splits) {
        pending.addAll(splits);
        assignToWaitingReaders();
    }

    /** A reader asks for a split. */
    public void request(int subtaskId) {
        waitingReaders.add(subtaskId);
        assignToWaitingReaders();
    }

    /** The splits not yet handed out, for a checkpoint. */
    public List<S> pending() {
        return new ArrayList<>(pending);
    }

    private void assignToWaitingReaders() {
        Iterator<Integer> it = waitingReaders.iterator();
        while (it.hasNext()) {
            int reader = it.next();
            if (!context.registeredReaders().containsKey(reader)) {
                it.remove();
                continue;
            }
            S split = pending.poll();
            if (split != null) {
                context.assignSplit(split, reader);
                it.remove();
            } else if (bounded) {
                context.signalNoMoreSplits(reader);
                it.remove();
            } else {
                break;
            }
        }
    }
}
