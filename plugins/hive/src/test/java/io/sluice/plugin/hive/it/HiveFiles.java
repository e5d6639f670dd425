package io.sluice.plugin.hive.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.orc.OrcFile;
import org.apache.orc.RecordReader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The rows {@code (id BIGINT, msg STRING)} of a partition directory of a Hive table in any format
 * the target writes, as {@code id|msg}, read by readers independent of the writers: parquet-java,
 * ORC's reader, and for text and SequenceFile tables Hive's own SerDe of the table (through
 * {@link MetastoreProbe#deserialize}) over the lines Hive's text reader splits, or the values
 * Hadoop's SequenceFile reader reads.
 */
final class HiveFiles {

    private HiveFiles() {}

    /** @param format the table's {@code hive.storage.file-format} */
    static List<String> rows(String format, Path dir, MetastoreProbe probe, String db, String table) throws Exception {
        List<String> rows = new ArrayList<>();
        for (Path file : ParquetFiles.dataFiles(dir)) {
            rows.addAll(rowsOf(format, file, probe, db, table));
        }
        return rows;
    }

    /** The rows of one data file. */
    static List<String> rowsOf(String format, Path file, MetastoreProbe probe, String db, String table)
            throws Exception {
        switch (format) {
            case "parquet":
                return parquet(file);
            case "orc":
                return orc(file);
            case "textfile":
                return strings(probe.deserialize(db, table, lines(file)));
            case "sequencefile":
                return strings(probe.deserialize(db, table, sequenceFileValues(file)));
            default:
                throw new IllegalArgumentException(format);
        }
    }

    /** Every file below {@code dir} whose name a Hive reader skips ({@code .} or {@code _} first). */
    static List<Path> hiddenFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> p.getFileName().toString().startsWith(".")
                            || p.getFileName().toString().startsWith("_"))
                    .filter(p -> !p.getFileName().toString().equals("_SUCCESS"))
                    .collect(Collectors.toList());
        }
    }

    private static List<String> parquet(Path file) throws IOException {
        List<String> rows = new ArrayList<>();
        try (org.apache.parquet.hadoop.ParquetReader<org.apache.parquet.example.data.Group> reader =
                org.apache.parquet.hadoop.ParquetReader.builder(
                                new org.apache.parquet.hadoop.example.GroupReadSupport(),
                                new org.apache.hadoop.fs.Path(file.toUri()))
                        .withConf(new Configuration())
                        .build()) {
            for (org.apache.parquet.example.data.Group g = reader.read(); g != null; g = reader.read()) {
                rows.add(g.getLong(0, 0) + "|" + g.getString(1, 0));
            }
        }
        return rows;
    }

    private static List<String> orc(Path file) throws IOException {
        List<String> rows = new ArrayList<>();
        try (org.apache.orc.Reader reader = OrcFile.createReader(
                        new org.apache.hadoop.fs.Path(file.toUri()), OrcFile.readerOptions(new Configuration()));
                RecordReader records = reader.rows()) {
            VectorizedRowBatch batch = reader.getSchema().createRowBatch();
            while (records.nextBatch(batch)) {
                LongColumnVector ids = (LongColumnVector) batch.cols[0];
                BytesColumnVector msgs = (BytesColumnVector) batch.cols[1];
                for (int i = 0; i < batch.size; i++) {
                    int id = ids.isRepeating ? 0 : i;
                    int msg = msgs.isRepeating ? 0 : i;
                    rows.add(ids.vector[id] + "|"
                            + new String(msgs.vector[msg], msgs.start[msg], msgs.length[msg], StandardCharsets.UTF_8));
                }
            }
        }
        return rows;
    }

    private static List<String> strings(List<List<Object>> rows) {
        List<String> out = new ArrayList<>();
        for (List<Object> row : rows) {
            out.add(row.get(0) + "|" + row.get(1));
        }
        return out;
    }

    /** The lines of a text file, as Hive's text reader splits them (at {@code \n}). */
    private static List<byte[]> lines(Path file) throws IOException {
        List<byte[]> lines = new ArrayList<>();
        byte[] bytes = Files.readAllBytes(file);
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                lines.add(Arrays.copyOfRange(bytes, start, i));
                start = i + 1;
            }
        }
        if (start != bytes.length) {
            throw new IOException(file + " does not end with a line break");
        }
        return lines;
    }

    /** The values of a SequenceFile, read by Hadoop's reader; their keys are empty. */
    private static List<byte[]> sequenceFileValues(Path file) throws IOException {
        List<byte[]> values = new ArrayList<>();
        try (SequenceFile.Reader reader = new SequenceFile.Reader(
                new Configuration(), SequenceFile.Reader.file(new org.apache.hadoop.fs.Path(file.toUri())))) {
            BytesWritable key = new BytesWritable();
            Text value = new Text();
            while (reader.next(key, value)) {
                values.add(Arrays.copyOf(value.getBytes(), value.getLength()));
            }
        }
        return values;
    }
}
