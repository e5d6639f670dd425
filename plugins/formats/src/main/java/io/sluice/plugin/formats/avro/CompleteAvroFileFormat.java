package io.sluice.plugin.formats.avro;

import org.apache.avro.file.DataFileConstants;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.formats.avro.utils.FSDataInputStreamWrapper;
import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.util.Arrays;

/**
 * An Avro reader format that first checks that the file is complete: every complete Avro object
 * container file ends with the sync marker its header declares, because each block is followed by
 * one.
 *
 * <p>Avro's reader takes the end of the input inside a block for the end of the file and stops
 * without an error, so a file cut short by a failed copy would silently lose its last block. The
 * check turns that into an error, at the cost of reading the header and the last bytes of the file
 * once per split.
 */
final class CompleteAvroFileFormat implements BulkFormat<RowData, FileSourceSplit> {

    private static final long serialVersionUID = 1L;

    private static final int MARKER_SIZE = DataFileConstants.SYNC_SIZE;

    private final BulkFormat<RowData, FileSourceSplit> delegate;

    CompleteAvroFileFormat(BulkFormat<RowData, FileSourceSplit> delegate) {
        this.delegate = delegate;
    }

    @Override
    public Reader<RowData> createReader(Configuration config, FileSourceSplit split) throws IOException {
        requireComplete(split.path());
        return delegate.createReader(config, split);
    }

    @Override
    public Reader<RowData> restoreReader(Configuration config, FileSourceSplit split) throws IOException {
        requireComplete(split.path());
        return delegate.restoreReader(config, split);
    }

    @Override
    public boolean isSplittable() {
        return delegate.isSplittable();
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return delegate.getProducedType();
    }

    /** @throws IOException if the file does not end with its sync marker */
    static void requireComplete(Path path) throws IOException {
        long length = path.getFileSystem().getFileStatus(path).getLen();
        try (FSDataInputStream in = path.getFileSystem().open(path);
                FSDataInputStreamWrapper input = new FSDataInputStreamWrapper(in, length);
                DataFileReader<Object> reader = new DataFileReader<>(input, new GenericDatumReader<>())) {
            // right after opening, the last sync point is the end of the header, its marker
            long headerEnd = reader.previousSync();
            byte[] declared = readAt(input, headerEnd - MARKER_SIZE);
            byte[] last = readAt(input, length - MARKER_SIZE);
            if (!Arrays.equals(declared, last)) {
                throw new IOException(String.format(
                        "The file is incomplete: its %d bytes do not end with the sync"
                                + " marker of its header, so its last block is cut short",
                        length));
            }
        }
    }

    private static byte[] readAt(FSDataInputStreamWrapper input, long position) throws IOException {
        byte[] bytes = new byte[MARKER_SIZE];
        input.seek(position);
        int read = 0;
        while (read < bytes.length) {
            int n = input.read(bytes, read, bytes.length - read);
            if (n < 0) {
                throw new IOException("The file ends before byte " + (position + read));
            }
            read += n;
        }
        return bytes;
    }
}
