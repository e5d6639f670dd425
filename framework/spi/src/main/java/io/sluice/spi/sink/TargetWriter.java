package io.sluice.spi.sink;

import io.sluice.spi.Payload;

import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.util.List;

/**
 * Writes rows of one parallel subtask into in-progress data that becomes pending at a checkpoint
 * and visible only when the {@link TargetCommitter} commits it.
 *
 * <p>Lifecycle, all on the subtask's single task thread: {@link #write} for every row; {@link
 * #prepareCommit} right before each checkpoint barrier and at end of input; {@link #snapshotState}
 * after {@code prepareCommit} for the same checkpoint; {@link #onProcessingTime} every {@link
 * #processingTimeInterval()} ms; {@link #close} when the task ends or fails.
 *
 * <p>Everything returned by {@code prepareCommit} for a checkpoint is committed after that
 * checkpoint completes, or again after a restore from it; nothing else is. State returned by
 * {@code snapshotState} is given back to {@link TargetFactory#createWriter} after a restore, so
 * in-progress data can be resumed or discarded. Exceptions fail the task; Flink restarts it from
 * the last checkpoint.
 */
public interface TargetWriter extends AutoCloseable {

    /** Writes a row. */
    void write(RowData row, RecordContext context) throws IOException;

    /**
     * Closes what must be committed with the coming checkpoint and returns it.
     *
     * @param endOfInput {@code true} at the end of bounded input: everything still open must be
     *     returned
     */
    List<PendingCommit> prepareCommit(boolean endOfInput) throws IOException;

    /** The state to resume from after a restore from {@code checkpointId}. */
    List<Payload> snapshotState(long checkpointId) throws IOException;

    /** How often {@link #onProcessingTime} is called, in ms; zero or less for never. */
    default long processingTimeInterval() {
        return -1;
    }

    /** Called every {@link #processingTimeInterval()} ms, e.g. to roll inactive part files. */
    default void onProcessingTime(long currentTime) throws IOException {}

    /**
     * Whether a restore would need nothing of this writer: no open file, nothing buffered, all it
     * wrote handed over by {@link #prepareCommit}. Asked right before {@link #snapshotState}; a
     * writer that answers {@code true} may be closed instead (a dynamic sink closes the writers of
     * tables it no longer writes to) and a new one created when rows come again. {@code false} by
     * default: the writer is kept.
     *
     * @since 2.4.0
     */
    default boolean isIdle() {
        return false;
    }

    /** Releases resources; in-progress data not returned by {@code prepareCommit} is abandoned. */
    @Override
    void close() throws Exception;
}
