package io.sluice.spi.format;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.table.types.logical.RowType;

/**
 * What a {@link FormatFactory} gets to build an encoder or a bulk writer.
 *
 * <p>The options are the format's own, with the format prefix removed: a table option {@code
 * csv.field-delimiter} arrives here as {@code field-delimiter}.
 */
public interface FormatContext {

    /** The type of the rows to write. */
    RowType rowType();

    /** The format's options, prefix removed. */
    ReadableConfig options();

    /**
     * Where a reader counts the records it skips as malformed (with the format's {@code
     * ignore-parse-errors}): the source's {@code numRecordsInErrors} metric when reading in a job;
     * a counter nobody reads elsewhere.
     */
    default Counter skippedRecords() {
        return new SimpleCounter();
    }
}
