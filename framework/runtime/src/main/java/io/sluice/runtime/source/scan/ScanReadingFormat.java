package io.sluice.runtime.source.scan;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.source.ScanSplitReader;
import io.sluice.spi.source.SplitRows;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SourceReaderOptions;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.connector.file.src.util.MutableRecordAndPosition;
import org.apache.flink.connector.file.src.util.Pool;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.io.IOException;
import java.io.InterruptedIOException;

/**
 * Reads scan splits with a plugin's {@link ScanSplitReader} for Flink's file source reader: it
 * opens a split where its checkpointed position says, hands out rows in batches of copies (the
 * reader may reuse its rows, and a batch is read while the next one is fetched; the copies are
 * reused once a batch is released), each with the position after it, and names the split in every
 * read error. A reader that reads in batches itself ({@link SplitRows#batched}) hands over its
 * own batches instead, uncopied. Lives on the task only.
 */
final class ScanReadingFormat implements BulkFormat<RowData, ScanSourceSplit> {

    private static final long serialVersionUID = 1L;

    /**
     * Rows per batch: enough to amortize the hand-over between fetcher and task thread; Iceberg's
     * source hands over 2048 ({@code table.exec.iceberg.fetch-batch-record-count}).
     */
    static final int BATCH_SIZE = 2048;

    private final transient ScanSplitReader splitReader;
    private final RowType rowType;

    ScanReadingFormat(ScanSplitReader splitReader, RowType rowType) {
        this.splitReader = splitReader;
        this.rowType = rowType;
    }

    @Override
    public BulkFormat.Reader<RowData> createReader(Configuration config, ScanSourceSplit split) throws IOException {
        return open(config, split, 0, 0);
    }

    @Override
    public BulkFormat.Reader<RowData> restoreReader(Configuration config, ScanSourceSplit split) throws IOException {
        CheckpointedPosition position = split.getReaderPosition().orElse(null);
        if (position == null) {
            return open(config, split, 0, 0);
        }
        return open(config, split, position.getOffset(), position.getRecordsAfterOffset());
    }

    private BulkFormat.Reader<RowData> open(
            Configuration config, ScanSourceSplit split, long offset, long recordsToSkip) throws IOException {
        // the hand-over queue's batches, the one the task emits and the one being filled
        int batchesInFlight = config.get(SourceReaderOptions.ELEMENT_QUEUE_CAPACITY) + 2;
        try {
            SplitRows rows = splitReader.open(split.split().payload(), offset, recordsToSkip);
            return new Reader(rows, split, new RowDataSerializer(rowType), batchesInFlight);
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

        @Nullable
        private final ClassLoader pluginLoader;

        @Nullable
        private final Pool<Batch> batches; // null: the reader hands over its own (SplitRows.batched)

        Reader(SplitRows rows, ScanSourceSplit split, RowDataSerializer serializer, int batchesInFlight) {
            this.rows = rows;
            this.pluginLoader = rows instanceof PluginBound ? ((PluginBound) rows).pluginClassLoader() : null;
            this.split = split;
            this.serializer = serializer;
            if (rows.batched()) {
                this.batches = null;
            } else {
                this.batches = new Pool<>(batchesInFlight);
                for (int i = 0; i < batchesInFlight; i++) {
                    batches.add(new Batch(batches.recycler()));
                }
            }
        }

        @Nullable
        @Override
        public BulkFormat.RecordIterator<RowData> readBatch() throws IOException {
            if (batches == null) {
                try {
                    // the reader's own batch, its rows not copied: valid until the file source releases it
                    return rows.nextBatch();
                } catch (IOException | RuntimeException e) {
                    throw failure(split, e);
                }
            }
            Batch batch;
            try {
                // waits while every batch is still queued or being emitted: at most that many
                // rows are read ahead of the task
                batch = batches.pollEntry();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("Interrupted while reading split " + split.splitId());
            }
            int n = 0;
            // the plugin's loader once for the batch, not three times a row (the wrapper sees it set)
            Thread thread = Thread.currentThread();
            ClassLoader caller = thread.getContextClassLoader();
            if (pluginLoader != null) {
                thread.setContextClassLoader(pluginLoader);
            }
            try {
                RowData row;
                while (n < BATCH_SIZE && (row = rows.next()) != null) {
                    batch.set(n, row, rows.offset(), rows.recordsToSkip(), serializer);
                    n++;
                }
            } catch (IOException | RuntimeException e) {
                batches.recycler().recycle(batch);
                throw failure(split, e);
            } finally {
                thread.setContextClassLoader(caller);
            }
            if (n == 0) {
                batches.recycler().recycle(batch);
                return null;
            }
            batch.start(n);
            return batch;
        }

        @Override
        public void close() throws IOException {
            rows.close();
        }
    }

    /**
     * Copies of a batch of rows, each with the position after it. The copies and arrays are
     * reused once the file source has emitted the batch and released it, so reading allocates
     * only what the rows' values need (as Flink's own file formats and Iceberg's source do).
     */
    private static final class Batch implements BulkFormat.RecordIterator<RowData> {
        private final RowData[] rows = new RowData[BATCH_SIZE];
        private final long[] offsets = new long[BATCH_SIZE];
        private final long[] skips = new long[BATCH_SIZE];
        private final MutableRecordAndPosition<RowData> current = new MutableRecordAndPosition<>();
        private final Pool.Recycler<Batch> recycler;
        private int size;
        private int next;

        Batch(Pool.Recycler<Batch> recycler) {
            this.recycler = recycler;
        }

        void set(int i, RowData row, long offset, long skip, RowDataSerializer serializer) {
            RowData reuse = rows[i];
            // the plugin's reader may reuse its row: the batch keeps copies
            rows[i] = reuse == null ? serializer.copy(row) : serializer.copy(row, reuse);
            offsets[i] = offset;
            skips[i] = skip;
        }

        void start(int size) {
            this.size = size;
            this.next = 0;
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
        public void releaseBatch() {
            recycler.recycle(this);
        }
    }
}
