package io.sluice.plugin.hive;

import io.sluice.spi.Payload;
import io.sluice.spi.source.ScanSplitReader;
import io.sluice.spi.source.SourceContext;
import io.sluice.spi.source.SplitRows;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.connectors.hive.HiveSourceSplitSerializer;
import org.apache.flink.connectors.hive.JobConfWrapper;
import org.apache.flink.connectors.hive.read.HiveInputFormat;
import org.apache.flink.connectors.hive.read.HiveSourceSplit;
import org.apache.flink.table.catalog.hive.client.HiveShimLoader;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.hadoop.mapred.JobConf;

import javax.annotation.Nullable;

import java.io.IOException;

/**
 * Reads the splits of {@link HiveScanPlanner} with upstream's {@link HiveInputFormat}, in the
 * source's columns (partition columns filled in from the partition). The position in a split is
 * the file reader's: an offset in the file and the records after it, as Flink's file source keeps
 * it. The table's configuration is loaded with the first split.
 */
final class HiveScanSplitReader implements ScanSplitReader {

    private final SourceContext context;
    private HiveInputFormat format;
    private String table;

    /**
     * The query's {@code LIMIT} of a bounded read: this reader stops after that many rows of all
     * its splits (Flink still applies the limit to what every reader sends); none for a streaming
     * read, whose later partitions must still be read.
     */
    private final long limit;

    private long rowsRead;

    HiveScanSplitReader(SourceContext context) {
        this.context = context;
        this.limit = context.boundedness() == org.apache.flink.api.connector.source.Boundedness.BOUNDED
                ? context.pushedLimit().orElse(Long.MAX_VALUE)
                : Long.MAX_VALUE;
    }

    /** {@link HiveScanSourceFactory#FALLBACK_MAPRED_READER}, named in the error if it is no boolean. */
    static boolean useMapredReader(SourceContext context) {
        try {
            return context.jobConfiguration().get(HiveScanSourceFactory.FALLBACK_MAPRED_READER);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Invalid '" + HiveScanSourceFactory.FALLBACK_MAPRED_READER.key() + "': " + e.getMessage()
                            + " (true or false)",
                    e);
        }
    }

    @Override
    public SplitRows open(Payload payload, long offset, long recordsToSkip) throws IOException {
        if (format == null) {
            load();
        }
        HiveSourceSplit split = HiveSourceSplitSerializer.INSTANCE.deserialize(payload.version(), payload.bytes());
        BulkFormat.Reader<RowData> reader;
        if (offset != 0 || recordsToSkip != 0) {
            HiveSourceSplit resumed = (HiveSourceSplit)
                    split.updateWithCheckpointedPosition(new CheckpointedPosition(offset, recordsToSkip));
            reader = format.restoreReader(new Configuration(), resumed);
        } else {
            reader = format.createReader(new Configuration(), split);
        }
        return new Rows(reader, offset, recordsToSkip);
    }

    private void load() throws IOException {
        HiveTableInfo info;
        try {
            info = HiveTableInfo.loadWithoutPartitions(context.rawOptions());
        } catch (RuntimeException e) {
            throw new IOException(e.getMessage(), e);
        }
        table = info.path.getFullName();
        // the table's columns, and the ones the query reads (fewer, in its order)
        RowType all = info.columns;
        DataType[] types = all.getChildren().stream()
                .map(TypeConversions::fromLogicalToDataType)
                .toArray(DataType[]::new);
        format = new HiveInputFormat(
                new JobConfWrapper(new JobConf(info.hiveConf)),
                info.partitionKeys,
                all.getFieldNames().toArray(new String[0]),
                types,
                HiveShimLoader.getHiveVersion(),
                context.rowType(),
                useMapredReader(context));
    }

    @Override
    public void close() {}

    /** The rows of one split: the file reader's batches, one record after the other. */
    private final class Rows implements SplitRows {
        private final BulkFormat.Reader<RowData> reader;
        private BulkFormat.RecordIterator<RowData> batch;
        private long offset;
        private long recordsToSkip;
        private boolean ended;

        Rows(BulkFormat.Reader<RowData> reader, long offset, long recordsToSkip) {
            this.reader = reader;
            this.offset = offset;
            this.recordsToSkip = recordsToSkip;
        }

        @Override
        public RowData next() throws IOException {
            if (rowsRead >= limit) {
                return null;
            }
            while (!ended) {
                if (batch == null) {
                    batch = reader.readBatch();
                    if (batch == null) {
                        ended = true;
                        return null;
                    }
                }
                RecordAndPosition<RowData> record = batch.next();
                if (record != null) {
                    offset = record.getOffset();
                    recordsToSkip = record.getRecordSkipCount();
                    rowsRead++;
                    return record.getRecord();
                }
                batch.releaseBatch();
                batch = null;
            }
            return null;
        }

        /**
         * Upstream's readers read in batches (vectorized Parquet and ORC, or rows of the mapred
         * reader): handed on as they are, unless a limit must be counted row by row.
         */
        @Override
        public boolean batched() {
            return limit == Long.MAX_VALUE;
        }

        @Nullable
        @Override
        public BulkFormat.RecordIterator<RowData> nextBatch() throws IOException {
            return reader.readBatch();
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
            if (batch != null) {
                batch.releaseBatch();
                batch = null;
            }
            try {
                reader.close();
            } catch (IOException | RuntimeException e) {
                throw new IOException("Cannot close a reader of Hive table " + table + ": " + e.getMessage(), e);
            }
        }
    }
}
