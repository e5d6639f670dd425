package io.sluice.spi.sink;

import java.io.IOException;

/**
 * Makes pending data visible: renames part files, commits a table snapshot.
 *
 * <p>One committer runs per sink (parallelism one), on a single thread, after the checkpoint the
 * data belongs to has completed. A commit must be idempotent: after a failure the framework may
 * call it again with the same request, also when the first call succeeded but its outcome was
 * never acknowledged; such a retry must find the earlier success and change nothing. Requests
 * arrive in checkpoint order. An exception fails the job; the request is retried after restore.
 */
public interface TargetCommitter extends AutoCloseable {

    /** Commits everything in the request, or nothing. */
    void commit(CommitRequest request) throws IOException;

    @Override
    default void close() throws Exception {}
}
