package io.sluice.partfiles.testing;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.fs.local.LocalFileSystem;
import org.apache.flink.core.fs.local.LocalRecoverableWriter;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The local file system under the scheme {@value #SCHEME}, whose recoverable writer says, as S3's
 * does, that a persisted in-progress file's state must be removed once no checkpoint needs it.
 * It records what it is asked to remove ({@link #removed}) and removes nothing: locally that state
 * is the in-progress file itself.
 */
public final class CleanupRecordingFileSystem extends LocalFileSystem {

    public static final String SCHEME = "cleanup-recording";

    /** The local resumables' descriptions ({@link #describe}) of every state removed, in order. */
    private static final List<String> REMOVED = Collections.synchronizedList(new ArrayList<>());

    public static List<String> removed() {
        synchronized (REMOVED) {
            return new ArrayList<>(REMOVED);
        }
    }

    public static void forget() {
        REMOVED.clear();
    }

    /** A local resumable's own description: {@code LocalRecoverable <temp file> @ <offset> -> <target>}. */
    public static String describe(RecoverableWriter.ResumeRecoverable resumable) {
        return resumable.toString();
    }

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    @Override
    public LocalRecoverableWriter createRecoverableWriter() {
        return new LocalRecoverableWriter(this) {
            @Override
            public boolean requiresCleanupOfRecoverableState() {
                return true;
            }

            @Override
            public boolean cleanupRecoverableState(ResumeRecoverable resumable) {
                REMOVED.add(describe(resumable));
                return true;
            }
        };
    }

    /** Registered through {@code META-INF/services} of the tests. */
    public static final class Factory implements FileSystemFactory {
        @Override
        public String getScheme() {
            return SCHEME;
        }

        @Override
        public FileSystem create(URI fsUri) {
            return new CleanupRecordingFileSystem();
        }
    }
}
