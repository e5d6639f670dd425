package io.sluice.spi.source;

import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.io.Closeable;
import java.io.IOException;

/**
 * The rows of one open split, with the position after each. The position is two numbers the
 * reader defines (for Iceberg: the file within the split and the row within that file); passed to
 * {@link ScanSplitReader#open}, they must resume at the row after the last one returned.
 */
@io.sluice.spi.Experimental
public interface SplitRows extends Closeable {

    /**
     * The next row, or {@code null} at the end of the split. The reader may reuse the returned
     * object for the next row; the framework copies what it keeps.
     */
    @Nullable
    RowData next() throws IOException;

    /**
     * The first part of the position after the row last returned (before the first row: the
     * position the split was opened at).
     */
    long offset();

    /** The second part of the position after the row last returned. */
    long recordsToSkip();

    /**
     * Whether the reader hands over its own batches ({@link #nextBatch}) instead of rows one by
     * one: for a reader whose format reads in batches anyway (a vectorized Parquet or ORC reader),
     * so that the framework passes them on without copying each row. By default false.
     *
     * @since 2.6.0
     */
    default boolean batched() {
        return false;
    }

    /**
     * The reader's next batch, as it is, each row with the position after it (what {@link
     * #offset()} and {@link #recordsToSkip()} would say after that row); its rows stay valid until
     * the framework releases the batch. Null at the end of the split. Called only when {@link
     * #batched()}, and then instead of {@link #next()}.
     *
     * @since 2.6.0
     */
    @Nullable
    default BulkFormat.RecordIterator<RowData> nextBatch() throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " reads row by row");
    }
}
