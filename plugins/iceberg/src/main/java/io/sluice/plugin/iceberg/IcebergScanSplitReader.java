package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.source.ScanSplitReader;
import io.sluice.spi.source.SourceContext;
import io.sluice.spi.source.SplitRows;

import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.source.DataIterator;
import org.apache.iceberg.flink.source.FileScanTaskReader;
import org.apache.iceberg.flink.source.RowDataFileScanTaskReader;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;

import javax.annotation.Nullable;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads splits of a scan source with upstream's readers: a {@link DataIterator} over a {@link
 * RowDataFileScanTaskReader}, which reads the split's data files in the projection of the
 * source's columns and applies the split's delete files (position and equality deletes of v2
 * tables, deletion vectors of v3); Parquet files of flat rows without deletes are read by the
 * plugin's {@link FlatParquetScanTaskReader} instead. The position in a split is the iterator's: the file within the
 * split and the rows read of that file.
 *
 * <p>The table is loaded on the first split and kept until the reader is closed. {@code limit}
 * caps the rows of this reader, over all its splits, as upstream's limit caps a source reader's.
 */
final class IcebergScanSplitReader implements ScanSplitReader {

    private final SourceContext context;
    private CatalogTable table;
    private ReadSettings settings;
    private ScanSplits splits;
    private FileScanTaskReader<RowData> files;
    private long limit;
    private long rowsRead;

    IcebergScanSplitReader(SourceContext context) {
        this.context = context;
    }

    @Override
    public SplitRows open(Payload split, long offset, long recordsToSkip) throws IOException {
        if (table == null) {
            load();
        }
        IcebergSourceSplit icebergSplit = splits.fromPayload(split);
        Table t = table.table();
        DataIterator<RowData> rows;
        try {
            rows = new DataIterator<>(files, icebergSplit.task(), t.io(), t.encryption());
        } catch (RuntimeException e) {
            throw new IOException("Cannot open a split of Iceberg table '" + settings.tableName() + "': " + e, e);
        }
        try {
            // upstream seeks even to (0, 0); that seek reports the first file as current even when
            // its rows are all deleted and the iterator has moved on, so later positions would name
            // the wrong file. Only resumed reads seek, and they resume after a row of a file.
            if (offset != 0 || recordsToSkip != 0) {
                rows.seek(Math.toIntExact(offset), recordsToSkip);
            }
        } catch (RuntimeException e) {
            closeQuietly(rows, e);
            throw new IOException(
                    "Cannot resume reading a split of Iceberg table '" + settings.tableName() + "' at file " + offset
                            + ", row " + recordsToSkip + ": " + e.getMessage(),
                    e);
        }
        return new Rows(rows, offset, recordsToSkip);
    }

    private void load() throws IOException {
        CatalogTable loaded;
        try {
            loaded = CatalogTable.load(context.options());
        } catch (RuntimeException e) {
            throw new IOException(e.getMessage(), e);
        }
        try {
            ReadSettings read = ReadSettings.of(loaded.table(), context);
            Table t = loaded.table();
            files = new FlatParquetScanTaskReader(
                    t.schema(), read.projection(), read.scanContext().nameMapping(), read.caseSensitive());
            splits = new ScanSplits(read.caseSensitive());
            limit = read.scanContext().limit();
            settings = read;
            table = loaded;
        } catch (RuntimeException e) {
            loaded.close();
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        if (table != null) {
            table.close();
            table = null;
        }
    }

    private static void closeQuietly(DataIterator<RowData> rows, RuntimeException failure) {
        try {
            rows.close();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /** The rows of one split. */
    private final class Rows implements SplitRows {

        private final DataIterator<RowData> rows;
        private long offset;
        private long recordsToSkip;

        Rows(DataIterator<RowData> rows, long offset, long recordsToSkip) {
            this.rows = rows;
            this.offset = offset;
            this.recordsToSkip = recordsToSkip;
        }

        @Nullable
        @Override
        public RowData next() throws IOException {
            if (limit > 0 && rowsRead >= limit) {
                return null;
            }
            try {
                if (!rows.hasNext()) {
                    return null;
                }
                RowData row = rows.next();
                rowsRead++;
                offset = rows.fileOffset();
                recordsToSkip = rows.recordOffset();
                return row;
            } catch (UncheckedIOException e) {
                throw new IOException(
                        "Cannot read Iceberg table '" + settings.tableName() + "': " + e.getCause(), e.getCause());
            } catch (RuntimeException e) {
                throw new IOException("Cannot read Iceberg table '" + settings.tableName() + "': " + e, e);
            }
        }

        @Override
        public long offset() {
            return offset;
        }

        @Override
        public long recordsToSkip() {
            return recordsToSkip;
        }

        @Override
        public void close() throws IOException {
            rows.close();
        }
    }
}
