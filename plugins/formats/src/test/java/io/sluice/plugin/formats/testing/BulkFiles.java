package io.sluice.plugin.formats.testing;

import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Splits and damage for bulk format tests. */
public final class BulkFiles {

    private BulkFiles() {}

    /** The rows of the file read as two splits, the first half and the rest, one after another. */
    public static List<List<Object>> readInTwoSplits(
            BulkFormat<RowData, FileSourceSplit> format, RowType type, Path file) throws IOException {
        long length = Files.size(file);
        long half = length / 2;
        long modified = Files.getLastModifiedTime(file).toMillis();
        org.apache.flink.core.fs.Path path = FormatFiles.flinkPath(file);
        List<List<Object>> rows = new ArrayList<>();
        rows.addAll(FormatFiles.read(format, type, new FileSourceSplit("0", path, 0, half, modified, length)));
        rows.addAll(
                FormatFiles.read(format, type, new FileSourceSplit("1", path, half, length - half, modified, length)));
        return rows;
    }

    /** Cuts the file to the given share of its length, as a failed upload would leave it. */
    public static void truncate(Path file, double share) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength((long) (raf.length() * share));
        }
    }

    /** Overwrites bytes in the middle of the file. */
    public static void scribble(Path file) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            long middle = raf.length() / 2;
            raf.seek(middle - 16);
            for (int i = 0; i < 32; i++) {
                raf.write(0xA5);
            }
        }
    }
}
