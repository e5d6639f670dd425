package io.sluice.partfiles;

import io.sluice.spi.Payload;

import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The state payload of one {@link FileTargetWriter}. Reads every version the plugin ever wrote.
 *
 * <ul>
 *   <li>Version 3 (written): the writer's uid and part counter; the count and per bucket its id,
 *       creation time, the part counter again, a flag and, for an open file, its path, its
 *       resumable framed by Flink's {@link SimpleVersionedSerialization} with the file system's
 *       resumable serializer, its creation and last update time; then the count and ids of the
 *       buckets the writer opened files in since the snapshot before.
 *   <li>Version 2: the buckets only, as in version 3 (no uid, counter or recent buckets).
 *   <li>Version 1: the buckets as in version 2, but an open file without its path: its final name
 *       is only inside the file system's resumable, which does not tell it.
 * </ul>
 */
final class FileWriterState {

    static final int VERSION = 3;

    @Nullable
    private final String uid; // null before version 3

    private final long partCounter;
    private final List<BucketState> buckets;
    private final List<String> recentBuckets;

    FileWriterState(@Nullable String uid, long partCounter, List<BucketState> buckets, List<String> recentBuckets) {
        this.uid = uid;
        this.partCounter = partCounter;
        this.buckets = buckets;
        this.recentBuckets = recentBuckets;
    }

    /** The uid of the writer that wrote the state; null for versions before 3, which had none. */
    @Nullable
    String uid() {
        return uid;
    }

    /** The writer's part counter (0 before version 3, whose buckets each have it). */
    long partCounter() {
        return partCounter;
    }

    List<BucketState> buckets() {
        return buckets;
    }

    /** The buckets written since the snapshot before (empty before version 3). */
    List<String> recentBuckets() {
        return recentBuckets;
    }

    /** One bucket of the writer and the file open in it, if any. */
    static final class BucketState {
        private final String id;
        private final long creationTime;
        private final long partCounter;

        @Nullable
        private final OpenFile open;

        BucketState(String id, long creationTime, long partCounter, @Nullable OpenFile open) {
            this.id = id;
            this.creationTime = creationTime;
            this.partCounter = partCounter;
            this.open = open;
        }

        String id() {
            return id;
        }

        long creationTime() {
            return creationTime;
        }

        long partCounter() {
            return partCounter;
        }

        @Nullable
        OpenFile open() {
            return open;
        }
    }

    /** A file that was open at the snapshot, to resume. */
    static final class OpenFile {
        @Nullable
        private final Path path; // null for version 1

        private final RecoverableWriter.ResumeRecoverable resumable;
        private final long creationTime;
        private final long lastUpdateTime;

        OpenFile(
                @Nullable Path path,
                RecoverableWriter.ResumeRecoverable resumable,
                long creationTime,
                long lastUpdateTime) {
            this.path = path;
            this.resumable = resumable;
            this.creationTime = creationTime;
            this.lastUpdateTime = lastUpdateTime;
        }

        /** Where the file is published; null in a version 1 state. */
        @Nullable
        Path path() {
            return path;
        }

        RecoverableWriter.ResumeRecoverable resumable() {
            return resumable;
        }

        long creationTime() {
            return creationTime;
        }

        long lastUpdateTime() {
            return lastUpdateTime;
        }
    }

    /** The payload, of version {@link #VERSION}. */
    Payload toPayload(SimpleVersionedSerializer<RecoverableWriter.ResumeRecoverable> resumables) throws IOException {
        if (uid == null) {
            throw new IllegalStateException("A writer state without a uid is never written");
        }
        DataOutputSerializer out = new DataOutputSerializer(256);
        out.writeUTF(uid);
        out.writeLong(partCounter);
        out.writeInt(buckets.size());
        for (BucketState bucket : buckets) {
            out.writeUTF(bucket.id);
            out.writeLong(bucket.creationTime);
            out.writeLong(bucket.partCounter);
            out.writeBoolean(bucket.open != null);
            if (bucket.open != null) {
                out.writeUTF(bucket.open.path.toString());
                SimpleVersionedSerialization.writeVersionAndSerialize(resumables, bucket.open.resumable, out);
                out.writeLong(bucket.open.creationTime);
                out.writeLong(bucket.open.lastUpdateTime);
            }
        }
        out.writeInt(recentBuckets.size());
        for (String id : recentBuckets) {
            out.writeUTF(id);
        }
        return new Payload(VERSION, out.getCopyOfBuffer());
    }

    /** Reads a state payload of any version. */
    static FileWriterState of(
            Payload payload, SimpleVersionedSerializer<RecoverableWriter.ResumeRecoverable> resumables)
            throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(payload.bytes());
        switch (payload.version()) {
            case 1:
                return new FileWriterState(null, 0, readBuckets(in, false, resumables), Collections.emptyList());
            case 2:
                return new FileWriterState(null, 0, readBuckets(in, true, resumables), Collections.emptyList());
            case 3:
                String uid = in.readUTF();
                long counter = in.readLong();
                List<BucketState> buckets = readBuckets(in, true, resumables);
                int n = in.readInt();
                List<String> recent = new ArrayList<>(Math.min(n, 1024));
                for (int i = 0; i < n; i++) {
                    recent.add(in.readUTF());
                }
                return new FileWriterState(uid, counter, buckets, recent);
            default:
                throw new IOException("Cannot read a filesystem target writer state of version " + payload.version()
                        + ": this plugin reads versions 1 to " + VERSION + ". Was the state written by a newer"
                        + " filesystem plugin? Restore it with that version, or start without state.");
        }
    }

    private static List<BucketState> readBuckets(
            DataInputDeserializer in,
            boolean withPath,
            SimpleVersionedSerializer<RecoverableWriter.ResumeRecoverable> resumables)
            throws IOException {
        int n = in.readInt();
        List<BucketState> buckets = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            String id = in.readUTF();
            long creation = in.readLong();
            long counter = in.readLong();
            OpenFile open = null;
            if (in.readBoolean()) {
                Path path = withPath ? new Path(in.readUTF()) : null;
                RecoverableWriter.ResumeRecoverable resumable =
                        SimpleVersionedSerialization.readVersionAndDeSerialize(resumables, in);
                open = new OpenFile(path, resumable, in.readLong(), in.readLong());
            }
            buckets.add(new BucketState(id, creation, counter, open));
        }
        return buckets;
    }
}
