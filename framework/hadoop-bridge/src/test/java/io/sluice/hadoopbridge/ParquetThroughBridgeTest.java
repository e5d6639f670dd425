package io.sluice.hadoopbridge;

import io.sluice.hadoopbridge.testing.LocalObjectStore;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A real library on the bridge: parquet-hadoop writes a file and reads it back through Hadoop paths. */
class ParquetThroughBridgeTest {

    private static final MessageType SCHEMA =
            MessageTypeParser.parseMessageType("message row { required int64 id; required binary name (UTF8); }");

    @TempDir
    java.nio.file.Path dir;

    @Test
    void writesAndReadsAParquetFile() throws IOException {
        Configuration conf = LocalObjectStore.mapped(new Configuration());
        Path file = new Path(LocalObjectStore.location(dir) + "/data/part-0.parquet");
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        // small row groups and pages: the reader seeks between several of them
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(file)
                .withConf(conf)
                .withType(SCHEMA)
                .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
                .withRowGroupSize(4096L)
                .withPageSize(512)
                .build()) {
            for (long i = 0; i < 5000; i++) {
                writer.write(groups.newGroup().append("id", i).append("name", "row-" + i));
            }
        }
        assertThat(dir.resolve("data/part-0.parquet")).isRegularFile();
        assertThat(Files.size(dir.resolve("data/part-0.parquet"))).isPositive();

        try (ParquetFileReader footer = ParquetFileReader.open(HadoopInputFile.fromPath(file, conf))) {
            assertThat(footer.getRecordCount()).isEqualTo(5000);
            assertThat(footer.getRowGroups()).hasSizeGreaterThan(1);
        }
        List<String> rows = new ArrayList<>();
        try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(), file)
                .withConf(conf)
                .build()) {
            for (Group row = reader.read(); row != null; row = reader.read()) {
                rows.add(row.getLong("id", 0) + "=" + row.getString("name", 0));
            }
        }
        assertThat(rows).hasSize(5000);
        for (int i = 0; i < rows.size(); i++) {
            assertThat(rows.get(i)).isEqualTo(i + "=row-" + i);
        }
    }
}
