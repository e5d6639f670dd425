package io.sluice.plugin.formats.bulk;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Wraps a bulk reader format so that every failure names the format, the file and the part of it
 * being read.
 *
 * <p>The libraries underneath (Parquet, ORC, Avro) say what is wrong, but not always where: a
 * truncated Parquet file, an ORC stripe that does not decompress, or an Avro block past a bad sync
 * marker should lead a user to the file and the byte range. Failures while opening or reading a
 * batch become {@link IOException}s; failures while iterating a batch, which cannot throw checked
 * exceptions, become {@link UncheckedIOException}s with the same message.
 */
public final class FileNamingBulkFormat implements BulkFormat<RowData, FileSourceSplit> {

    private static final long serialVersionUID = 1L;

    private final String format;
    private final BulkFormat<RowData, FileSourceSplit> delegate;

    private final DeclaredTypes.Check check; // nullable

    public FileNamingBulkFormat(String format, BulkFormat<RowData, FileSourceSplit> delegate) {
        this(format, delegate, null);
    }

    /** @param check run on each file before its reader opens (the declared types against the file's) */
    public FileNamingBulkFormat(
            String format, BulkFormat<RowData, FileSourceSplit> delegate, DeclaredTypes.Check check) {
        this.format = format;
        this.delegate = delegate;
        this.check = check;
    }

    @Override
    public Reader<RowData> createReader(Configuration config, FileSourceSplit split) throws IOException {
        try {
            if (check != null) {
                check.check(split.path());
            }
            return new NamingReader(delegate.createReader(config, split), split);
        } catch (IOException | RuntimeException e) {
            throw failure(split, "Cannot open", e);
        }
    }

    @Override
    public Reader<RowData> restoreReader(Configuration config, FileSourceSplit split) throws IOException {
        try {
            if (check != null) {
                check.check(split.path());
            }
            return new NamingReader(delegate.restoreReader(config, split), split);
        } catch (IOException | RuntimeException e) {
            throw failure(split, "Cannot open", e);
        }
    }

    @Override
    public boolean isSplittable() {
        return delegate.isSplittable();
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return delegate.getProducedType();
    }

    private IOException failure(FileSourceSplit split, String verb, Exception cause) {
        return new IOException(message(split, verb, "", cause), cause);
    }

    private String message(FileSourceSplit split, String verb, String detail, Exception cause) {
        return String.format(
                "%s %s file %s (bytes %d to %d of %d)%s: %s",
                verb,
                format,
                split.path(),
                split.offset(),
                split.offset() + split.length(),
                split.fileSize(),
                detail,
                cause.getMessage());
    }

    /** A reader whose failures name the split. */
    private final class NamingReader implements Reader<RowData> {

        private final Reader<RowData> reader;
        private final FileSourceSplit split;

        NamingReader(Reader<RowData> reader, FileSourceSplit split) {
            this.reader = reader;
            this.split = split;
        }

        @Override
        public RecordIterator<RowData> readBatch() throws IOException {
            RecordIterator<RowData> batch;
            try {
                batch = reader.readBatch();
            } catch (IOException | RuntimeException e) {
                throw failure(split, "Cannot read", e);
            }
            return batch == null ? null : new NamingIterator(batch, split);
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }

    /** An iterator whose failures name the split and the last record read. */
    private final class NamingIterator implements RecordIterator<RowData> {

        private final RecordIterator<RowData> batch;
        private final FileSourceSplit split;
        private RecordAndPosition<RowData> last;

        NamingIterator(RecordIterator<RowData> batch, FileSourceSplit split) {
            this.batch = batch;
            this.split = split;
        }

        @Override
        public RecordAndPosition<RowData> next() {
            try {
                last = batch.next();
                return last;
            } catch (RuntimeException e) {
                String detail = last == null
                        ? ""
                        : String.format(
                                " after the record at position %d + %d records",
                                last.getOffset(), last.getRecordSkipCount());
                String message = message(split, "Cannot read", detail, e);
                throw new UncheckedIOException(message, new IOException(message, e));
            }
        }

        @Override
        public void releaseBatch() {
            batch.releaseBatch();
        }
    }
}
