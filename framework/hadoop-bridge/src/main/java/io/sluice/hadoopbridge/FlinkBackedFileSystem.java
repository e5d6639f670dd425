package io.sluice.hadoopbridge;

import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.UnsupportedFileSystemSchemeException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progressable;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;

/**
 * A Hadoop {@link FileSystem} whose every operation goes to Flink's {@link
 * org.apache.flink.core.fs.FileSystem} for the same URI: Iceberg's {@code HadoopFileIO} and
 * catalogs, Hive's metastore warehouse, readers and statistics reach every object store Flink's
 * file-system plugins reach, with Flink's one storage configuration ({@code s3.*}, {@code gs.*}
 * ... in {@code config.yaml}), and no plugin bundles an S3, GCS or Azure client. {@link
 * ObjectStores} says for which schemes and maps them.
 *
 * <p>What Hadoop callers rely on and Flink's file systems do not all promise, this class makes
 * true itself: {@link #getFileStatus} and {@link #listStatus} of a missing path throw {@link
 * FileNotFoundException}; {@link #create} without overwrite of an existing file throws Hadoop's
 * {@link FileAlreadyExistsException}; {@link #delete} of a missing path is {@code false}, of a
 * non-empty directory without {@code recursive} a {@link PathIsNotEmptyDirectoryException};
 * {@link #rename} into an existing directory moves the source below it, onto an existing file is
 * {@code false}. Paths in statuses carry the scheme and bucket the caller asked for (Flink's S3
 * file system answers {@code s3a://} for an {@code s3://} path), and files have the owner, group
 * and permissions an object store reports through Hadoop's own clients: the current user and
 * {@code rw-rw-rw-}.
 *
 * <p>Not supported: {@link #append} (object stores do not append; a clear {@link IOException}),
 * positioned reads come from {@link org.apache.hadoop.fs.FSInputStream}'s seek-read-seek defaults,
 * no byte-buffer reads (readers fall back to arrays), {@code hsync} is a flush. The commit of an
 * Iceberg Hadoop catalog, a rename that must be atomic, is what object stores cannot do: the
 * plugins refuse that catalog on these schemes rather than rely on this class for it.
 *
 * <p>Flink's file system comes from {@link
 * org.apache.flink.core.fs.FileSystem#getUnguardedFileSystem}, never {@code get}: on a task thread
 * {@code get} wraps it in the task's safety net, which closes its streams when the task ends, and
 * Hadoop caches this instance for the life of the plugin, across tasks.
 */
public class FlinkBackedFileSystem extends FileSystem {

    /** Schemes whose Flink file system this thread is resolving: Flink's Hadoop fallback may come back here. */
    private static final ThreadLocal<Set<String>> RESOLVING = ThreadLocal.withInitial(HashSet::new);

    private URI uri;
    private org.apache.flink.core.fs.FileSystem flink;
    private Path workingDirectory;
    private String owner;

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        if (name.getScheme() == null) {
            throw new IOException("No scheme in file system URI '" + name + "'");
        }
        try {
            uri = new URI(name.getScheme(), name.getAuthority(), "/", null, null);
        } catch (URISyntaxException e) {
            throw new IOException("Not a file system URI: " + name, e);
        }
        flink = flinkFileSystem(uri);
        workingDirectory = new Path(uri);
        owner = currentUser();
        setConf(conf);
    }

    private static org.apache.flink.core.fs.FileSystem flinkFileSystem(URI uri) throws IOException {
        String scheme = uri.getScheme();
        Set<String> resolving = RESOLVING.get();
        if (!resolving.add(scheme)) {
            // Flink has no file system for the scheme and fell back to a Hadoop that maps it here
            throw new IOException(noFlinkFileSystem(uri, "Flink's Hadoop fallback leads back to this bridge"));
        }
        try {
            return org.apache.flink.core.fs.FileSystem.getUnguardedFileSystem(uri);
        } catch (UnsupportedFileSystemSchemeException e) {
            throw new IOException(noFlinkFileSystem(uri, e.getMessage()), e);
        } finally {
            resolving.remove(scheme);
        }
    }

    private static String noFlinkFileSystem(URI uri, String why) {
        return "No Flink file system for '" + uri.getScheme() + "://' (" + uri + "), which this plugin reaches"
                + " through Flink's file systems: add Flink's file-system plugin for it to Flink's plugins/"
                + " directory (flink-s3-fs-hadoop or flink-s3-fs-presto for S3, flink-gs-fs-hadoop,"
                + " flink-azure-fs-hadoop, flink-oss-fs-hadoop) and set its keys in Flink's configuration"
                + " (" + why + ")";
    }

    private static String currentUser() {
        try {
            return UserGroupInformation.getCurrentUser().getShortUserName();
        } catch (IOException | RuntimeException e) {
            return System.getProperty("user.name", "");
        }
    }

    @Override
    public URI getUri() {
        return uri;
    }

    @Override
    public String getScheme() {
        if (uri == null) {
            throw new UnsupportedOperationException(
                    "A " + getClass().getSimpleName() + " takes its scheme from the URI it is initialized with");
        }
        return uri.getScheme();
    }

    /** No delegation tokens: Flink's file system holds the credentials. */
    @Override
    public String getCanonicalServiceName() {
        return null;
    }

    @Override
    public FSDataInputStream open(Path path, int bufferSize) throws IOException {
        Path file = qualify(path);
        // no status first: Flink's file systems throw FileNotFoundException for a missing file
        statistics.incrementReadOps(1);
        return new FSDataInputStream(new FlinkBackedInputStream(flink.open(toFlink(file), bufferSize), statistics));
    }

    @Override
    public FSDataOutputStream create(
            Path path,
            FsPermission permission,
            boolean overwrite,
            int bufferSize,
            short replication,
            long blockSize,
            Progressable progress)
            throws IOException {
        Path file = qualify(path);
        if (!overwrite) {
            // Flink's file systems differ in how they refuse (java.nio's exception, Hadoop's, a
            // plain IOException): Hadoop's callers catch Hadoop's
            FileStatus existing = statusOrNull(file);
            if (existing != null) {
                throw new FileAlreadyExistsException(
                        file + (existing.isDirectory() ? " is a directory" : " already exists"));
            }
        }
        org.apache.flink.core.fs.FSDataOutputStream out;
        try {
            out = flink.create(toFlink(file), overwrite ? WriteMode.OVERWRITE : WriteMode.NO_OVERWRITE);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // created by someone else since the check
            throw (IOException) new FileAlreadyExistsException(file + " already exists").initCause(e);
        }
        statistics.incrementWriteOps(1);
        return new FSDataOutputStream(out, statistics);
    }

    /** {@link #create} when the parent directory exists (an object store's "directory" may be implicit). */
    @Override
    public FSDataOutputStream createNonRecursive(
            Path path,
            FsPermission permission,
            EnumSet<CreateFlag> flags,
            int bufferSize,
            short replication,
            long blockSize,
            Progressable progress)
            throws IOException {
        Path file = qualify(path);
        Path parent = file.getParent();
        if (parent != null) {
            FileStatus status = getFileStatus(parent);
            if (!status.isDirectory()) {
                throw new ParentNotDirectoryException(parent + " is not a directory");
            }
        }
        return create(
                file, permission, flags.contains(CreateFlag.OVERWRITE), bufferSize, replication, blockSize, progress);
    }

    @Override
    public FSDataOutputStream append(Path path, int bufferSize, Progressable progress) throws IOException {
        throw new IOException("Cannot append to " + qualify(path) + ": "
                + getClass().getSimpleName() + " writes through Flink's file systems, and object stores do not append");
    }

    @Override
    public boolean rename(Path source, Path target) throws IOException {
        Path src = qualify(source);
        Path dst = qualify(target);
        FileStatus from = statusOrNull(src);
        if (from == null || src.isRoot()) {
            return false;
        }
        FileStatus to = statusOrNull(dst);
        if (to != null) {
            if (!to.isDirectory()) {
                return false;
            }
            dst = new Path(dst, src.getName());
            if (statusOrNull(dst) != null) {
                return false;
            }
        }
        if (src.equals(dst) || isBelow(dst, src)) {
            return false;
        }
        statistics.incrementWriteOps(1);
        return flink.rename(toFlink(src), toFlink(dst));
    }

    private static boolean isBelow(Path path, Path directory) {
        String dir = directory.toUri().getPath();
        return path.toUri().getPath().startsWith(dir.endsWith("/") ? dir : dir + "/");
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        Path target = qualify(path);
        FileStatus status = statusOrNull(target);
        if (status == null) {
            return false;
        }
        if (status.isDirectory() && !recursive) {
            org.apache.flink.core.fs.FileStatus[] children = flink.listStatus(toFlink(target));
            if (children != null && children.length > 0) {
                throw new PathIsNotEmptyDirectoryException(target.toString());
            }
        }
        statistics.incrementWriteOps(1);
        return flink.delete(toFlink(target), recursive);
    }

    @Override
    public FileStatus[] listStatus(Path path) throws IOException {
        Path dir = qualify(path);
        statistics.incrementReadOps(1);
        org.apache.flink.core.fs.FileStatus[] children = flink.listStatus(toFlink(dir));
        if (children == null) {
            // Flink's local file system answers null for a missing directory
            throw new FileNotFoundException("No such file or directory: " + dir);
        }
        FileStatus[] statuses = new FileStatus[children.length];
        for (int i = 0; i < children.length; i++) {
            statuses[i] = toHadoop(children[i], rebase(children[i].getPath()));
        }
        return statuses;
    }

    @Override
    public void setWorkingDirectory(Path directory) {
        workingDirectory = qualify(directory);
    }

    /** The root of the bucket: object stores have no home directories. */
    @Override
    public Path getWorkingDirectory() {
        return workingDirectory;
    }

    @Override
    public boolean mkdirs(Path path, FsPermission permission) throws IOException {
        Path dir = qualify(path);
        FileStatus status = statusOrNull(dir);
        if (status != null) {
            if (!status.isDirectory()) {
                throw new FileAlreadyExistsException("Cannot create directory " + dir + ": a file is in the way");
            }
            return true;
        }
        statistics.incrementWriteOps(1);
        return flink.mkdirs(toFlink(dir));
    }

    @Override
    public FileStatus getFileStatus(Path path) throws IOException {
        Path file = qualify(path);
        statistics.incrementReadOps(1);
        // Flink's file systems throw FileNotFoundException for a missing path, as Hadoop's callers expect
        return toHadoop(flink.getFileStatus(toFlink(file)), file);
    }

    private FileStatus statusOrNull(Path path) throws IOException {
        try {
            return getFileStatus(path);
        } catch (FileNotFoundException e) {
            return null;
        }
    }

    private FileStatus toHadoop(org.apache.flink.core.fs.FileStatus status, Path path) {
        boolean dir = status.isDir();
        long blockSize = status.getBlockSize();
        if (!dir && blockSize <= 0) {
            // a split planner divides a file by its block size
            blockSize = getDefaultBlockSize(path);
        }
        return new FileStatus(
                dir ? 0 : status.getLen(),
                dir,
                dir ? 0 : Math.max(1, status.getReplication()),
                dir ? 0 : blockSize,
                status.getModificationTime(),
                status.getAccessTime(),
                dir ? FsPermission.getDirDefault() : FsPermission.getFileDefault(),
                owner,
                owner,
                path);
    }

    /** A path Flink's file system reports, with the scheme and authority of this file system. */
    private Path rebase(org.apache.flink.core.fs.Path flinkPath) {
        return new Path(uri.getScheme(), uri.getAuthority(), flinkPath.toUri().getPath());
    }

    private Path qualify(Path path) {
        return makeQualified(path);
    }

    private static org.apache.flink.core.fs.Path toFlink(Path path) {
        return new org.apache.flink.core.fs.Path(path.toUri());
    }
}
