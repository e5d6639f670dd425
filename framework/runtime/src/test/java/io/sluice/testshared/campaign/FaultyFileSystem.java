package io.sluice.testshared.campaign;

import org.apache.flink.core.fs.BlockLocation;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemKind;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.IOException;
import java.net.URI;

/**
 * The local file system under its own scheme, {@code faulty:///path} for {@code file:///path},
 * with the faults {@link StorageFaults} draws injected into create, close, rename, commit and
 * delete: what a flaky object store or NFS mount does to a sink. Paths it hands out keep the
 * {@code faulty} scheme, so callers stay on it.
 */
public final class FaultyFileSystem extends FileSystem {

    public static final String SCHEME = "faulty";

    private final FileSystem local;

    FaultyFileSystem(FileSystem local) {
        this.local = local;
    }

    /** {@code faulty:///x} for a local directory {@code /x}. */
    public static String uri(java.nio.file.Path localPath) {
        return SCHEME + "://" + localPath.toAbsolutePath();
    }

    private static Path toLocal(Path path) {
        return new Path("file", null, path.toUri().getPath());
    }

    private static Path toFaulty(Path path) {
        return new Path(SCHEME, null, path.toUri().getPath());
    }

    private static String localName(Path path) {
        return path.toUri().getPath();
    }

    @Override
    public Path getWorkingDirectory() {
        return toFaulty(local.getWorkingDirectory());
    }

    @Override
    public Path getHomeDirectory() {
        return toFaulty(local.getHomeDirectory());
    }

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
        return new Status(local.getFileStatus(toLocal(f)));
    }

    @Override
    public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len) throws IOException {
        FileStatus unwrapped = file instanceof Status ? ((Status) file).local : file;
        return local.getFileBlockLocations(unwrapped, start, len);
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        return local.open(toLocal(f), bufferSize);
    }

    @Override
    public FSDataInputStream open(Path f) throws IOException {
        return local.open(toLocal(f));
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
        FileStatus[] statuses = local.listStatus(toLocal(f));
        if (statuses == null) {
            return null;
        }
        FileStatus[] wrapped = new FileStatus[statuses.length];
        for (int i = 0; i < statuses.length; i++) {
            wrapped[i] = new Status(statuses[i]);
        }
        return wrapped;
    }

    @Override
    public boolean delete(Path f, boolean recursive) throws IOException {
        StorageFaults.before("delete", localName(f));
        boolean deleted = local.delete(toLocal(f), recursive);
        StorageFaults.after("delete", localName(f));
        return deleted;
    }

    @Override
    public boolean mkdirs(Path f) throws IOException {
        return local.mkdirs(toLocal(f));
    }

    @Override
    public FSDataOutputStream create(Path f, WriteMode overwrite) throws IOException {
        StorageFaults.before("create", localName(f));
        FSDataOutputStream out = local.create(toLocal(f), overwrite);
        return new FSDataOutputStream() {
            @Override
            public long getPos() throws IOException {
                return out.getPos();
            }

            @Override
            public void write(int b) throws IOException {
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void sync() throws IOException {
                out.sync();
            }

            @Override
            public void close() throws IOException {
                out.close();
                StorageFaults.after("close", localName(f));
            }
        };
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        StorageFaults.before("rename", localName(src));
        boolean renamed = local.rename(toLocal(src), toLocal(dst));
        StorageFaults.after("rename", localName(src));
        return renamed;
    }

    @Override
    public boolean isDistributedFS() {
        return false;
    }

    /** Abstract in Flink 1.x, gone in Flink 2: no {@code @Override}, so it compiles on both. */
    public FileSystemKind getKind() {
        return FileSystemKind.FILE_SYSTEM;
    }

    @Override
    public RecoverableWriter createRecoverableWriter() throws IOException {
        return new Writer(local.createRecoverableWriter());
    }

    /** A local status under the {@code faulty} scheme. */
    private static final class Status implements FileStatus {
        final FileStatus local;

        Status(FileStatus local) {
            this.local = local;
        }

        @Override
        public long getLen() {
            return local.getLen();
        }

        @Override
        public long getBlockSize() {
            return local.getBlockSize();
        }

        @Override
        public short getReplication() {
            return local.getReplication();
        }

        @Override
        public long getModificationTime() {
            return local.getModificationTime();
        }

        @Override
        public long getAccessTime() {
            return local.getAccessTime();
        }

        @Override
        public boolean isDir() {
            return local.isDir();
        }

        @Override
        public Path getPath() {
            return toFaulty(local.getPath());
        }
    }

    /** The local recoverable writer, with faults at open, close-for-commit and commit. */
    private static final class Writer implements RecoverableWriter {
        private final RecoverableWriter local;

        Writer(RecoverableWriter local) {
            this.local = local;
        }

        @Override
        public RecoverableFsDataOutputStream open(Path path) throws IOException {
            StorageFaults.before("create", localName(path));
            return new Stream(local.open(toLocal(path)), localName(path));
        }

        @Override
        public RecoverableFsDataOutputStream recover(ResumeRecoverable resumable) throws IOException {
            return new Stream(local.recover(resumable), null);
        }

        @Override
        public boolean requiresCleanupOfRecoverableState() {
            return local.requiresCleanupOfRecoverableState();
        }

        @Override
        public boolean cleanupRecoverableState(ResumeRecoverable resumable) throws IOException {
            return local.cleanupRecoverableState(resumable);
        }

        @Override
        public RecoverableFsDataOutputStream.Committer recoverForCommit(CommitRecoverable recoverable)
                throws IOException {
            return new FaultyCommitter(local.recoverForCommit(recoverable), null);
        }

        @Override
        public SimpleVersionedSerializer<CommitRecoverable> getCommitRecoverableSerializer() {
            return local.getCommitRecoverableSerializer();
        }

        @Override
        public SimpleVersionedSerializer<ResumeRecoverable> getResumeRecoverableSerializer() {
            return local.getResumeRecoverableSerializer();
        }

        @Override
        public boolean supportsResume() {
            return local.supportsResume();
        }
    }

    /** A stream of the recoverable writer; {@code name} null for a recovered one (always in the run). */
    private static final class Stream extends RecoverableFsDataOutputStream {
        private final RecoverableFsDataOutputStream out;
        private final String name;

        Stream(RecoverableFsDataOutputStream out, String name) {
            this.out = out;
            this.name = name;
        }

        @Override
        public RecoverableWriter.ResumeRecoverable persist() throws IOException {
            return out.persist();
        }

        @Override
        public RecoverableFsDataOutputStream.Committer closeForCommit() throws IOException {
            StorageFaults.before("close", name);
            RecoverableFsDataOutputStream.Committer committer = out.closeForCommit();
            StorageFaults.after("close", name);
            return new FaultyCommitter(committer, name);
        }

        @Override
        public void close() throws IOException {
            out.close();
        }

        @Override
        public long getPos() throws IOException {
            return out.getPos();
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void sync() throws IOException {
            out.sync();
        }
    }

    /** Publishes a file: the rename of a recoverable writer. */
    private static final class FaultyCommitter implements RecoverableFsDataOutputStream.Committer {
        private final RecoverableFsDataOutputStream.Committer committer;
        private final String name;

        FaultyCommitter(RecoverableFsDataOutputStream.Committer committer, String name) {
            this.committer = committer;
            this.name = name;
        }

        @Override
        public void commit() throws IOException {
            StorageFaults.before("commit", name);
            committer.commit();
            StorageFaults.after("commit", name);
        }

        @Override
        public void commitAfterRecovery() throws IOException {
            StorageFaults.before("commit", name);
            committer.commitAfterRecovery();
            StorageFaults.after("commit", name);
        }

        @Override
        public RecoverableWriter.CommitRecoverable getRecoverable() {
            return committer.getRecoverable();
        }
    }
}
