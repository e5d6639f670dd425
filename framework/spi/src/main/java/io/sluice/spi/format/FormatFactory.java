package io.sluice.spi.format;

import io.sluice.spi.SluiceFactory;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.table.data.RowData;

/**
 * Decides the bytes of a file: a row format (an {@link Encoder} appending one record at a time to
 * a stream that may be resumed after a failure) or a bulk format (a {@link BulkWriter} that owns
 * the whole file, such as Parquet, and therefore rolls on every checkpoint).
 *
 * <p>Called on the task side when a writer opens. The returned encoder or writer factory is used
 * by one writer thread only. Invalid format options are reported as an {@link
 * IllegalArgumentException} naming the option and the value.
 */
public interface FormatFactory extends SluiceFactory {

    /** Whether this is a bulk format. Bulk formats roll their part files on every checkpoint. */
    boolean isBulk();

    /**
     * Creates the encoder of a row format.
     *
     * @throws UnsupportedOperationException for a bulk format
     */
    default Encoder<RowData> createEncoder(FormatContext context) {
        throw new UnsupportedOperationException(identifier() + " is a bulk format");
    }

    /**
     * Creates the writer factory of a bulk format.
     *
     * @throws UnsupportedOperationException for a row format
     */
    default BulkWriter.Factory<RowData> createBulkWriterFactory(FormatContext context) {
        throw new UnsupportedOperationException(identifier() + " is a row format");
    }
}
