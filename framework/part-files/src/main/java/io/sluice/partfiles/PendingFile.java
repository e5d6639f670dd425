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
 *   <li>Version 4 (written): the final path, whether the file was opened after its writer's last
 *       snapshot (so no snapshot refers to it: {@link #openedAfterSnapshot}), then the recoverable
 *       as in version 2. Version 3 is taken: {@link ObsoleteResumable}, whose payloads travel beside
 *       these.
 *   <li>Version 2: the final path, then the recoverable framed by Flink's {@link
 *       SimpleVersionedSerialization} with the file system's commit recoverable serializer. Written
 *       back as it was read.
 *   <li>Version 1: the recoverable only, framed the same. Still written for a file resumed from a
 *       version 1 writer state, whose path is unknown ({@link FileWriterState}).
 * </ul>
 */
final class PendingFile {

    static final int VERSION = 4;

    private final int version;
    private final Path path; // null for version 1
    private final boolean openedAfterSnapshot;
    private final RecoverableWriter.CommitRecoverable recoverable;

    /**
     * A file a writer has just finished.
     *
     * @param openedAfterSnapshot whether the writer opened it after its last snapshot: then no
     *     snapshot refers to it, and a job that fails for good may delete it ({@link
     *     FileTargetCommitter#discard})
     */
    PendingFile(Path path, RecoverableWriter.CommitRecoverable recoverable, boolean openedAfterSnapshot) {
        this(path == null ? 1 : VERSION, path, recoverable, openedAfterSnapshot);
    }

    private PendingFile(
            int version, Path path, RecoverableWriter.CommitRecoverable recoverable, boolean openedAfterSnapshot) {
        this.version = version;
        this.path = path;
        this.recoverable = recoverable;
        this.openedAfterSnapshot = openedAfterSnapshot;
    }

    /** Where the file is published; null if it was written by a version that did not record it. */
    Path path() {
        return path;
    }

    RecoverableWriter.CommitRecoverable recoverable() {
        return recoverable;
    }

    /** Whether no snapshot of its writer refers to the file; false when its version did not record it. */
    boolean openedAfterSnapshot() {
        return openedAfterSnapshot;
    }

    Payload toPayload(RecoverableWriter fsWriter) throws IOException {
        SimpleVersionedSerializer<RecoverableWriter.CommitRecoverable> serializer =
                fsWriter.getCommitRecoverableSerializer();
        DataOutputSerializer out = new DataOutputSerializer(192);
        if (version != 1) {
            out.writeUTF(path.toString());
        }
        if (version == VERSION) {
            out.writeBoolean(openedAfterSnapshot);
        }
        SimpleVersionedSerialization.writeVersionAndSerialize(serializer, recoverable, out);
        return new Payload(version, out.getCopyOfBuffer());
    }

    /** Where the pending file of a payload is published; null for payloads that do not record it. */
    static Path pathOf(Payload payload) throws IOException {
        return payload.version() == 2 || payload.version() == VERSION
                ? new Path(new DataInputDeserializer(payload.bytes()).readUTF())
                : null;
    }

    static PendingFile of(Payload payload, RecoverableWriter fsWriter) throws IOException {
        SimpleVersionedSerializer<RecoverableWriter.CommitRecoverable> serializer =
                fsWriter.getCommitRecoverableSerializer();
        DataInputDeserializer in = new DataInputDeserializer(payload.bytes());
        switch (payload.version()) {
            case 1:
                return new PendingFile(
                        1, null, SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, in), false);
            case 2:
                Path path = new Path(in.readUTF());
                return new PendingFile(
                        2, path, SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, in), false);
            case VERSION:
                Path published = new Path(in.readUTF());
                boolean openedAfterSnapshot = in.readBoolean();
                return new PendingFile(
                        VERSION,
                        published,
                        SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, in),
                        openedAfterSnapshot);
            default:
                throw new IOException("Cannot read a filesystem target pending file of version " + payload.version()
                        + ": this plugin reads versions 1, 2 and 4 (and " + ObsoleteResumable.VERSION
                        + ", the state of an"
                        + " in-progress file to remove). Was the state written by a newer filesystem plugin?"
                        + " Restore it with that version, or start without state.");
        }
    }

    /** Publishes the file under its final name; a no-op if that already happened. */
    void commit(RecoverableWriter fsWriter) throws IOException {
        fsWriter.recoverForCommit(recoverable).commitAfterRecovery();
    }
}
