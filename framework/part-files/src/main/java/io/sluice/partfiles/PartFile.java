package io.sluice.partfiles;

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

    private final String bucketId;
    private final Path path; // where the file is published; null for a compaction output
    private final RecoverableFsDataOutputStream stream;
    private final PositionCountingStream counted; // what the encoder / bulk writer write to
    private final Encoder<RowData> encoder; // null for bulk
    private final BulkWriter<RowData> bulk; // null for row
    private final ProjectedRowData projected; // null: whole rows
    private final long creationTime;
    private long lastUpdateTime;

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
    }

    void write(RowData row, long now) throws IOException {
        RowData out = projected == null ? row : projected.replaceRow(row);
        if (bulk != null) {
            bulk.addElement(out);
        } else {
            encoder.encode(out, counted);
        }
        lastUpdateTime = now;
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

    /** Finishes the file; it becomes pending and is published by the committer. */
    RecoverableWriter.CommitRecoverable closeForCommit() throws IOException {
        if (bulk != null) {
            bulk.finish();
        }
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
