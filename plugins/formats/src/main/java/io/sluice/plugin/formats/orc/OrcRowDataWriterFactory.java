package io.sluice.plugin.formats.orc;

import io.sluice.spi.format.BufferingBulkWriter;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.orc.vector.Vectorizer;
import org.apache.flink.orc.writer.OrcBulkWriterFactory;
import org.apache.flink.orc.writer.PhysicalWriterImpl;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MultiValuedColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.OrcProto;
import org.apache.orc.PhysicalWriter;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.orc.impl.StreamName;
import org.apache.orc.impl.WriterImpl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Properties;
import java.util.UUID;

/**
 * Flink's ORC bulk writer factory, writing the same files through the same ORC writer, Flink's
 * physical writer and vectorizer, whose writers say how much heap their open file holds ({@link
 * BufferingBulkWriter}) for the writer memory budget. ORC {@code 1.5}, which flink-orc is built
 * against, has no public estimate of a writer's memory ({@code Writer#estimateMemory} came later),
 * so the writer counts what it can see: the row batch it fills, and the compressed buffers of the
 * current stripe that ORC hands to the physical writer, which keeps them until the stripe is
 * written; and adds a part for ORC's column writers (see {@link OrcRowDataWriter#heapBytes}).
 */
final class OrcRowDataWriterFactory extends OrcBulkWriterFactory<RowData> {

    private static final long serialVersionUID = 1L;

    private final Vectorizer<RowData> vectorizer;

    OrcRowDataWriterFactory(Vectorizer<RowData> vectorizer, Properties writerProperties, Configuration conf) {
        super(vectorizer, writerProperties, conf);
        this.vectorizer = vectorizer;
    }

    @Override
    public BulkWriter<RowData> create(FSDataOutputStream out) throws IOException {
        // as Flink's factory does: a physical writer over the part file, an ORC writer whose path
        // only names it to ORC's memory manager
        OrcFile.WriterOptions options = getWriterOptions();
        CountingPhysicalWriter physical = new CountingPhysicalWriter(out, options);
        options.physicalWriter(physical);
        Writer writer = new WriterImpl(null, new Path(UUID.randomUUID().toString()), options);
        int streamBuffer = options.isEnforceBufferSize()
                ? options.getBufferSize()
                : WriterImpl.getEstimatedBufferSize(
                        options.getStripeSize(), vectorizer.getSchema().getMaximumId() + 1, options.getBufferSize());
        return new OrcRowDataWriter(
                vectorizer, writer, physical, streamBuffer * streamsWritten(vectorizer.getSchema()));
    }

    /**
     * The streams ORC's column writers write into as rows come, each of which holds a buffer of
     * the stream buffer size until the stripe is written: every column's present bits, and the
     * values' streams (a string column in dictionary encoding keeps its rows' dictionary ids in
     * an array of its own instead, about as large).
     */
    static int streamsWritten(TypeDescription type) {
        int streams = 1;
        switch (type.getCategory()) {
            case STRUCT:
                break;
            case BINARY:
            case TIMESTAMP:
            case DECIMAL:
            case LIST:
            case MAP:
            case UNION:
                streams += 2;
                break;
            default:
                streams += 1;
        }
        if (type.getChildren() != null) {
            for (TypeDescription child : type.getChildren()) {
                streams += streamsWritten(child);
            }
        }
        return streams;
    }

    /** Flink's physical writer, counting the buffers of the current stripe that ORC hands it. */
    static final class CountingPhysicalWriter extends PhysicalWriterImpl {

        private long stripeBuffers;
        private long stripes;
        private boolean rowsInStripe;

        CountingPhysicalWriter(FSDataOutputStream out, OrcFile.WriterOptions options) throws IOException {
            super(out, options);
        }

        @Override
        public PhysicalWriter.OutputReceiver createDataStream(StreamName name) throws IOException {
            PhysicalWriter.OutputReceiver receiver = super.createDataStream(name);
            return new PhysicalWriter.OutputReceiver() {
                @Override
                public void output(ByteBuffer buffer) throws IOException {
                    stripeBuffers += buffer.capacity();
                    receiver.output(buffer);
                }

                @Override
                public void suppress() {
                    receiver.suppress();
                }
            };
        }

        @Override
        public void finalizeStripe(OrcProto.StripeFooter.Builder footer, OrcProto.StripeInformation.Builder dirEntry)
                throws IOException {
            super.finalizeStripe(footer, dirEntry);
            stripeBuffers = 0;
            stripes++;
            rowsInStripe = false;
        }

        /**
         * Adds a batch to the ORC writer. ORC's memory manager, shared by the writers of the JVM,
         * may write this writer's stripe in this call or in another writer's (it scales each
         * writer's stripe to the number of writers open), after which the column writers' stream
         * buffers are released.
         */
        void addRowBatch(Writer writer, VectorizedRowBatch batch) throws IOException {
            long before = stripes;
            writer.addRowBatch(batch);
            if (stripes == before) {
                rowsInStripe = true;
            }
        }

        boolean rowsInStripe() {
            return rowsInStripe;
        }

        /** The capacity of the buffers handed over since the last stripe was written. */
        long stripeBuffers() {
            return stripeBuffers;
        }
    }

    /** Fills a row batch with Flink's vectorizer and hands it to ORC when it is full, as Flink's does. */
    static final class OrcRowDataWriter implements BufferingBulkWriter {

        /** The ORC writer and the file's footer parts. */
        static final long HEAP_PER_FILE = 4 * 1024;

        /**
         * The column writers' statistics, index builders and encoders, per ORC column (the row's
         * struct counts as one), from the file's creation: measured in OrcWriterHeapTest at about
         * 18 KB before the first batch.
         */
        static final long HEAP_PER_COLUMN = 16 * 1024;

        private final Vectorizer<RowData> vectorizer;
        private final Writer writer;
        private final CountingPhysicalWriter physical;
        private final VectorizedRowBatch batch;
        private final long streamBuffers;
        private final int columns;
        private final long batchBytes;

        OrcRowDataWriter(
                Vectorizer<RowData> vectorizer, Writer writer, CountingPhysicalWriter physical, long streamBuffers) {
            this.vectorizer = vectorizer;
            this.writer = writer;
            this.physical = physical;
            this.streamBuffers = streamBuffers;
            this.batch = vectorizer.getSchema().createRowBatch();
            this.columns = vectorizer.getSchema().getMaximumId() + 1;
            this.vectorizer.setWriter(writer);
            long bytes = 0;
            for (ColumnVector column : batch.cols) {
                bytes += fixedBytes(column);
            }
            this.batchBytes = bytes;
        }

        @Override
        public void addElement(RowData row) throws IOException {
            vectorizer.vectorize(row, batch);
            if (batch.size == batch.getMaxSize()) {
                addBatch();
            }
        }

        @Override
        public void flush() throws IOException {
            if (batch.size != 0) {
                addBatch();
            }
        }

        @Override
        public void finish() throws IOException {
            flush();
            writer.close();
        }

        private void addBatch() throws IOException {
            physical.addRowBatch(writer, batch);
            batch.reset();
        }

        @Override
        public long heapBytes() {
            long bytes = HEAP_PER_FILE + HEAP_PER_COLUMN * columns + batchBytes + physical.stripeBuffers();
            for (ColumnVector column : batch.cols) {
                bytes += valueBuffers(column);
            }
            if (physical.rowsInStripe()) {
                bytes += streamBuffers;
            }
            return bytes;
        }

        /** The arrays a column vector allocates for a batch. */
        private static long fixedBytes(ColumnVector column) {
            long rows = column.isNull.length;
            long bytes = rows; // isNull
            if (column instanceof LongColumnVector || column instanceof DoubleColumnVector) {
                bytes += rows * 8;
            } else if (column instanceof BytesColumnVector) {
                bytes += rows * (8 + 4 + 4);
            } else if (column instanceof TimestampColumnVector) {
                bytes += rows * (8 + 4) + 64;
            } else if (column instanceof StructColumnVector) {
                for (ColumnVector field : ((StructColumnVector) column).fields) {
                    bytes += fixedBytes(field);
                }
            } else if (column instanceof MultiValuedColumnVector) {
                bytes += rows * 16;
            } else {
                // decimals: an object per row
                bytes += rows * 48;
            }
            return bytes;
        }

        /** The bytes a column vector's values hold beyond its arrays: strings' shared buffers. */
        private static long valueBuffers(ColumnVector column) {
            if (column instanceof BytesColumnVector) {
                return ((BytesColumnVector) column).bufferSize();
            }
            if (column instanceof StructColumnVector) {
                long bytes = 0;
                for (ColumnVector field : ((StructColumnVector) column).fields) {
                    bytes += valueBuffers(field);
                }
                return bytes;
            }
            return 0;
        }
    }
}
