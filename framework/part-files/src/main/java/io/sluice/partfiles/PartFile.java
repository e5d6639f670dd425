package io.sluice.partfiles;

import io.sluice.spi.format.BufferingBulkWriter;
import io.sluice.spi.sink.PartFileState;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;

import java.io.IOException;

/** One open (in-progress) part file of a bucket: row-encoded or bulk-written. */
final class PartFile implements PartFileState {

    /** How many rows apart the heap estimate is asked for, once a file has this many. */
    static final int HEAP_CHECK_ROWS = 128;

    /**
     * What an open file of a bulk writer that gives no estimate of its own counts toward the
     * writer's memory budget (ORC, Avro, nested Parquet, Hive's record writers): a floor, about
     * what Avro holds (one block of its 64 KB sync interval); ORC and Parquet hold more once their
     * column buffers fill. Without it such files counted nothing and no budget ever held them.
     */
    static final long UNESTIMATED_BULK_FILE_BYTES = 64 * 1024;

    private final String bucketId;
    private final Path path; // where the file is published; null for a compaction output
    private final RecoverableFsDataOutputStream stream;
    private final PositionCountingStream counted; // what the encoder / bulk writer write to
    private final Encoder<RowData> encoder; // null for bulk
    private final BulkWriter<RowData> bulk; // null for row
    private final ProjectedRowData projected; // null: whole rows
    private final long creationTime;
    private long lastUpdateTime;
    private final BufferingBulkWriter buffering; // null: no heap estimate (row formats, other bulk writers)
    private long rows;
    /** Opened after its writer's last snapshot, and in none since: no snapshot refers to it. */
    private boolean inNoSnapshot;

    private long nextHeapCheck = 1;
    private long heapBytes;

    PartFile(
            String bucketId,
            Path path,
            RecoverableFsDataOutputStream stream,
            PositionCountingStream counted,
            Encoder<RowData> encoder,
            BulkWriter<RowData> bulk,
            ProjectedRowData projected,
            long creationTime) {
        this.bucketId = bucketId;
        this.path = path;
        this.stream = stream;
        this.counted = counted;
        this.encoder = encoder;
        this.bulk = bulk;
        this.projected = projected;
        this.creationTime = creationTime;
        this.lastUpdateTime = creationTime;
        this.buffering = bulk instanceof BufferingBulkWriter ? (BufferingBulkWriter) bulk : null;
    }

    void write(RowData row, long now) throws IOException {
        RowData out = projected == null ? row : projected.replaceRow(row);
        if (bulk != null) {
            bulk.addElement(out);
        } else {
            encoder.encode(out, counted);
        }
        lastUpdateTime = now;
        rows++;
    }

    /**
     * Asks the bulk writer for its heap estimate when due: after rows 1, 2, 4, ... 128 of the file,
     * then every 128 rows, so an open file is counted from its first row and the cost per row
     * stays small.
     *
     * @return by how much the estimate changed since it was last asked (0 when not due)
     */
    long updateHeapEstimate() {
        if (buffering == null) {
            if (bulk == null || heapBytes > 0) {
                return 0;
            }
            heapBytes = UNESTIMATED_BULK_FILE_BYTES;
            return heapBytes;
        }
        if (rows < nextHeapCheck) {
            return 0;
        }
        nextHeapCheck = rows < HEAP_CHECK_ROWS ? rows * 2 : rows + HEAP_CHECK_ROWS;
        long previous = heapBytes;
        heapBytes = Math.max(0, buffering.heapBytes());
        return heapBytes - previous;
    }

    /** The heap estimate last asked for; for a bulk writer that gives none, {@link #UNESTIMATED_BULK_FILE_BYTES}. */
    long heapBytes() {
        return heapBytes;
    }

    /** The writer has just opened the file: no snapshot refers to it yet. */
    void opened() {
        inNoSnapshot = true;
    }

    /** A snapshot of the writer refers to the file now: a restore from it resumes the file. */
    void snapshotted() {
        inNoSnapshot = false;
    }

    /** Whether no snapshot refers to the file (false for a file resumed from one). */
    boolean inNoSnapshot() {
        return inNoSnapshot;
    }

    /** Where the file is published. */
    Path path() {
        return path;
    }

    void touch(long time) {
        lastUpdateTime = time;
    }

    /** Flushes and returns what resumes this file after a failure (row formats only). */
    RecoverableWriter.ResumeRecoverable persist() throws IOException {
        return stream.persist();
    }

    /** Finishes the file's format (a bulk writer's last rows and footer): its buffers are free after. */
    void finish() throws IOException {
        if (bulk != null) {
            bulk.finish();
        }
    }

    /** Finishes the file and closes it for commit: it becomes pending and is published by the committer. */
    RecoverableWriter.CommitRecoverable closeForCommit() throws IOException {
        finish();
        return closeFinishedForCommit();
    }

    /**
     * Closes a {@link #finish finished} file for commit: durable then. Touches nothing but the
     * stream, so it may run on another thread. A file not finished first loses what its format
     * still holds (a bulk writer's last rows and footer): every other caller uses {@link
     * #closeForCommit}.
     */
    RecoverableWriter.CommitRecoverable closeFinishedForCommit() throws IOException {
        return stream.closeForCommit().getRecoverable();
    }

    /** Abandons the file (on close without commit); its in-progress data stays hidden. */
    void dispose() {
        try {
            stream.close();
        } catch (IOException ignored) {
            // the file is invisible and will be truncated or ignored on recovery
        }
    }

    @Override
    public String bucketId() {
        return bucketId;
    }

    @Override
    public long creationTime() {
        return creationTime;
    }

    @Override
    public long lastUpdateTime() {
        return lastUpdateTime;
    }

    @Override
    public long size() {
        return counted.getPos();
    }
}
