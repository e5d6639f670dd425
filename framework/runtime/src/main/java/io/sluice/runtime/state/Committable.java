package io.sluice.runtime.state;

import java.util.Collections;
import java.util.List;

/**
 * What travels from the writers to the committer: the pending commits of one checkpoint. Each
 * writer emits one per checkpoint (its checkpoint id is not known yet and is 0, its ids empty); the
 * aggregator merges those of all writers into one, stamps it with the checkpoint id, the job id
 * and its own operator id, groups the files written for compaction into units, and adds the
 * partitions that are finished and due for their commit policies once the files are visible.
 */
public final class Committable {

    private final long checkpointId;
    private final String jobId;
    private final String operatorId;
    private final String epoch;
    private final List<Entry> entries;
    private final List<Unit> compactions;
    private final List<String> duePartitions;

    /** A writer's committable: entries only. */
    public Committable(List<Entry> entries) {
        this(0, "", "", "", entries, Collections.emptyList(), Collections.emptyList());
    }

    public Committable(
            long checkpointId,
            String jobId,
            String operatorId,
            String epoch,
            List<Entry> entries,
            List<Unit> compactions,
            List<String> duePartitions) {
        this.checkpointId = checkpointId;
        this.jobId = jobId;
        this.operatorId = operatorId;
        this.epoch = epoch;
        this.entries = Collections.unmodifiableList(entries);
        this.compactions = Collections.unmodifiableList(compactions);
        this.duePartitions = Collections.unmodifiableList(duePartitions);
    }

    public long checkpointId() {
        return checkpointId;
    }

    /** The job that wrote the data (not necessarily the one committing it, after a restore). */
    public String jobId() {
        return jobId;
    }

    /** The operator id of the aggregator that made this committable. */
    public String operatorId() {
        return operatorId;
    }

    /**
     * The run of the aggregator (from one start or restore to the next) that made this committable.
     * Checkpoint ids repeat after a restore from an older checkpoint (with a fixed job id); the
     * epoch tells this run's checkpoint n from an earlier run's.
     */
    public String epoch() {
        return epoch;
    }

    /** Pending commits to publish as they are. */
    public List<Entry> entries() {
        return entries;
    }

    /** Groups of files written for compaction, each to publish as one file. */
    public List<Unit> compactions() {
        return compactions;
    }

    /** Partitions to run the commit policies on after this committable's files are committed. */
    public List<String> duePartitions() {
        return duePartitions;
    }

    /** One pending commit: the target's payload, and the partition it belongs to, if any. */
    public static final class Entry {
        private final Envelope envelope;
        private final String partition; // nullable
        private final long partitionCreationTime;
        private final long size;
        private final boolean forCompaction;

        public Entry(
                Envelope envelope, String partition, long partitionCreationTime, long size, boolean forCompaction) {
            this.envelope = envelope;
            this.partition = partition;
            this.partitionCreationTime = partitionCreationTime;
            this.size = size;
            this.forCompaction = forCompaction;
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

        /** Size in bytes, or -1 if unknown. */
        public long size() {
            return size;
        }

        /** Whether this file is published only through a compaction unit. */
        public boolean forCompaction() {
            return forCompaction;
        }
    }

    /** Files of one bucket to merge into one. */
    public static final class Unit {
        private final String bucketId;
        private final List<Envelope> inputs;

        public Unit(String bucketId, List<Envelope> inputs) {
            this.bucketId = bucketId;
            this.inputs = Collections.unmodifiableList(inputs);
        }

        public String bucketId() {
            return bucketId;
        }

        public List<Envelope> inputs() {
            return inputs;
        }
    }
}
