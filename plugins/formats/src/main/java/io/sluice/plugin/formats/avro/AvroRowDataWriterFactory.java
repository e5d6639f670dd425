package io.sluice.plugin.formats.avro;

import io.sluice.spi.format.BufferingBulkWriter;

import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.EncoderFactory;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.formats.avro.AvroBuilder;
import org.apache.flink.formats.avro.AvroWriterFactory;
import org.apache.flink.formats.avro.RowDataToAvroConverters;
import org.apache.flink.formats.avro.RowDataToAvroConverters.RowDataToAvroConverter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * Writes rows into an Avro object container file: each row converted to a {@link GenericRecord}
 * by Flink's {@link RowDataToAvroConverters} against the schema Flink's {@code AvroSchemaConverter}
 * derives, then written by Flink's {@link AvroWriterFactory}
 * (which keeps the part file's stream open when the Avro file is finished, as a bulk writer must).
 *
 * <p>Holds only serializable settings; the schema and converter are made per file. Its writers
 * say how much heap their file holds ({@link BufferingBulkWriter}), for the writer memory budget.
 */
final class AvroRowDataWriterFactory implements BulkWriter.Factory<RowData> {

    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final String codec;
    private final boolean legacyTimestampMapping;

    AvroRowDataWriterFactory(RowType rowType, String codec, boolean legacyTimestampMapping) {
        this.rowType = rowType;
        this.codec = codec;
        this.legacyTimestampMapping = legacyTimestampMapping;
    }

    @Override
    public BulkWriter<RowData> create(FSDataOutputStream out) throws IOException {
        Schema schema = AvroFormatFactory.schema(rowType, legacyTimestampMapping);
        String codecName = codec;
        ByteArrayOutputStream[] block = new ByteArrayOutputStream[1];
        AvroBuilder<GenericRecord> builder = stream -> {
            DataFileWriter<GenericRecord> writer = new DataFileWriter<>(new GenericDatumWriter<>(schema));
            writer.setCodec(CodecFactory.fromString(codecName));
            // the encoder Avro uses by default, over the block's buffer, which this keeps to measure
            writer.setEncoder(blockBuffer -> {
                if (blockBuffer instanceof ByteArrayOutputStream) {
                    block[0] = (ByteArrayOutputStream) blockBuffer;
                }
                return EncoderFactory.get().directBinaryEncoder(blockBuffer, null);
            });
            return writer.create(schema, stream);
        };
        BulkWriter<GenericRecord> records = new AvroWriterFactory<>(builder).create(out);
        RowDataToAvroConverter converter = RowDataToAvroConverters.createConverter(rowType, legacyTimestampMapping);
        return new RowWriter(records, converter, schema, block[0]);
    }

    /** Converts each row and hands it to the record writer. */
    static final class RowWriter implements BufferingBulkWriter {

        /**
         * The block buffer Avro's {@code DataFileWriter} allocates when the file is created: a
         * quarter more than the sync interval, since a block is written once it reaches the
         * interval (the default; this factory does not change it).
         */
        static final long INITIAL_BLOCK_BUFFER = DataFileConstants.DEFAULT_SYNC_INTERVAL * 5L / 4;

        /**
         * What else an open file holds: the {@code DataFileWriter}'s 8 KB output buffer in front of
         * the part file, and the schema, datum writer, converter and metadata made for each file.
         * Measured in AvroWriterHeapTest.
         */
        static final long HEAP_PER_FILE = 8 * 1024 + 8 * 1024;

        /** Heap per column of the objects made for each file (schema fields, converters). */
        static final long HEAP_PER_COLUMN = 1024;

        private final BulkWriter<GenericRecord> records;
        private final RowDataToAvroConverter converter;
        private final Schema schema;
        /** The block buffer, or null if Avro handed the encoder another kind of stream. */
        private final ByteArrayOutputStream block;

        private long largestBlock;

        RowWriter(
                BulkWriter<GenericRecord> records,
                RowDataToAvroConverter converter,
                Schema schema,
                ByteArrayOutputStream block) {
            this.records = records;
            this.converter = converter;
            this.schema = schema;
            this.block = block;
        }

        @Override
        public void addElement(RowData row) throws IOException {
            records.addElement((GenericRecord) converter.convert(schema, row));
            if (block != null) {
                // written and emptied once it reaches the sync interval: its largest size is what
                // it grew to
                largestBlock = Math.max(largestBlock, block.size());
            }
        }

        /**
         * The block buffer's capacity (a {@link ByteArrayOutputStream} keeps what it grew to when it
         * is emptied; it grows by doubling when a record does not fit), plus the fixed part of
         * {@link #HEAP_PER_FILE} and {@link #HEAP_PER_COLUMN}. The rows of the current block are in
         * that buffer, encoded; the codec compresses a block when it is written.
         */
        @Override
        public long heapBytes() {
            long capacity = INITIAL_BLOCK_BUFFER;
            while (capacity < largestBlock) {
                capacity = Math.max(capacity * 2, largestBlock);
            }
            return capacity
                    + HEAP_PER_FILE
                    + HEAP_PER_COLUMN * schema.getFields().size();
        }

        @Override
        public void flush() throws IOException {
            records.flush();
        }

        @Override
        public void finish() throws IOException {
            records.finish();
        }
    }
}
