package io.sluice.plugin.formats.delimited;

import io.sluice.plugin.formats.testing.FormatFiles;
import io.sluice.plugin.formats.testing.JavaValues;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.local.LocalFileSystem;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads a file with a delimited-record format and tells how many records the reader skipped. */
public final class CountingRead implements AutoCloseable {

    private final DelimitedRowReader reader;

    public CountingRead(StreamFormat<RowData> format, Path file) throws IOException {
        long length = Files.size(file);
        FSDataInputStream in = LocalFileSystem.getSharedInstance().open(FormatFiles.flinkPath(file));
        this.reader = (DelimitedRowReader) format.createReader(new Configuration(), in, length, length);
    }

    /** Every row left in the file. */
    public List<List<Object>> rows(RowType type) throws IOException {
        List<List<Object>> rows = new ArrayList<>();
        for (RowData row = reader.read(); row != null; row = reader.read()) {
            rows.add(JavaValues.of(type, row));
        }
        return rows;
    }

    /** How many records were skipped as malformed. */
    public long skipped() {
        return reader.skippedRecords();
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
