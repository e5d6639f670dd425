package io.sluice.spi.compact;

import org.apache.flink.table.data.RowData;

import java.io.IOException;

/** Rows into a file, in the sink's format. */
public interface RowWriter {

    /** Appends one row. */
    void write(RowData row) throws IOException;
}
