package io.sluice.spi.format;

import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.table.data.RowData;

/**
 * A format read in batches (columnar formats with vectorized reads).
 *
 * @since 2.0.0
 */
public interface BulkReadingFormat extends FormatFactory {

    /**
     * Creates the reader format, producing rows of {@code context.rowType()}: the file's columns to
     * read, in that order (a projection of what the file holds, for columnar formats).
     */
    BulkFormat<RowData, FileSourceSplit> createBulkFormat(FormatContext context);
}
