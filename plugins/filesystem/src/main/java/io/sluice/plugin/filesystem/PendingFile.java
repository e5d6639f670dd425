package io.sluice.plugin.filesystem;

import io.sluice.spi.Payload;

import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;

/**
 * A finished part file waiting for its commit: where it will be published and the file system's
 * commit recoverable. Payload version 2: the final path, then the recoverable's serializer version,
 * length and bytes (version 1 had no path).
 */
final class PendingFile {

    static final int VERSION = 2;

    private final Path path; // null for version 1
    private final RecoverableWriter.CommitRecoverable recoverable;

    PendingFile(Path path, RecoverableWriter.CommitRecoverable recoverable) {
        this.path = path;
        this.recoverable = recoverable;
    }

    Path path() {
        return path;
    }

    RecoverableWriter.CommitRecoverable recoverable() {
        return recoverable;
    }

    Payload toPayload(RecoverableWriter fsWriter) throws IOException {
        SimpleVersionedSerializer<RecoverableWriter.CommitRecoverable> serializer = fsWriter.getCommitRecoverableSerializer();
        DataOutputSerializer out = new DataOutputSerializer(192);
        out.writeUTF(path.toString());
        out.writeInt(serializer.getVersion());
        byte[] bytes = serializer.serialize(recoverable);
        out.writeInt(bytes.length);
        out.write(bytes);
        return new Payload(VERSION, out.getCopyOfBuffer());
    }

    static PendingFile of(Payload payload, RecoverableWriter fsWriter) throws IOException {
        if (payload.version() != 1 && payload.version() != VERSION) {
            throw new IOException("Unknown filesystem pending-file version " + payload.version());
        }
        DataInputDeserializer in = new DataInputDeserializer(payload.bytes());
        Path path = payload.version() == 1 ? null : new Path(in.readUTF());
        int version = in.readInt();
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return new PendingFile(path, fsWriter.getCommitRecoverableSerializer().deserialize(version, bytes));
    }

    /** Publishes the file under its final name; a no-op if that already happened. */
    void commit(RecoverableWriter fsWriter) throws IOException {
        fsWriter.recoverForCommit(recoverable).commitAfterRecovery();
    }
}
