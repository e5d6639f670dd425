package io.sluice.testservers.hdfs;

import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** HDFS in its own JVM: Flink's Hadoop file system writes, Hadoop's own client reads. */
class HdfsServerIT {

    @RegisterExtension
    static final HdfsServer HDFS = new HdfsServer();

    @Test
    void flinkWritesAndHadoopsClientReadsBack() throws IOException {
        Path file = new Path(HDFS.uri() + "/lake/t/a.txt");
        FileSystem fs = FileSystem.get(URI.create(file.toString()));
        try (FSDataOutputStream out = fs.create(file, FileSystem.WriteMode.NO_OVERWRITE)) {
            out.write("on hdfs".getBytes(StandardCharsets.UTF_8));
        }
        org.apache.hadoop.fs.FileSystem hadoop =
                org.apache.hadoop.fs.FileSystem.get(URI.create(HDFS.uri()), new Configuration());
        try (FSDataInputStream in = hadoop.open(new org.apache.hadoop.fs.Path("/lake/t/a.txt"))) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("on hdfs");
        }
        assertThat(fs.createRecoverableWriter().supportsResume()).isTrue();
    }
}
