package io.sluice.partfiles;

import io.sluice.spi.Payload;

import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;

/**
 * What resumed an in-progress file at one checkpoint, superseded by the next one (which persisted
 * the file again or finished it). File systems whose recoverable writer {@linkplain
 * RecoverableWriter#requiresCleanupOfRecoverableState() keeps such state apart from the file}
 * (S3's multipart uploads keep the bytes of an unfinished part as an object of their own) need it
 * removed, or it stays forever. It travels to the committer as a pending payload of its own
 * version ({@link #VERSION}) and is removed when the checkpoint after the one that persisted it
 * completes: from then on no restore can ask for it. Local and Hadoop file systems need nothing
 * removed and never get one.
 *
 * <p>Version 3 of the pending payloads (1 and 2 are {@link PendingFile}s): the resume recoverable,
 * framed by Flink's {@link SimpleVersionedSerialization} with the file system's serializer.
 */
final class ObsoleteResumable {

    static final int VERSION = 3;

    private final RecoverableWriter.ResumeRecoverable resumable;

    ObsoleteResumable(RecoverableWriter.ResumeRecoverable resumable) {
        this.resumable = resumable;
    }

    static boolean isOne(Payload payload) {
        return payload.version() == VERSION;
    }

    RecoverableWriter.ResumeRecoverable resumable() {
        return resumable;
    }

    Payload toPayload(RecoverableWriter fsWriter) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(128);
        SimpleVersionedSerialization.writeVersionAndSerialize(
                fsWriter.getResumeRecoverableSerializer(), resumable, out);
        return new Payload(VERSION, out.getCopyOfBuffer());
    }

    static ObsoleteResumable of(Payload payload, RecoverableWriter fsWriter) throws IOException {
        if (payload.version() != VERSION) {
            throw new IOException(
                    "Not the recoverable state of an in-progress file: pending payload version " + payload.version());
        }
        DataInputDeserializer in = new DataInputDeserializer(payload.bytes());
        return new ObsoleteResumable(
                SimpleVersionedSerialization.readVersionAndDeSerialize(fsWriter.getResumeRecoverableSerializer(), in));
    }
}
