package io.sluice.spi.source;

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
}
