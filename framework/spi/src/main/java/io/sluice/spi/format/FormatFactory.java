package io.sluice.spi.format;

import io.sluice.spi.SluiceFactory;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.table.data.RowData;

/**
 * Decides the bytes of a file: a row format (an {@link Encoder} appending one record at a time to
 * a stream that may be resumed after a failure) or a bulk format (a {@link BulkWriter} that owns
 * the whole file, such as Parquet, and therefore rolls on every checkpoint); and how such a file is
 * read back: record by record from a stream ({@link StreamFormat}: text, csv, json) or in batches
 * ({@link BulkFormat}: columnar formats with vectorized reads).
 *
 * <p>Called on the task side when a writer or reader opens. The returned encoder, writer factory
 * or reader format is used by one task thread only; nothing returned is ever serialized by Flink.
 * Invalid format options are reported as an {@link IllegalArgumentException} naming the option and
 * the value. A reader that meets bytes it cannot decode throws an {@link java.io.IOException}
 * naming the file and the offset (or skips the record and counts it when the format's {@code
 * ignore-parse-errors} option is set).
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

    /** How files of this format are read. */
    enum ReaderKind {
        /** This format cannot be read. */
        NONE,
        /** Record by record from a stream: {@link #createStreamFormat}. */
        STREAM,
        /** In batches: {@link #createBulkFormat}. */
        BULK
    }

    /** How files of this format are read; {@link ReaderKind#NONE} if they cannot be. */
    default ReaderKind readerKind() {
        return ReaderKind.NONE;
    }

    /**
     * Creates the reader format of a stream-read format, producing rows of {@code
     * context.rowType()} (the file's columns, in that order).
     *
     * @throws UnsupportedOperationException unless {@link #readerKind()} is {@link ReaderKind#STREAM}
     */
    default StreamFormat<RowData> createStreamFormat(FormatContext context) {
        throw new UnsupportedOperationException(identifier() + " has no stream reader");
    }

    /**
     * Creates the reader format of a batch-read format, producing rows of {@code
     * context.rowType()} (the file's columns to read, in that order: a projection of what the file
     * holds, for columnar formats).
     *
     * @throws UnsupportedOperationException unless {@link #readerKind()} is {@link ReaderKind#BULK}
     */
    default BulkFormat<RowData, FileSourceSplit> createBulkFormat(FormatContext context) {
        throw new UnsupportedOperationException(identifier() + " has no bulk reader");
    }
}
