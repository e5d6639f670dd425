package io.sluice.plugin.formats.sequencefile;

import io.sluice.plugin.formats.hadoop.HadoopConfigurations;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.SequenceFile.CompressionType;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes rows as the records of a Hadoop SequenceFile; see {@link SequenceFileFormatFactory}.
 *
 * <p>Holds only serializable settings; the Hadoop configuration and codec are made per file.
 */
final class SequenceFileWriterFactory implements BulkWriter.Factory<RowData> {

    private static final long serialVersionUID = 1L;

    /** The codec name that means no compression. */
    static final String NO_CODEC = "none";

    private final SequenceFileValue value;
    private final String codec;
    private final CompressionType type;

    SequenceFileWriterFactory(SequenceFileValue value, String codec, CompressionType type) {
        this.value = value;
        this.codec = codec;
        this.type = type;
    }

    @Override
    public BulkWriter<RowData> create(FSDataOutputStream out) throws IOException {
        return create((OutputStream) out);
    }

    /** A writer into any stream; the stream stays open when the file is finished. */
    BulkWriter<RowData> create(OutputStream out) throws IOException {
        Configuration conf = HadoopConfigurations.create();
        // SequenceFile takes a Hadoop stream; this one does not own the part file's stream
        org.apache.hadoop.fs.FSDataOutputStream stream = new org.apache.hadoop.fs.FSDataOutputStream(out, null);
        SequenceFile.Writer writer = SequenceFile.createWriter(
                conf,
                SequenceFile.Writer.stream(stream),
                SequenceFile.Writer.keyClass(BytesWritable.class),
                SequenceFile.Writer.valueClass(value.writableClass()),
                compression(conf));
        return new RecordWriter(writer, value);
    }

    private SequenceFile.Writer.Option compression(Configuration conf) {
        if (NO_CODEC.equals(codec)) {
            return SequenceFile.Writer.compression(CompressionType.NONE);
        }
        CompressionCodec found = new CompressionCodecFactory(conf).getCodecByName(codec);
        if (found == null) {
            throw new IllegalArgumentException("Hadoop knows no compression codec '" + codec + "'");
        }
        return SequenceFile.Writer.compression(type, found);
    }

    /** Appends one record per row. */
    private static final class RecordWriter implements BulkWriter<RowData> {

        // Hive writes this key and never reads it
        private static final BytesWritable EMPTY_KEY = new BytesWritable();

        private final SequenceFile.Writer writer;
        private final SequenceFileValue value;

        RecordWriter(SequenceFile.Writer writer, SequenceFileValue value) {
            this.writer = writer;
            this.value = value;
        }

        @Override
        public void addElement(RowData row) throws IOException {
            writer.append(EMPTY_KEY, value.toWritable(row));
        }

        @Override
        public void flush() throws IOException {
            // a block-compressed writer holds records until sync() writes their block
            writer.sync();
            writer.hflush();
        }

        @Override
        public void finish() throws IOException {
            // a writer made on a stream it was given flushes that stream on close, never closes it
            writer.close();
        }
    }
}
