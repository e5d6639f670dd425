package io.sluice.runtime.state;

import java.util.Collections;
import java.util.List;

/**
 * What travels from the writers to the committer: the pending commits of one checkpoint. Each
 * writer emits one per checkpoint (its checkpoint id is not known yet and is 0); the aggregator
 * merges those of all writers into one with the checkpoint id set, and adds the partitions that are
 * finished and due for their commit policies once the files are visible.
 */
public final class Committable {

    private final long checkpointId;
    private final List<Entry> entries;
    private final List<String> duePartitions;

    public Committable(long checkpointId, List<Entry> entries) {
        this(checkpointId, entries, Collections.emptyList());
    }

    public Committable(long checkpointId, List<Entry> entries, List<String> duePartitions) {
        this.checkpointId = checkpointId;
        this.entries = Collections.unmodifiableList(entries);
        this.duePartitions = Collections.unmodifiableList(duePartitions);
    }

    /** Partitions to run the commit policies on after this committable's files are committed. */
    public List<String> duePartitions() {
        return duePartitions;
    }

    public long checkpointId() {
        return checkpointId;
    }

    public List<Entry> entries() {
        return entries;
    }

    /** One pending commit: the target's payload, and the partition it belongs to, if any. */
    public static final class Entry {
        private final Envelope envelope;
        private final String partition; // nullable
        private final long partitionCreationTime;

        public Entry(Envelope envelope, String partition, long partitionCreationTime) {
            this.envelope = envelope;
            this.partition = partition;
            this.partitionCreationTime = partitionCreationTime;
        }

        public Envelope envelope() {
            return envelope;
        }

        /** The partition (bucket id), or {@code null}. */
        public String partition() {
            return partition;
        }

        public long partitionCreationTime() {
            return partitionCreationTime;
        }
    }
}
