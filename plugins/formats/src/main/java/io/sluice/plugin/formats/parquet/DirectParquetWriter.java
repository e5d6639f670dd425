package io.sluice.plugin.formats.parquet;

import io.sluice.spi.format.BufferingBulkWriter;

import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetOutputFormat;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.schema.MessageType;

import java.io.IOException;
import java.util.Collections;
import java.util.List;

/**
 * A Parquet file of rows whose fields are all primitive, written column by column: each field's
 * {@link ParquetFieldWriter} puts the value into its column's writer, Parquet encodes, compresses
 * and lays out pages and row groups as for any other writer.
 *
 * <p>It reads the same Hadoop configuration keys as Flink's {@code ParquetRowDataBuilder} with the
 * same defaults (codec, row group, page and dictionary page size, dictionary, writer version,
 * padding) and leaves every other Parquet property at Parquet's default, as that builder does, so
 * the two writers lay out the same rows in the same pages; the schema is Flink's conversion of the
 * row type. What it leaves out is the per-value work between row and column.
 */
final class DirectParquetWriter implements BufferingBulkWriter {

    /** Heap an open file holds from its first row, whatever its columns ({@link #heapBytes}). */
    static final long HEAP_PER_FILE = 24 * 1024;

    /** Heap an open file holds per column from its first row ({@link #heapBytes}). */
    static final long HEAP_PER_COLUMN = 19 * 1024;

    /** The compressor's first output buffer (see {@link #open}). */
    static final int INITIAL_COMPRESSOR_BUFFER = 16 * 1024;

    private final ParquetFileWriter file;
    private final StreamFile output;
    private final MessageType schema;
    private final ParquetProperties properties;
    private final CodecFactory codecs;
    private final CodecFactory.BytesCompressor compressor;
    private final long rowGroupSizeLimit;
    private final ParquetFieldWriter[] fields;
    private final List<ColumnDescriptor> descriptors;

    private ColumnWriteStore columns;
    private ColumnChunkPageWriteStore pages;
    private long rowsInGroup;
    private long nextSizeCheck;
    private long rowGroupSize;
    private int rowGroupOrdinal;
    private boolean finished;

    private DirectParquetWriter(
            ParquetFileWriter file,
            StreamFile output,
            MessageType schema,
            ParquetProperties properties,
            CodecFactory codecs,
            CompressionCodecName codec,
            long rowGroupSizeLimit,
            ParquetFieldWriter[] fields) {
        this.file = file;
        this.output = output;
        this.schema = schema;
        this.properties = properties;
        this.codecs = codecs;
        this.compressor = codecs.getCompressor(codec);
        this.rowGroupSizeLimit = rowGroupSizeLimit;
        this.rowGroupSize = rowGroupSizeLimit;
        this.fields = fields;
        this.descriptors = schema.getColumns();
        this.nextSizeCheck = properties.getMinRowCountForPageSizeCheck();
        startRowGroup();
    }

    /** A writer of the schema's rows into {@code out}, which it leaves open when it finishes. */
    static DirectParquetWriter open(
            FSDataOutputStream out, MessageType schema, ParquetFieldWriter[] fields, Configuration conf)
            throws IOException {
        ParquetProperties properties = ParquetProperties.builder()
                .withPageSize(ParquetOutputFormat.getPageSize(conf))
                .withDictionaryPageSize(ParquetOutputFormat.getDictionaryPageSize(conf))
                .withDictionaryEncoding(ParquetOutputFormat.getEnableDictionary(conf))
                .withWriterVersion(ParquetOutputFormat.getWriterVersion(conf))
                .build();
        long rowGroupSize = ParquetOutputFormat.getBlockSize(conf);
        StreamFile output = new StreamFile(out);
        ParquetFileWriter file = new ParquetFileWriter(
                output,
                schema,
                ParquetFileWriter.Mode.CREATE,
                rowGroupSize,
                conf.getInt(ParquetOutputFormat.MAX_PADDING_BYTES, ParquetWriter.MAX_PADDING_SIZE_DEFAULT),
                properties.getColumnIndexTruncateLength(),
                properties.getStatisticsTruncateLength(),
                properties.getPageWriteChecksumEnabled());
        file.start();
        output.release();
        CompressionCodecName codec = CompressionCodecName.fromConf(
                conf.get(ParquetOutputFormat.COMPRESSION, CompressionCodecName.SNAPPY.name()));
        return new DirectParquetWriter(
                file,
                output,
                schema,
                properties,
                // the size only seeds the compressor's output buffer, which grows as pages need:
                // Parquet's page size there is 1 MB of heap per open file before its first page
                new CodecFactory(conf, INITIAL_COMPRESSOR_BUFFER),
                codec,
                rowGroupSize,
                fields);
    }

    @Override
    public void addElement(RowData row) throws IOException {
        ParquetFieldWriter[] fields = this.fields;
        for (int i = 0; i < fields.length; i++) {
            fields[i].write(row, i);
        }
        columns.endRecord();
        if (++rowsInGroup >= nextSizeCheck) {
            checkRowGroupSize();
        }
    }

    /**
     * What an open file holds: a part per file and per column that is there from the first row
     * (the column writers, their statistics and indexes, dictionary tables, the file writer), and
     * about three times what the column and page buffers have allocated, which is what Parquet
     * reports: the dictionaries' hash tables and the values' statistics grow with it. Measured on a
     * 2-core machine, Java 17 (DirectParquetWriterHeapTest keeps it within a factor of the heap
     * measured), and on the high side once the dictionaries fall back to plain pages.
     */
    @Override
    public long heapBytes() {
        return HEAP_PER_FILE + HEAP_PER_COLUMN * descriptors.size() + 3 * columns.getAllocatedSize();
    }

    /** A row group is written whole: nothing to flush before it is full or the file ends. */
    @Override
    public void flush() {}

    @Override
    public void finish() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        try {
            writeRowGroup();
            // no key-value metadata, as Flink's writer
            file.end(Collections.emptyMap());
            output.release();
        } finally {
            codecs.release();
        }
    }

    /**
     * Asking the column writers for their buffered size walks every column, so not every row:
     * the next check is half way to where the group would be full at the rows' average size so
     * far, within Parquet's page-size-check bounds.
     */
    private void checkRowGroupSize() throws IOException {
        long buffered = columns.getBufferedSize();
        long rowSize = buffered / rowsInGroup;
        long minCheck = properties.getMinRowCountForPageSizeCheck();
        long maxCheck = properties.getMaxRowCountForPageSizeCheck();
        if (buffered > rowGroupSize - 2 * rowSize) {
            writeRowGroup();
            startRowGroup();
            // nothing known of the new group's rows yet
            nextSizeCheck = minCheck;
        } else {
            long rowsWhenFull = rowSize == 0 ? maxCheck : (long) (rowGroupSize / (float) rowSize);
            nextSizeCheck = Math.min(Math.max(minCheck, (rowsInGroup + rowsWhenFull) / 2), rowsInGroup + maxCheck);
        }
    }

    private void startRowGroup() {
        pages = new ColumnChunkPageWriteStore(
                compressor,
                schema,
                properties.getAllocator(),
                properties.getColumnIndexTruncateLength(),
                properties.getPageWriteChecksumEnabled(),
                null,
                rowGroupOrdinal);
        columns = properties.newColumnWriteStore(schema, pages, pages);
        for (int i = 0; i < fields.length; i++) {
            ColumnDescriptor column = descriptors.get(i);
            fields[i].bind(columns.getColumnWriter(column), column.getMaxDefinitionLevel());
        }
        rowsInGroup = 0;
    }

    private void writeRowGroup() throws IOException {
        if (rowsInGroup == 0) {
            return;
        }
        rowGroupOrdinal++;
        file.startBlock(rowsInGroup);
        columns.flush();
        pages.flushToFileWriter(file);
        file.endBlock();
        output.release();
        rowGroupSize = Math.min(file.getNextRowGroupSize(), rowGroupSizeLimit);
        rowsInGroup = 0;
    }

    /**
     * The part file's stream as Parquet's output file: one stream, positions from the stream, and
     * closing it only flushes, since the caller closes the part file.
     *
     * <p>Parquet writes its page headers and footer through Thrift a byte at a time, and a part
     * file's stream may pass every write to the file system (the local one does, a system call a
     * byte): small writes are gathered in a buffer that exists only while Parquet writes (the
     * file's start, a row group, the end; {@link #release} after each), so an open file between
     * row groups holds none.
     */
    private static final class StreamFile implements OutputFile {
        private static final int BUFFER_BYTES = 8 * 1024;

        private final FSDataOutputStream out;
        private byte[] buffer;
        private int buffered;

        StreamFile(FSDataOutputStream out) {
            this.out = out;
        }

        /** Writes what is buffered to the stream and lets the buffer go. */
        void release() throws IOException {
            drain();
            buffer = null;
        }

        private void drain() throws IOException {
            if (buffered > 0) {
                out.write(buffer, 0, buffered);
                buffered = 0;
            }
        }

        private byte[] buffer() {
            if (buffer == null) {
                buffer = new byte[BUFFER_BYTES];
            }
            return buffer;
        }

        @Override
        public PositionOutputStream create(long blockSizeHint) {
            return new PositionOutputStream() {
                @Override
                public long getPos() throws IOException {
                    return out.getPos() + buffered;
                }

                @Override
                public void write(int b) throws IOException {
                    if (buffered == BUFFER_BYTES) {
                        drain();
                    }
                    buffer()[buffered++] = (byte) b;
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    if (len >= BUFFER_BYTES) {
                        drain();
                        out.write(b, off, len);
                        return;
                    }
                    if (buffered + len > BUFFER_BYTES) {
                        drain();
                    }
                    System.arraycopy(b, off, buffer(), buffered, len);
                    buffered += len;
                }

                @Override
                public void flush() throws IOException {
                    drain();
                    out.flush();
                }

                @Override
                public void close() throws IOException {
                    flush();
                }
            };
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) {
            return create(blockSizeHint);
        }

        @Override
        public boolean supportsBlockSize() {
            return false;
        }

        @Override
        public long defaultBlockSize() {
            return 0;
        }
    }
}
