package io.sluice.runtime.source.file;

import org.apache.flink.connector.file.src.FileSourceSplit;

import java.util.Collections;
import java.util.List;

/** Checkpointed state of the split enumerator: splits not yet assigned, and the files seen. */
public final class EnumeratorState {

    private final List<FileSourceSplit> pendingSplits;
    private final SeenFiles seen; // null for a bounded read

    EnumeratorState(List<FileSourceSplit> pendingSplits, SeenFiles seen) {
        this.pendingSplits = Collections.unmodifiableList(pendingSplits);
        this.seen = seen;
    }

    public List<FileSourceSplit> pendingSplits() {
        return pendingSplits;
    }

    SeenFiles seen() {
        return seen;
    }
}
