package io.sluice.runtime.source.file;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.MutableRecordAndPosition;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.io.IOException;

/**
 * What the framework adds around a plugin's reader format: the partition columns, taken from the
 * file's directories and put where the table has them, and the file's path in every read error.
 * Lives on the task only; nothing here is serialized.
 */
final class FileReadingFormat implements BulkFormat<RowData, FileSourceSplit> {

    private static final long serialVersionUID = 1L;

    private final transient BulkFormat<RowData, FileSourceSplit> fileFormat;
    private final RowType producedType;

    @Nullable
    private final transient PartitionValues partitions; // null: no partition columns

    @Nullable
    private final int[] outputMapping; // fields of (file row ++ partition row) in table order

    FileReadingFormat(
            BulkFormat<RowData, FileSourceSplit> fileFormat,
            RowType producedType,
            @Nullable PartitionValues partitions,
            @Nullable int[] outputMapping) {
        this.fileFormat = fileFormat;
        this.producedType = producedType;
        this.partitions = partitions;
        this.outputMapping = outputMapping;
    }

    @Override
    public BulkFormat.Reader<RowData> createReader(Configuration config, FileSourceSplit split) throws IOException {
        try {
            return wrap(fileFormat.createReader(config, split), split);
        } catch (IOException | RuntimeException e) {
            throw failure(split, e);
        }
    }

    @Override
    public BulkFormat.Reader<RowData> restoreReader(Configuration config, FileSourceSplit split) throws IOException {
        try {
            return wrap(fileFormat.restoreReader(config, split), split);
        } catch (IOException | RuntimeException e) {
            throw failure(split, e);
        }
    }

    private BulkFormat.Reader<RowData> wrap(BulkFormat.Reader<RowData> reader, FileSourceSplit split) {
        GenericRowData partitionRow = partitions == null ? null : partitions.of(split.path());
        return new Reader(reader, split, partitionRow, outputMapping);
    }

    static IOException failure(FileSourceSplit split, Throwable e) {
        return new IOException(
                "Cannot read file " + split.path() + " (split offset " + split.offset() + ", length " + split.length()
                        + "): " + e.getMessage(),
                e);
    }

    @Override
    public boolean isSplittable() {
        return fileFormat.isSplittable();
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(producedType);
    }

    private static final class Reader implements BulkFormat.Reader<RowData> {
        private final BulkFormat.Reader<RowData> reader;
        private final FileSourceSplit split;

        @Nullable
        private final GenericRowData partitionRow;

        @Nullable
        private final int[] mapping;

        Reader(
                BulkFormat.Reader<RowData> reader,
                FileSourceSplit split,
                @Nullable GenericRowData partitionRow,
                @Nullable int[] mapping) {
            this.reader = reader;
            this.split = split;
            this.partitionRow = partitionRow;
            this.mapping = mapping;
        }

        @Nullable
        @Override
        public BulkFormat.RecordIterator<RowData> readBatch() throws IOException {
            BulkFormat.RecordIterator<RowData> batch;
            try {
                batch = reader.readBatch();
            } catch (IOException | RuntimeException e) {
                throw failure(split, e);
            }
            if (batch == null || partitionRow == null) {
                return batch;
            }
            return new WithPartitions(batch, partitionRow, mapping);
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }

    /** Appends the partition values to each row, reusing one view per batch. */
    private static final class WithPartitions implements BulkFormat.RecordIterator<RowData> {
        private final BulkFormat.RecordIterator<RowData> batch;
        private final GenericRowData partitionRow;
        private final JoinedRowData joined = new JoinedRowData();
        private final ProjectedRowData projected;
        private final MutableRecordAndPosition<RowData> current = new MutableRecordAndPosition<>();

        WithPartitions(BulkFormat.RecordIterator<RowData> batch, GenericRowData partitionRow, int[] mapping) {
            this.batch = batch;
            this.partitionRow = partitionRow;
            this.projected = ProjectedRowData.from(mapping);
        }

        @Nullable
        @Override
        public RecordAndPosition<RowData> next() {
            RecordAndPosition<RowData> next = batch.next();
            if (next == null) {
                return null;
            }
            joined.replace(next.getRecord(), partitionRow);
            current.set(projected.replaceRow(joined), next.getOffset(), next.getRecordSkipCount());
            return current;
        }

        @Override
        public void releaseBatch() {
            batch.releaseBatch();
        }
    }
}
