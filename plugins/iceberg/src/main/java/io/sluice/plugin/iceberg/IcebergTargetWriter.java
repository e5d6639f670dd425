package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.RecordContext;
import io.sluice.spi.sink.TargetWriter;

import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.flink.sink.TaskWriterFactory;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Writes one subtask's rows with Iceberg's own Flink task writers, partitioned by the table's
 * spec and rolled at the target file size. In upsert mode they are Iceberg's delta writers: an
 * insert or update deletes its key first (a position delete when the key was written since the
 * last checkpoint, an equality delete otherwise) and a delete writes only the key's delete. At every checkpoint it completes the task writer: all
 * its data files close and go to the committer in one {@link PendingCommit}, listed in temporary
 * manifests ({@link PendingFiles}). Nothing stays open across a checkpoint; files of rows written
 * after the last checkpoint are abandoned on failure and the rows are written again from the
 * restored position. The writer's state is only who it is: its id, which its files' and temporary
 * manifests' names carry, and the numbers of the last file and manifest it handed to the
 * committer, so that its successor can delete the files and manifests it wrote after the
 * checkpoint ({@link LeftoverDataFiles}).
 */
final class IcebergTargetWriter implements TargetWriter {

    private final CatalogTable table;
    private final TaskWriterFactory<RowData> writers;
    private final TemporaryManifests manifests;
    private final boolean upsert;
    private final WriterMetrics metrics;
    private final UnaryOperator<RowData> widening; // null: rows have the table's types
    private final String writerId;
    private final int inlineLimit;
    private long handedOver; // the highest number of a file handed to the committer
    private TaskWriter<RowData> current; // null until the first row after a checkpoint

    IcebergTargetWriter(
            CatalogTable table,
            TaskWriterFactory<RowData> writers,
            TemporaryManifests manifests,
            boolean upsert,
            WriterMetrics metrics,
            UnaryOperator<RowData> widening,
            String writerId,
            int inlineLimit) {
        this.inlineLimit = inlineLimit;
        this.widening = widening;
        this.writerId = writerId;
        this.table = table;
        this.writers = writers;
        this.manifests = manifests;
        this.upsert = upsert;
        this.metrics = metrics;
    }

    @Override
    public void write(RowData row, RecordContext context) throws IOException {
        RowKind kind = row.getRowKind();
        if (!upsert && (kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE)) {
            // an append writer would store the retraction as a new row
            throw new IOException("The iceberg target appends rows, but got a " + kind + " row: changelog input needs"
                    + " upsert mode ('" + IcebergOptions.UPSERT_ENABLED.key() + "' = 'true' on a format v2 table with a"
                    + " primary key)");
        }
        if (current == null) {
            current = writers.create();
        }
        current.write(widening == null ? row : widening.apply(row));
    }

    @Override
    public List<PendingCommit> prepareCommit(boolean endOfInput) throws IOException {
        if (current == null) {
            return Collections.emptyList();
        }
        long start = System.currentTimeMillis();
        WriteResult result = current.complete();
        current = null;
        if (result.rewrittenDeleteFiles().length > 0) {
            // only a format v3 writer merging deletion vectors with older ones does, and it is not used here
            throw new IllegalStateException(
                    "Iceberg's writer replaced delete files, which this target does not commit");
        }
        handedOver = LeftoverDataFiles.highestNumber(result.dataFiles(), writerId, handedOver);
        handedOver = LeftoverDataFiles.highestNumber(result.deleteFiles(), writerId, handedOver);
        if (result.dataFiles().length == 0 && result.deleteFiles().length == 0) {
            return Collections.emptyList();
        }
        PendingFiles files = PendingFiles.write(table.table(), result, manifests, inlineLimit);
        metrics.flushed(result, System.currentTimeMillis() - start);
        return Collections.singletonList(new PendingCommit(files.toPayload(), null, 0L));
    }

    /** Idle between a checkpoint and its next row: prepareCommit completed every file. */
    @Override
    public boolean isIdle() {
        return current == null;
    }

    @Override
    public List<Payload> snapshotState(long checkpointId) throws IOException {
        // prepareCommit closed every file: nothing in progress to resume, only who wrote which files
        return Collections.singletonList(state(writerId, handedOver, manifests.written()));
    }

    /** Marks the writer's state, so state another target wrote under the same uid is recognised. */
    private static final String STATE_MAGIC = "sluice-iceberg-writer";

    static final int STATE_VERSION = 2;

    /**
     * Version 2: the magic, the writer id (both {@code writeUTF}), the last handed-over file's
     * number, then the last handed-over temporary manifest's number (both {@code long}). Version
     * 1 (read) ends after the file's number: its writer named its manifests after a random id, so
     * none of them is recognised as a leftover.
     */
    static Payload state(String writerId, long handedOver, long manifestsHandedOver) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(STATE_MAGIC);
            out.writeUTF(writerId);
            out.writeLong(handedOver);
            out.writeLong(manifestsHandedOver);
        }
        return new Payload(STATE_VERSION, bytes.toByteArray());
    }

    /** The earlier writer a state of any version names, or empty if the state is not this writer's. */
    static Optional<LeftoverDataFiles.Earlier> earlier(Payload state) {
        if (state.version() != 1 && state.version() != 2) {
            return Optional.empty();
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(state.bytes()))) {
            if (!STATE_MAGIC.equals(in.readUTF())) {
                return Optional.empty();
            }
            String id = in.readUTF();
            long handedOver = in.readLong();
            LeftoverDataFiles.Earlier earlier = state.version() == 1
                    ? new LeftoverDataFiles.Earlier(id, handedOver)
                    : new LeftoverDataFiles.Earlier(id, handedOver, in.readLong());
            if (in.available() > 0) {
                return Optional.empty();
            }
            return Optional.of(earlier);
        } catch (IOException notOurs) {
            return Optional.empty();
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (current != null) {
                // rows after the last checkpoint: written again after the restore
                current.abort();
                current = null;
            }
        } finally {
            table.close();
        }
    }
}
