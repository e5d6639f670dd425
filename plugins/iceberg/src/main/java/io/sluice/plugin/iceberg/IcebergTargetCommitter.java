package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.TargetCommitter;

import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ReplacePartitions;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Commits one checkpoint's files of all writers as one snapshot: an append, a row delta when
 * there are delete files (upserts), or, when the sink overwrites, a dynamic partition overwrite
 * that replaces every partition the files are in (the whole table if it is unpartitioned). The
 * user's snapshot properties go into every summary. The snapshot's summary records job, operator and checkpoint ({@link
 * CommittedCheckpoints}); before committing, the committer looks there for its own earlier
 * success, so a request handed over again (after a failure whose outcome was unknown, or after a
 * restore from a checkpoint taken before the commit was acknowledged) changes nothing but deleting
 * the request's temporary manifests, which a committer that died right after its commit left.
 *
 * <p>A commit that fails leaves the table as it was (Iceberg commits a snapshot atomically or not
 * at all) and fails the job; the request comes again after the restore.
 */
final class IcebergTargetCommitter implements TargetCommitter {

    private static final Logger LOG = LoggerFactory.getLogger(IcebergTargetCommitter.class);

    private final CatalogTable catalogTable;
    private final String branch;
    private final WriteSettings settings;
    private final CommitterMetrics metrics;

    IcebergTargetCommitter(CatalogTable catalogTable, WriteSettings settings, CommitterMetrics metrics) {
        this.catalogTable = catalogTable;
        this.branch = settings.branch();
        this.settings = settings;
        this.metrics = metrics;
    }

    /**
     * A checkpoint as a message names it: at the end of bounded input the id is {@code
     * Long.MAX_VALUE} (Flink's end-of-input id), which a user reads as "the end of input".
     */
    static String checkpoint(long checkpointId) {
        return checkpointId == Long.MAX_VALUE ? "the end of input" : "checkpoint " + checkpointId;
    }

    @Override
    public void commit(CommitRequest request) throws IOException {
        Table table = catalogTable.table();
        table.refresh();
        long committed = CommittedCheckpoints.lastCommitted(
                table, branch, request.jobId(), request.operatorId(), request.epoch());
        if (committed >= request.checkpointId()) {
            LOG.info(
                    "The data of {} of job {} (sink {}) is already in Iceberg table {} (branch {}, up to {}):"
                            + " nothing to commit",
                    checkpoint(request.checkpointId()),
                    request.jobId(),
                    request.operatorId(),
                    table.name(),
                    branch,
                    checkpoint(committed));
            // a committer that died between its commit and deleting the request's temporary
            // manifests left them: their files are in the table, nothing reads them again
            deleteManifests(table, request);
            return;
        }
        long readStart = System.currentTimeMillis();
        List<PendingFiles> pending = new ArrayList<>(request.pending().size());
        List<DataFile> data = new ArrayList<>();
        List<DeleteFile> deletes = new ArrayList<>();
        for (Payload p : request.pending()) {
            PendingFiles files = PendingFiles.of(p);
            files.readInto(table, data, deletes);
            pending.add(files);
        }
        metrics.checkpointRead(System.currentTimeMillis() - readStart);
        SnapshotUpdate<?> update = settings.overwrite()
                ? replacePartitions(table, data, deletes)
                : deletes.isEmpty() ? append(table, data) : rowDelta(table, data, deletes);
        // the user's properties first: the sink's own record must not be overridden
        settings.snapshotProperties().applyTo(update);
        CommittedCheckpoints.record(
                update, request.jobId(), request.operatorId(), request.epoch(), request.checkpointId());
        update.toBranch(branch);
        long commitStart = System.currentTimeMillis();
        try {
            update.commit();
        } catch (CommitStateUnknownException e) {
            throw new IOException(
                    "Outcome of the Iceberg commit of " + checkpoint(request.checkpointId()) + " of job "
                            + request.jobId() + " to table " + table.name()
                            + " is unknown; the retry after the restore finds out"
                            + " from the snapshot summaries",
                    e);
        } catch (RuntimeException e) {
            throw new IOException(
                    "Iceberg commit of " + checkpoint(request.checkpointId()) + " of job " + request.jobId()
                            + " to table " + table.name() + " (branch " + branch + ") failed; the table is unchanged",
                    e);
        }
        metrics.committed(data, deletes, System.currentTimeMillis() - commitStart);
        LOG.info(
                "Committed {} of job {} to Iceberg table {} (branch {}{}): {} data files, {} delete files",
                checkpoint(request.checkpointId()),
                request.jobId(),
                table.name(),
                branch,
                settings.overwrite() ? ", overwrite" : "",
                data.size(),
                deletes.size());
        for (PendingFiles files : pending) {
            files.deleteManifests(table.io());
        }
    }

    /** Deletes the temporary manifests of a request whose files are committed; failures only cost space. */
    private static void deleteManifests(Table table, CommitRequest request) {
        for (Payload p : request.pending()) {
            try {
                PendingFiles.of(p).deleteManifests(table.io());
            } catch (IOException | RuntimeException unreadable) {
                LOG.warn(
                        "Cannot read the pending files of {} of job {} for table {} to delete their temporary"
                                + " manifests, which may stay: {}",
                        checkpoint(request.checkpointId()),
                        request.jobId(),
                        table.name(),
                        unreadable.toString());
            }
        }
    }

    private static AppendFiles append(Table table, List<DataFile> data) {
        AppendFiles append = table.newAppend();
        data.forEach(append::appendFile);
        return append;
    }

    private static ReplacePartitions replacePartitions(Table table, List<DataFile> data, List<DeleteFile> deletes) {
        if (!deletes.isEmpty()) {
            // an overwriting sink never upserts (checked on the client): only a bug gets here
            throw new IllegalStateException("An overwrite cannot commit delete files, got " + deletes.size());
        }
        ReplacePartitions replace = table.newReplacePartitions();
        data.forEach(replace::addFile);
        return replace;
    }

    private static RowDelta rowDelta(Table table, List<DataFile> data, List<DeleteFile> deletes) {
        // equality deletes of this checkpoint apply to all data of earlier sequence numbers; the
        // position deletes a Flink writer makes only point into files added with them: nothing
        // committed concurrently can invalidate either, so no validations (as upstream)
        RowDelta delta = table.newRowDelta();
        data.forEach(delta::addRows);
        deletes.forEach(delta::addDeletes);
        return delta;
    }

    @Override
    public void close() throws Exception {
        catalogTable.close();
    }
}
