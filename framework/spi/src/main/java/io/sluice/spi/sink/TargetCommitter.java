package io.sluice.spi.sink;

import org.apache.flink.core.fs.Path;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Makes pending data visible: renames part files, commits a table snapshot.
 *
 * <p>The framework creates a committer on every subtask of the sink's commit operator (Flink runs
 * it at the writers' parallelism), but hands requests to one of them only: each sink's requests
 * reach one committer, on a single thread, after the checkpoint the data belongs to has completed.
 * So a committer should open what it needs (a catalog, a table) when the first request comes, not
 * when it is created. A commit must be idempotent: after a failure the framework may
 * call it again with the same request, also when the first call succeeded but its outcome was
 * never acknowledged; such a retry must find the earlier success and change nothing. Requests
 * arrive in checkpoint order. An exception fails the job; the request is retried after restore.
 */
public interface TargetCommitter extends AutoCloseable {

    /** Commits everything in the request, or nothing. */
    void commit(CommitRequest request) throws IOException;

    /**
     * Where the files of a partition are, for the commit policies that work on its directory (a
     * success file) or register it (a metastore partition's location). The target decides: a file
     * target from its base path, a Hive table from the metastore. Empty (the default) for a target
     * without partition directories, such as a table format that tracks its files in metadata; a
     * policy that asks for the location then fails, naming the target.
     *
     * @param partitionId the partition, as the writers reported it ({@link PendingCommit#partition()})
     * @since 2.0.0
     */
    default Optional<Path> partitionLocation(String partitionId) throws IOException {
        return Optional.empty();
    }

    /**
     * The data files a reader of the partition sees now, after every commit so far: what a policy
     * that records a partition's files (a manifest, an external catalog) writes down. Asked after
     * the commit that made the partition due, and again when a policy is retried after a failure,
     * so it lists the visible files rather than those of one commit. Empty by default.
     *
     * @since 2.0.0
     */
    default List<Path> visibleFiles(String partitionId) throws IOException {
        return Collections.emptyList();
    }

    /**
     * Pending data the framework will never commit: the job has failed for good (an error that
     * recurs on every attempt) while this data had arrived at the commit and no checkpoint of the
     * framework's holds it, so no restore will hand it over again. Delete what of it no snapshot of
     * a writer refers to either: the target knows from its own payload (a file a writer had open at
     * its last snapshot and closed later is still that snapshot's, to be resumed if the job is
     * restored from it; a file opened after it is nobody's). Best effort: what cannot be deleted
     * stays for a restored writer's clean-up, and a failure here is logged, never thrown over the
     * job's own. Does nothing by default.
     *
     * @since 2.11.0
     */
    default void discard(List<PendingCommit> pending) throws IOException {}

    @Override
    default void close() throws Exception {}
}
