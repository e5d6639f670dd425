package io.sluice.spi.sink;

import org.apache.flink.table.data.RowData;

/**
 * Decides which bucket a row goes to: a directory relative to the base path for file targets, a
 * partition for table targets. Rows of one bucket share part files.
 *
 * <p>Called by one writer thread for every row; must be fast and must not keep the row. The
 * returned id is a relative path made only of safe segments: an id containing {@code ..} or an
 * absolute path is rejected by the writer.
 */
public interface BucketAssigner {

    /** The bucket of this row; {@code ""} is the base path itself. */
    String bucketId(RowData row, RecordContext context);
}
