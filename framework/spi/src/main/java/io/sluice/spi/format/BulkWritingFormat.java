package io.sluice.spi.format;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.table.data.RowData;

/**
 * A format whose writer owns the whole file (a footer, column chunks), so a part file cannot be
 * resumed after a failure: the framework rolls such files on every checkpoint.
 *
 * @since 2.0.0
 */
public interface BulkWritingFormat extends FormatFactory {

    /** Creates the writer factory for rows of {@code context.rowType()}. */
    BulkWriter.Factory<RowData> createBulkWriterFactory(FormatContext context);
}
