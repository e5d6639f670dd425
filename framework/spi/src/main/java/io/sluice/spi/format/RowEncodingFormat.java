package io.sluice.spi.format;

import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.table.data.RowData;

/**
 * A format that writes one record at a time, appending to a part file that stays open across
 * checkpoints and is resumed after a failure.
 *
 * @since 2.0.0
 */
public interface RowEncodingFormat extends FormatFactory {

    /** Creates the encoder of one part file writer, for rows of {@code context.rowType()}. */
    Encoder<RowData> createEncoder(FormatContext context);
}
