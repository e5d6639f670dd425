package io.sluice.plugin.filesystem;

import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.Payload;
import io.sluice.spi.sink.TargetCommitter;

import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.memory.DataInputDeserializer;

import java.io.IOException;

/**
 * Publishes pending part files. The final name of every file is fixed when it is written, and the
 * file system's {@code commitAfterRecovery} succeeds without change when the file is already in
 * place, so a retried commit is a no-op rather than a duplicate.
 */
final class FileTargetCommitter implements TargetCommitter {

    private final RecoverableWriter fsWriter;

    FileTargetCommitter(RecoverableWriter fsWriter) {
        this.fsWriter = fsWriter;
    }

    @Override
    public void commit(CommitRequest request) throws IOException {
        for (Payload p : request.pending()) {
            if (p.version() != FileTargetWriter.PENDING_VERSION) {
                throw new IOException("Unknown filesystem pending-file version " + p.version());
            }
            DataInputDeserializer in = new DataInputDeserializer(p.bytes());
            int version = in.readInt();
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            RecoverableWriter.CommitRecoverable recoverable =
                    fsWriter.getCommitRecoverableSerializer().deserialize(version, bytes);
            fsWriter.recoverForCommit(recoverable).commitAfterRecovery();
        }
    }
}
