package io.sluice.partfiles;

import io.sluice.spi.Payload;

import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;

/**
 * A finished part file waiting for its commit: where it will be published and the file system's
 * commit recoverable. Reads every payload version the plugin ever wrote.
 *
 * <ul>
 *   <li>Version 2 (written): the final path, then the recoverable framed by Flink's {@link
 *       SimpleVersionedSerialization} with the file system's commit recoverable serializer.
 *   <li>Version 1: the recoverable only, framed the same. Still written for a file resumed from a
 *       version 1 writer state, whose path is unknown ({@link FileWriterState}).
 * </ul>
 */
final class PendingFile {

    static final int VERSION = 2;

    private final Path path; // null for version 1
    private final RecoverableWriter.CommitRecoverable recoverable;

    PendingFile(Path path, RecoverableWriter.CommitRecoverable recoverable) {
        this.path = path;
        this.recoverable = recoverable;
    }

    /** Where the file is published; null if it was written by a version that did not record it. */
    Path path() {
        return path;
    }

    RecoverableWriter.CommitRecoverable recoverable() {
        return recoverable;
    }

    Payload toPayload(RecoverableWriter fsWriter) throws IOException {
        SimpleVersionedSerializer<RecoverableWriter.CommitRecoverable> serializer =
                fsWriter.getCommitRecoverableSerializer();
        DataOutputSerializer out = new DataOutputSerializer(192);
        if (path != null) {
            out.writeUTF(path.toString());
        }
        SimpleVersionedSerialization.writeVersionAndSerialize(serializer, recoverable, out);
        return new Payload(path == null ? 1 : VERSION, out.getCopyOfBuffer());
    }

    /** Where the pending file of a payload is published; null for payloads that do not record it. */
    static Path pathOf(Payload payload) throws IOException {
        return payload.version() == VERSION ? new Path(new DataInputDeserializer(payload.bytes()).readUTF()) : null;
    }

    static PendingFile of(Payload payload, RecoverableWriter fsWriter) throws IOException {
        SimpleVersionedSerializer<RecoverableWriter.CommitRecoverable> serializer =
                fsWriter.getCommitRecoverableSerializer();
        DataInputDeserializer in = new DataInputDeserializer(payload.bytes());
        switch (payload.version()) {
            case 1:
                return new PendingFile(null, SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, in));
            case 2:
                Path path = new Path(in.readUTF());
                return new PendingFile(path, SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, in));
            default:
                throw new IOException("Cannot read a filesystem target pending file of version " + payload.version()
                        + ": this plugin reads versions 1 and 2 (and " + ObsoleteResumable.VERSION + ", the state of an"
                        + " in-progress file to remove). Was the state written by a newer filesystem plugin?"
                        + " Restore it with that version, or start without state.");
        }
    }

    /** Publishes the file under its final name; a no-op if that already happened. */
    void commit(RecoverableWriter fsWriter) throws IOException {
        fsWriter.recoverForCommit(recoverable).commitAfterRecovery();
    }
}
