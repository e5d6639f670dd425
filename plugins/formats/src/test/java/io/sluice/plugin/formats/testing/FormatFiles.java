package io.sluice.plugin.formats.testing;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.local.LocalFileSystem;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes files through a format's encoder or bulk writer and reads them back through its stream or
 * bulk reader, the way a sink and a source would, on the local file system.
 */
public final class FormatFiles {

    private FormatFiles() {}

    /** Writes the rows with a row format's encoder. */
    public static void write(Encoder<RowData> encoder, Path file, List<RowData> rows) throws IOException {
        try (FSDataOutputStream out = create(file)) {
            for (RowData row : rows) {
                encoder.encode(row, out);
            }
        }
    }

    /** Writes the rows with a bulk format's writer. */
    public static void write(BulkWriter.Factory<RowData> factory, Path file, List<RowData> rows) throws IOException {
        try (FSDataOutputStream out = create(file)) {
            BulkWriter<RowData> writer = factory.create(out);
            for (RowData row : rows) {
                writer.addElement(row);
            }
            writer.finish();
        }
    }

    /** Every row of the file, read by a stream format as one split of the whole file. */
    public static List<List<Object>> read(StreamFormat<RowData> format, RowType type, Path file) throws IOException {
        long length = Files.size(file);
        List<List<Object>> rows = new ArrayList<>();
        try (FSDataInputStream in = LocalFileSystem.getSharedInstance().open(flinkPath(file));
                StreamFormat.Reader<RowData> reader = format.createReader(new Configuration(), in, length, length)) {
            for (RowData row = reader.read(); row != null; row = reader.read()) {
                rows.add(JavaValues.of(type, row));
            }
        }
        return rows;
    }

    /** Every row of the file, read by a bulk format as one split of the whole file. */
    public static List<List<Object>> read(BulkFormat<RowData, FileSourceSplit> format, RowType type, Path file)
            throws IOException {
        return read(format, type, wholeFile(file));
    }

    /** Every row of a split, copied out of each batch before the batch is released. */
    public static List<List<Object>> read(
            BulkFormat<RowData, FileSourceSplit> format, RowType type, FileSourceSplit split) throws IOException {
        List<List<Object>> rows = new ArrayList<>();
        try (BulkFormat.Reader<RowData> reader = format.createReader(new Configuration(), split)) {
            BulkFormat.RecordIterator<RowData> batch;
            while ((batch = reader.readBatch()) != null) {
                RecordAndPosition<RowData> record;
                while ((record = batch.next()) != null) {
                    rows.add(JavaValues.of(type, record.getRecord()));
                }
                batch.releaseBatch();
            }
        }
        return rows;
    }

    /** The split a source would make of a whole file. */
    public static FileSourceSplit wholeFile(Path file) throws IOException {
        long length = Files.size(file);
        return new FileSourceSplit(
                "0", flinkPath(file), 0, length, Files.getLastModifiedTime(file).toMillis(), length);
    }

    public static org.apache.flink.core.fs.Path flinkPath(Path file) {
        return new org.apache.flink.core.fs.Path(file.toUri());
    }

    private static FSDataOutputStream create(Path file) throws IOException {
        return LocalFileSystem.getSharedInstance().create(flinkPath(file), WriteMode.OVERWRITE);
    }
}
