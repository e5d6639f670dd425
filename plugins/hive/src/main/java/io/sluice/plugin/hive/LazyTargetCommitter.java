package io.sluice.plugin.hive;

import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;

import org.apache.flink.core.fs.Path;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The hive target's committer, made when the first request comes. Flink creates a committer on
 * every subtask of the sink's commit operator and the framework hands requests to one of them
 * (see {@link TargetCommitter}): reading the table from the metastore when each is created would
 * open a metastore connection per subtask for nothing.
 */
final class LazyTargetCommitter implements TargetCommitter {

    /** Makes the real committer. */
    interface Opener {
        TargetCommitter open() throws IOException;
    }

    private final Opener opener;
    private TargetCommitter committer;

    LazyTargetCommitter(Opener opener) {
        this.opener = opener;
    }

    private TargetCommitter committer() throws IOException {
        if (committer == null) {
            committer = opener.open();
        }
        return committer;
    }

    @Override
    public void commit(CommitRequest request) throws IOException {
        committer().commit(request);
    }

    @Override
    public Optional<Path> partitionLocation(String partitionId) throws IOException {
        return committer().partitionLocation(partitionId);
    }

    @Override
    public List<Path> visibleFiles(String partitionId) throws IOException {
        return committer().visibleFiles(partitionId);
    }

    @Override
    public void discard(List<PendingCommit> pending) throws IOException {
        committer().discard(pending);
    }

    @Override
    public void close() throws Exception {
        if (committer != null) {
            committer.close();
        }
    }
}
