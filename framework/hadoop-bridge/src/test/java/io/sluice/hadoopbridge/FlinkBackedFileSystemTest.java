package io.sluice.hadoopbridge;

import io.sluice.hadoopbridge.testing.LocalObjectStore;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.RemoteIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every operation of the bridge through Hadoop's API, on a Flink file system that Hadoop cannot
 * reach by itself ({@link LocalObjectStore}, scheme {@code bridgetest}); what comes out is checked
 * on the local disk underneath as well as through Hadoop.
 */
class FlinkBackedFileSystemTest {

    @TempDir
    java.nio.file.Path dir;

    private FileSystem fs;
    private Path root;

    @BeforeEach
    void open() throws IOException {
        root = new Path(LocalObjectStore.location(dir));
        // not from Hadoop's cache: a test's working directory stays its own
        fs = FileSystem.newInstance(root.toUri(), LocalObjectStore.mapped(new Configuration()));
    }

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    @Test
    void hadoopResolvesTheSchemeToTheBridge() {
        assertThat(fs).isInstanceOf(FlinkBackedFileSystem.class);
        assertThat(fs.getScheme()).isEqualTo("bridgetest");
        assertThat(fs.getUri()).isEqualTo(URI.create("bridgetest://bucket/"));
        assertThat(fs.getCanonicalServiceName()).isNull();
    }

    @Test
    void writesThroughFlinkAndReadsBack() throws IOException {
        Path file = new Path(root, "a/file.txt");
        try (FSDataOutputStream out = fs.create(file)) {
            out.write("hello, bridge".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(Files.readString(dir.resolve("a/file.txt"))).isEqualTo("hello, bridge");
        assertThat(read(file)).isEqualTo("hello, bridge");

        FileStatus status = fs.getFileStatus(file);
        assertThat(status.isFile()).isTrue();
        assertThat(status.getLen()).isEqualTo(13);
        assertThat(status.getPath()).isEqualTo(file);
        assertThat(status.getPath().toString()).startsWith("bridgetest://bucket/");
        assertThat(status.getBlockSize()).isPositive();
        assertThat(status.getReplication()).isPositive();
        assertThat(status.getModificationTime())
                .isEqualTo(Files.getLastModifiedTime(dir.resolve("a/file.txt")).toMillis());
        assertThat(status.getOwner()).isNotNull();
        assertThat(fs.getFileStatus(new Path(root, "a")).isDirectory()).isTrue();
    }

    @Test
    void createWithoutOverwriteRefusesAnExistingFile() throws IOException {
        Path file = new Path(root, "once");
        write(file, "first");
        assertThatThrownBy(() -> fs.create(file, false))
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining("already exists");
        assertThat(read(file)).isEqualTo("first");
        write(file, "second"); // create(file) overwrites
        assertThat(read(file)).isEqualTo("second");
        assertThatThrownBy(() -> fs.create(root, false)).isInstanceOf(FileAlreadyExistsException.class);
    }

    @Test
    void createNonRecursiveNeedsTheParent() throws IOException {
        fs.createFile(new Path(root, "missing/file")).recursive().build().close();
        assertThat(dir.resolve("missing/file")).exists();
        assertThatThrownBy(() -> fs.createNonRecursive(
                        new Path(root, "nowhere/file"),
                        null,
                        EnumSet.of(CreateFlag.CREATE),
                        4096,
                        (short) 1,
                        1024,
                        null))
                .isInstanceOf(FileNotFoundException.class);
        fs.createNonRecursive(
                        new Path(root, "missing/other"),
                        null,
                        EnumSet.of(CreateFlag.CREATE),
                        4096,
                        (short) 1,
                        1024,
                        null)
                .close();
        assertThat(dir.resolve("missing/other")).exists();
    }

    @Test
    void seeksAndReadsAtPositions() throws IOException {
        byte[] data = new byte[1000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) i;
        }
        Path file = new Path(root, "bytes");
        try (FSDataOutputStream out = fs.create(file)) {
            out.write(data);
            assertThat(out.getPos()).isEqualTo(1000);
        }
        try (FSDataInputStream in = fs.open(file)) {
            in.seek(500);
            assertThat(in.read()).isEqualTo(data[500] & 0xff);
            assertThat(in.getPos()).isEqualTo(501);

            byte[] ten = new byte[10];
            in.readFully(100, ten);
            assertThat(ten).isEqualTo(Arrays.copyOfRange(data, 100, 110));
            assertThat(in.getPos()).as("a positioned read leaves the position").isEqualTo(501);

            byte[] tail = new byte[20];
            assertThat(in.read(980, tail, 0, 20)).isEqualTo(20);
            assertThat(tail).isEqualTo(Arrays.copyOfRange(data, 980, 1000));
            assertThatThrownBy(() -> in.readFully(990, new byte[20])).isInstanceOf(EOFException.class);

            in.seek(0);
            byte[] all = new byte[1000];
            in.readFully(all);
            assertThat(all).isEqualTo(data);
            assertThat(in.read()).isEqualTo(-1);
            assertThatThrownBy(() -> in.seek(-1)).isInstanceOf(EOFException.class);
        }
        assertThat(fs.getStorageStatistics()).isNotNull();
    }

    @Test
    void listsDirectories() throws IOException {
        Path a = new Path(root, "a");
        assertThat(fs.mkdirs(new Path(a, "b"))).isTrue();
        write(new Path(a, "f1"), "1");
        write(new Path(a, "b/f2"), "22");

        FileStatus[] children = fs.listStatus(a);
        assertThat(children)
                .extracting(s -> s.getPath().getName() + (s.isDirectory() ? "/" : ":" + s.getLen()))
                .containsExactlyInAnyOrder("b/", "f1:1");
        assertThat(children)
                .extracting(FileStatus::getPath)
                .containsExactlyInAnyOrder(new Path(a, "b"), new Path(a, "f1"));
        assertThat(fs.listStatus(new Path(a, "f1")))
                .extracting(FileStatus::getPath)
                .containsExactly(new Path(a, "f1"));
        assertThatThrownBy(() -> fs.listStatus(new Path(root, "missing"))).isInstanceOf(FileNotFoundException.class);

        List<String> files = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> all = fs.listFiles(a, true);
        while (all.hasNext()) {
            files.add(all.next().getPath().toString());
        }
        assertThat(files).containsExactlyInAnyOrder(root + "/a/f1", root + "/a/b/f2");
        assertThat(fs.getContentSummary(a).getLength()).isEqualTo(3);
    }

    @Test
    void aMissingPathIsFileNotFound() throws IOException {
        Path missing = new Path(root, "missing");
        assertThatThrownBy(() -> fs.getFileStatus(missing)).isInstanceOf(FileNotFoundException.class);
        assertThatThrownBy(() -> fs.open(missing)).isInstanceOf(FileNotFoundException.class);
        assertThat(fs.exists(missing)).isFalse();
    }

    @Test
    void renamesFilesAndDirectories() throws IOException {
        Path file = new Path(root, "x");
        write(file, "x");
        assertThat(fs.rename(file, new Path(root, "y"))).isTrue();
        assertThat(fs.exists(file)).isFalse();
        assertThat(read(new Path(root, "y"))).isEqualTo("x");

        write(new Path(root, "z"), "z");
        assertThat(fs.rename(new Path(root, "y"), new Path(root, "z")))
                .as("onto a file")
                .isFalse();
        assertThat(read(new Path(root, "z"))).isEqualTo("z");
        assertThat(fs.rename(new Path(root, "missing"), new Path(root, "w"))).isFalse();

        fs.mkdirs(new Path(root, "d"));
        assertThat(fs.rename(new Path(root, "y"), new Path(root, "d")))
                .as("into a directory")
                .isTrue();
        assertThat(read(new Path(root, "d/y"))).isEqualTo("x");

        assertThat(fs.rename(new Path(root, "d"), new Path(root, "e"))).isTrue();
        assertThat(read(new Path(root, "e/y"))).isEqualTo("x");
        assertThat(dir.resolve("d")).doesNotExist();
        assertThat(fs.rename(new Path(root, "e"), new Path(root, "e/inside"))).isFalse();
    }

    @Test
    void deletesFilesAndDirectories() throws IOException {
        assertThat(fs.delete(new Path(root, "missing"), true)).isFalse();
        write(new Path(root, "d/e/f"), "f");
        write(new Path(root, "d/g"), "g");
        assertThatThrownBy(() -> fs.delete(new Path(root, "d"), false))
                .isInstanceOf(PathIsNotEmptyDirectoryException.class);
        assertThat(dir.resolve("d/e/f")).exists();

        assertThat(fs.delete(new Path(root, "d/g"), false)).isTrue();
        assertThat(dir.resolve("d/g")).doesNotExist();
        assertThat(fs.delete(new Path(root, "d"), true)).isTrue();
        assertThat(dir.resolve("d")).doesNotExist();

        fs.mkdirs(new Path(root, "empty"));
        assertThat(fs.delete(new Path(root, "empty"), false)).isTrue();
        assertThat(dir.resolve("empty")).doesNotExist();
    }

    @Test
    void makesDirectories() throws IOException {
        assertThat(fs.mkdirs(new Path(root, "p/q/r"))).isTrue();
        assertThat(dir.resolve("p/q/r")).isDirectory();
        assertThat(fs.mkdirs(new Path(root, "p/q"))).isTrue();
        write(new Path(root, "file"), "f");
        assertThatThrownBy(() -> fs.mkdirs(new Path(root, "file"))).isInstanceOf(FileAlreadyExistsException.class);
    }

    @Test
    void refusesToAppend() throws IOException {
        Path file = new Path(root, "log");
        write(file, "a");
        assertThatThrownBy(() -> fs.append(file))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot append to " + file)
                .hasMessageContaining("object stores do not append");
    }

    @Test
    void relativePathsResolveAgainstTheWorkingDirectory() throws IOException {
        assertThat(fs.getWorkingDirectory()).isEqualTo(new Path("bridgetest://bucket/"));
        fs.setWorkingDirectory(new Path(root, "work"));
        write(new Path("relative"), "r");
        assertThat(Files.readString(dir.resolve("work/relative"))).isEqualTo("r");
        assertThat(fs.getFileStatus(new Path("relative")).getPath()).isEqualTo(new Path(root, "work/relative"));
    }

    @Test
    void fileContextGoesThroughTheBridgeToo() throws IOException {
        FileContext context = FileContext.getFileContext(root.toUri(), LocalObjectStore.mapped(new Configuration()));
        Path file = new Path(root, "context/file");
        try (FSDataOutputStream out =
                context.create(file, EnumSet.of(CreateFlag.CREATE), Options.CreateOpts.createParent())) {
            out.write("through FileContext".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(Files.readString(dir.resolve("context/file"))).isEqualTo("through FileContext");
        try (FSDataInputStream in = context.open(file)) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("through FileContext");
        }
        assertThat(context.getFileStatus(file).getLen()).isEqualTo(19);
    }

    @Test
    void aSchemeFlinkCannotReachIsAClearError() {
        Configuration conf = new Configuration();
        conf.set("fs.nosuchstore.impl", FlinkBackedFileSystem.class.getName());
        assertThatThrownBy(() -> FileSystem.newInstance(URI.create("nosuchstore://bucket/"), conf))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("No Flink file system for 'nosuchstore://'")
                .hasMessageContaining("flink-s3-fs-hadoop");
    }

    private void write(Path file, String text) throws IOException {
        try (FSDataOutputStream out = fs.create(file)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    private String read(Path file) throws IOException {
        try (FSDataInputStream in = fs.open(file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
