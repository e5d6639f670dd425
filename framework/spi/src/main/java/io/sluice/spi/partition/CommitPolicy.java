package io.sluice.spi.partition;

/**
 * What to do when a partition is finished: write a success file, add the partition to a
 * metastore, notify a downstream system.
 *
 * <p>Called by the framework's single partition-commit task after the partition's data has been
 * committed and the commit trigger ({@code sink.partition-commit.trigger}) fires. A partition can
 * be committed again when late data arrives, and again after a failure, so a policy must be
 * idempotent. An exception fails the job; the partition is committed again after restore.
 */
public interface CommitPolicy {

    /** Commits one partition. */
    void commit(PartitionCommitContext context) throws Exception;

    /**
     * Releases what the policy keeps between commits (a metastore connection, say), when the
     * framework's partition-commit task closes: at the end of the job, and before a restore, which
     * creates the policy anew. Not called between partitions, so a policy may keep one connection
     * for all of them. By default nothing to release.
     *
     * @since 2.6.0
     */
    default void close() throws Exception {}
}
