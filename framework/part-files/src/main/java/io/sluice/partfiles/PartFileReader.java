package io.sluice.partfiles;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.compact.RowReader;
import io.sluice.spi.format.BulkReadingFormat;
import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.Formats;
import io.sluice.spi.format.StreamReadingFormat;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.io.IOException;

/**
 * The rows of one whole part file, read with the format's own reader (a stream reader for row
 * formats, a batch reader for columnar ones). Errors name the file.
 */
abstract class PartFileReader implements RowReader {

    protected final Path file;

    private PartFileReader(Path file) {
        this.file = file;
    }

    static PartFileReader open(ExtensionLookup extensions, String format, FormatContext context, Path file)
            throws IOException {
        FileStatus status = FileSystems.of(file).getFileStatus(file);
        Configuration config = new Configuration();
        if (Formats.offers(extensions, StreamReadingFormat.class, format)) {
            StreamFormat<RowData> stream =
                    extensions.find(StreamReadingFormat.class, format).createStreamFormat(context);
            FSDataInputStream in = FileSystems.of(file).open(file);
            try {
                return new Streamed(file, stream.createReader(config, in, status.getLen(), status.getLen()));
            } catch (IOException | RuntimeException e) {
                in.close();
                throw failure(file, e);
            }
        }
        if (Formats.offers(extensions, BulkReadingFormat.class, format)) {
            BulkFormat<RowData, FileSourceSplit> bulk =
                    extensions.find(BulkReadingFormat.class, format).createBulkFormat(context);
            FileSourceSplit split = new FileSourceSplit(
                    "compaction", file, 0, status.getLen(), status.getModificationTime(), status.getLen());
            try {
                return new Batched(file, bulk.createReader(config, split));
            } catch (IOException | RuntimeException e) {
                throw failure(file, e);
            }
        }
        throw new IOException("Format '" + format + "' has no reader: cannot read " + file
                + " back for compaction; use 'compaction.compactor' = 'concat' (row formats only)");
    }

    static IOException failure(Path file, Exception e) {
        return new IOException("Cannot read " + file + " for compaction: " + e.getMessage(), e);
    }

    /** Rows of a stream-read format. */
    private static final class Streamed extends PartFileReader {
        private final StreamFormat.Reader<RowData> reader;

        Streamed(Path file, StreamFormat.Reader<RowData> reader) {
            super(file);
            this.reader = reader;
        }

        @Nullable
        @Override
        public RowData next() throws IOException {
            try {
                return reader.read();
            } catch (IOException | RuntimeException e) {
                throw failure(file, e);
            }
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }

    /** Rows of a batch-read format, one batch at a time. */
    private static final class Batched extends PartFileReader {
        private final BulkFormat.Reader<RowData> reader;
        private BulkFormat.RecordIterator<RowData> batch;

        Batched(Path file, BulkFormat.Reader<RowData> reader) {
            super(file);
            this.reader = reader;
        }

        @Nullable
        @Override
        public RowData next() throws IOException {
            try {
                while (true) {
                    if (batch == null) {
                        batch = reader.readBatch();
                        if (batch == null) {
                            return null;
                        }
                    }
                    RecordAndPosition<RowData> next = batch.next();
                    if (next != null) {
                        return next.getRecord();
                    }
                    batch.releaseBatch();
                    batch = null;
                }
            } catch (IOException | RuntimeException e) {
                throw failure(file, e);
            }
        }

        @Override
        public void close() throws IOException {
            if (batch != null) {
                batch.releaseBatch();
            }
            reader.close();
        }
    }
}
