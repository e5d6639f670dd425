package io.sluice.runtime.source.scan;

import io.sluice.spi.source.ScanSplitReader;
import io.sluice.spi.source.SplitRows;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.connector.file.src.util.MutableRecordAndPosition;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.io.IOException;

/**
 * Reads scan splits with a plugin's {@link ScanSplitReader} for Flink's file source reader: it
 * opens a split where its checkpointed position says, hands out rows in batches of copies (the
 * reader may reuse its rows, and a batch is read while the next one is fetched), each with the
 * position after it, and names the split in every read error. Lives on the task only.
 */
final class ScanReadingFormat implements BulkFormat<RowData, ScanSourceSplit> {

    private static final long serialVersionUID = 1L;

    /** Rows per batch: enough to amortize the hand-over between fetcher and task thread. */
    static final int BATCH_SIZE = 512;

    private final transient ScanSplitReader splitReader;
    private final RowType rowType;

    ScanReadingFormat(ScanSplitReader splitReader, RowType rowType) {
        this.splitReader = splitReader;
        this.rowType = rowType;
    }

    @Override
    public BulkFormat.Reader<RowData> createReader(Configuration config, ScanSourceSplit split) throws IOException {
        return open(split, 0, 0);
    }

    @Override
    public BulkFormat.Reader<RowData> restoreReader(Configuration config, ScanSourceSplit split) throws IOException {
        CheckpointedPosition position = split.getReaderPosition().orElse(null);
        if (position == null) {
            return open(split, 0, 0);
        }
        return open(split, position.getOffset(), position.getRecordsAfterOffset());
    }

    private BulkFormat.Reader<RowData> open(ScanSourceSplit split, long offset, long recordsToSkip) throws IOException {
        try {
            SplitRows rows = splitReader.open(split.split().payload(), offset, recordsToSkip);
            return new Reader(rows, split, new RowDataSerializer(rowType));
        } catch (IOException | RuntimeException e) {
            throw failure(split, e);
        }
    }

    static IOException failure(ScanSourceSplit split, Throwable e) {
        return new IOException(
                "Cannot read split " + split.splitId() + " (" + split.description() + "): " + e.getMessage(), e);
    }

    @Override
    public boolean isSplittable() {
        return false;
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(rowType);
    }

    private static final class Reader implements BulkFormat.Reader<RowData> {
        private final SplitRows rows;
        private final ScanSourceSplit split;
        private final RowDataSerializer serializer;

        Reader(SplitRows rows, ScanSourceSplit split, RowDataSerializer serializer) {
            this.rows = rows;
            this.split = split;
            this.serializer = serializer;
        }

        @Nullable
        @Override
        public BulkFormat.RecordIterator<RowData> readBatch() throws IOException {
            RowData[] batch = new RowData[BATCH_SIZE];
            long[] offsets = new long[BATCH_SIZE];
            long[] skips = new long[BATCH_SIZE];
            int n = 0;
            try {
                RowData row;
                while (n < BATCH_SIZE && (row = rows.next()) != null) {
                    batch[n] = serializer.copy(row);
                    offsets[n] = rows.offset();
                    skips[n] = rows.recordsToSkip();
                    n++;
                }
            } catch (IOException | RuntimeException e) {
                throw failure(split, e);
            }
            return n == 0 ? null : new Batch(batch, offsets, skips, n);
        }

        @Override
        public void close() throws IOException {
            rows.close();
        }
    }

    /** Rows of one batch, each with the position after it. */
    private static final class Batch implements BulkFormat.RecordIterator<RowData> {
        private final RowData[] rows;
        private final long[] offsets;
        private final long[] skips;
        private final int size;
        private final MutableRecordAndPosition<RowData> current = new MutableRecordAndPosition<>();
        private int next;

        Batch(RowData[] rows, long[] offsets, long[] skips, int size) {
            this.rows = rows;
            this.offsets = offsets;
            this.skips = skips;
            this.size = size;
        }

        @Nullable
        @Override
        public RecordAndPosition<RowData> next() {
            if (next >= size) {
                return null;
            }
            current.set(rows[next], offsets[next], skips[next]);
            next++;
            return current;
        }

        @Override
        public void releaseBatch() {}
    }
}
