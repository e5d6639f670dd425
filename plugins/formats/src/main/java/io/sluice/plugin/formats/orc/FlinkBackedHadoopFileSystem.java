package io.sluice.plugin.formats.orc;

import io.sluice.plugin.formats.hadoop.HadoopSeekableInput;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

import java.io.IOException;
import java.net.URI;

/**
 * A read-only Hadoop {@link FileSystem} that opens files through Flink's file systems, for
 * libraries that insist on a Hadoop file system (ORC's reader).
 *
 * <p>Why not Hadoop's own: it would read only the schemes this plugin's Hadoop client knows,
 * rather than every file system the cluster configured for Flink (S3, GCS, OSS plugins ...), and
 * Hadoop's file system cache registers a JVM shutdown hook and a statistics thread that hold the
 * plugin's class loader for the life of the JVM. This class is never initialized as a Hadoop file
 * system, never cached, and only supports what a reader needs: {@link #open} and {@link
 * #getFileStatus}.
 */
final class FlinkBackedHadoopFileSystem extends FileSystem {

    private final URI uri;

    /**
     * @param uri the file system's URI, as Hadoop reports it (the scheme and authority of a file)
     * @param conf what Hadoop's defaults read settings such as buffer sizes from
     */
    FlinkBackedHadoopFileSystem(URI uri, Configuration conf) {
        this.uri = uri;
        // set directly, not through initialize(): that would register file system statistics
        setConf(conf);
    }

    @Override
    public URI getUri() {
        return uri;
    }

    @Override
    public FSDataInputStream open(Path path, int bufferSize) throws IOException {
        org.apache.flink.core.fs.Path file = flinkPath(path);
        return new FSDataInputStream(
                new HadoopSeekableInput(file.getFileSystem().open(file)));
    }

    @Override
    public FileStatus getFileStatus(Path path) throws IOException {
        org.apache.flink.core.fs.Path file = flinkPath(path);
        org.apache.flink.core.fs.FileStatus status = file.getFileSystem().getFileStatus(file);
        return new FileStatus(
                status.getLen(),
                status.isDir(),
                status.getReplication(),
                status.getBlockSize(),
                status.getModificationTime(),
                path);
    }

    private static org.apache.flink.core.fs.Path flinkPath(Path path) {
        return new org.apache.flink.core.fs.Path(path.toUri());
    }

    @Override
    public FSDataOutputStream create(
            Path path,
            FsPermission permission,
            boolean overwrite,
            int bufferSize,
            short replication,
            long blockSize,
            Progressable progress) {
        throw readOnly();
    }

    @Override
    public FSDataOutputStream append(Path path, int bufferSize, Progressable progress) {
        throw readOnly();
    }

    @Override
    public boolean rename(Path source, Path target) {
        throw readOnly();
    }

    @Override
    public boolean delete(Path path, boolean recursive) {
        throw readOnly();
    }

    @Override
    public FileStatus[] listStatus(Path path) {
        throw new UnsupportedOperationException("Listing is not needed to read a file");
    }

    @Override
    public void setWorkingDirectory(Path directory) {
        throw new UnsupportedOperationException("There is no working directory");
    }

    @Override
    public Path getWorkingDirectory() {
        return new Path(uri);
    }

    @Override
    public boolean mkdirs(Path path, FsPermission permission) {
        throw readOnly();
    }

    private static UnsupportedOperationException readOnly() {
        return new UnsupportedOperationException("Reading only: files are written through Flink");
    }
}
