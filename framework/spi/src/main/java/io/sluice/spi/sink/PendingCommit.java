package io.sluice.spi.sink;

import io.sluice.spi.Payload;

import javax.annotation.Nullable;

import java.util.Objects;

/**
 * Something a {@link TargetWriter} prepared and the {@link TargetCommitter} makes visible: a
 * pending part file, a set of Iceberg data files.
 *
 * <p>The partition, where there is one, is the bucket id the data went to (for Hive-style
 * directories {@code k1=v1/k2=v2}); the framework uses it to decide when a partition is finished
 * and to run the commit policies for it.
 */
public final class PendingCommit {

    private final Payload payload;

    @Nullable
    private final String partition;

    private final long partitionCreationTime;
    private final long size;
    private final boolean forCompaction;

    /**
     * @param payload what the committer needs, in the plugin's own format
     * @param partition the partition (bucket id) written to, or {@code null}
     * @param partitionCreationTime processing time at which the writer first wrote to the
     *     partition, used by the {@code process-time} commit trigger
     */
    public PendingCommit(Payload payload, @Nullable String partition, long partitionCreationTime) {
        this(payload, partition, partitionCreationTime, -1, false);
    }

    /**
     * A pending file that may take part in compaction.
     *
     * @param size the file's size in bytes, or -1 if unknown; the compaction strategy groups files
     *     by it
     * @param forCompaction {@code true} if the file was written under a hidden name and becomes
     *     visible only as (part of) the output of a compaction: the framework then hands it to the
     *     committer in a {@link CompactionUnit}, never in {@link CommitRequest#pending()}, also when
     *     compaction has been switched off since the file was written
     */
    public PendingCommit(
            Payload payload, @Nullable String partition, long partitionCreationTime, long size, boolean forCompaction) {
        this.payload = Objects.requireNonNull(payload, "payload");
        this.partition = partition;
        this.partitionCreationTime = partitionCreationTime;
        this.size = size;
        this.forCompaction = forCompaction;
    }

    /** What the committer needs. */
    public Payload payload() {
        return payload;
    }

    /** The partition written to, or {@code null}. */
    @Nullable
    public String partition() {
        return partition;
    }

    /** Processing time at which the partition was first written by this writer. */
    public long partitionCreationTime() {
        return partitionCreationTime;
    }

    /** The size in bytes of what this commit publishes, or -1 if unknown. */
    public long size() {
        return size;
    }

    /** Whether this pending file is published only through a compaction unit. */
    public boolean forCompaction() {
        return forCompaction;
    }
}
