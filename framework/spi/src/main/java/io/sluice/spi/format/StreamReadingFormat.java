package io.sluice.spi.format;

import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.table.data.RowData;

/**
 * A format read record by record from a stream (text, csv, json); the reader can be restored at a
 * record offset.
 *
 * @since 2.0.0
 */
public interface StreamReadingFormat extends FormatFactory {

    /** Creates the reader format, producing rows of {@code context.rowType()} (the file's columns, in that order). */
    StreamFormat<RowData> createStreamFormat(FormatContext context);
}
