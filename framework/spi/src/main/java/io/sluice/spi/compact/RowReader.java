package io.sluice.spi.compact;

import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.io.Closeable;
import java.io.IOException;

/** The rows of one file, one at a time. */
public interface RowReader extends Closeable {

    /**
     * The next row, or {@code null} at the end of the file. The row may be reused by the next call:
     * consume it (write it) before asking for the next.
     */
    @Nullable
    RowData next() throws IOException;
}
