package io.sluice.plugin.formats.sequencefile;

import io.sluice.plugin.formats.hadoop.HadoopConfigurations;
import io.sluice.plugin.formats.hadoop.HadoopSeekableInput;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.util.ReflectionUtils;

import java.io.IOException;

/**
 * Reads the values of a Hadoop SequenceFile as rows of one column; keys are skipped unread, so
 * files whose key class this plugin does not know still read.
 *
 * <p>Not splittable. SequenceFiles have sync markers that would allow it, but the framework's
 * stream readers restart a file from its start and skip records after a failure, which a splitting
 * reader would have to match with sync-aware positions; whole files keep that simple.
 */
final class SequenceFileStreamFormat implements StreamFormat<RowData> {

    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final SequenceFileValue value;

    SequenceFileStreamFormat(RowType rowType, SequenceFileValue value) {
        this.rowType = rowType;
        this.value = value;
    }

    @Override
    public Reader<RowData> createReader(Configuration config, FSDataInputStream stream, long fileLen, long splitEnd)
            throws IOException {
        org.apache.hadoop.conf.Configuration conf = HadoopConfigurations.create();
        SequenceFile.Reader reader = new SequenceFile.Reader(
                new org.apache.hadoop.fs.FSDataInputStream(new HadoopSeekableInput(stream)),
                conf.getInt("io.file.buffer.size", 4096),
                0L,
                fileLen,
                conf);
        if (!value.writableClass().getName().equals(reader.getValueClassName())) {
            String found = reader.getValueClassName();
            reader.close();
            throw new IOException(String.format(
                    "The SequenceFile holds values of class %s, but a %s column is read" + " from %s values",
                    found, rowType.getTypeAt(0), value.writableClass().getName()));
        }
        Writable reused = ReflectionUtils.newInstance(value.writableClass(), conf);
        return new ValueReader(reader, reused, value);
    }

    @Override
    public Reader<RowData> restoreReader(
            Configuration config, FSDataInputStream stream, long restoredOffset, long fileLen, long splitEnd)
            throws IOException {
        // the reader never reports a position, so a restore starts at the file's start and the
        // framework skips the records already emitted
        stream.seek(0L);
        return createReader(config, stream, fileLen, splitEnd);
    }

    @Override
    public boolean isSplittable() {
        return false;
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(rowType);
    }

    /** The rows of one file. */
    private static final class ValueReader implements Reader<RowData> {

        private final SequenceFile.Reader reader;
        private final Writable reused;
        private final SequenceFileValue value;
        // raw record bytes: the key is never deserialized, the value once per record
        private final DataOutputBuffer key = new DataOutputBuffer();
        private final SequenceFile.ValueBytes rawValue;
        private final DataOutputBuffer valueBytes = new DataOutputBuffer();
        private final DataInputBuffer valueInput = new DataInputBuffer();

        ValueReader(SequenceFile.Reader reader, Writable reused, SequenceFileValue value) {
            this.reader = reader;
            this.reused = reused;
            this.value = value;
            this.rawValue = reader.createValueBytes();
        }

        @Override
        public RowData read() throws IOException {
            long position = reader.getPosition();
            try {
                key.reset();
                if (reader.nextRaw(key, rawValue) < 0) {
                    return null;
                }
                valueBytes.reset();
                rawValue.writeUncompressedBytes(valueBytes);
                valueInput.reset(valueBytes.getData(), valueBytes.getLength());
                reused.readFields(valueInput);
            } catch (IOException | RuntimeException e) {
                throw new IOException(
                        String.format(
                                "Cannot read the sequence-file record after byte offset %d: %s",
                                position, e.getMessage()),
                        e);
            }
            return value.toRow(reused);
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }
}
