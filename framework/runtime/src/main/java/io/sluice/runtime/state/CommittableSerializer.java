package io.sluice.runtime.state;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * Serializes {@link Committable}s: the committer's state, the aggregator's pending handovers, and
 * what travels from the writers to the committer. Reads every version it ever wrote; envelopes
 * (the targets' payloads) are the same in all of them ({@link Envelope}).
 *
 * <ul>
 *   <li>Version 3 (written): checkpoint id, job id, operator id, epoch; the entries ({@link
 *       #writeEntries}); the compaction units (each the bucket id, the count and its input
 *       envelopes); the count and names of the due partitions.
 *   <li>Version 2, two layouts under one number: the same as version 3 (since the epoch came, 2026-11-29,
 *       12ea2f7), or without the epoch (26cf8fe, before). Told apart by reading the bytes both ways:
 *       see {@link #readVersion2}. Version 3 exists so that no new bytes need that.
 *   <li>Version 1, two layouts under one number: checkpoint id, then the count and per entry the
 *       envelope, a partition flag and value, and the partition creation time; then the count and
 *       names of the due partitions (8d5cec3), which the first layout (072b437) did not have and
 *       which are then simply absent at the end of the bytes. Version 1 committables have no job id,
 *       operator id or epoch (empty, as a writer's), no sizes (-1: unknown) and nothing for
 *       compaction.
 * </ul>
 */
public final class CommittableSerializer implements SimpleVersionedSerializer<Committable> {

    public static final int VERSION = 3;

    /** The length of an epoch ({@link UUID#toString()}), the only non-empty kind ever written. */
    private static final int EPOCH_LENGTH = 36;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(Committable c) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        out.writeLong(c.checkpointId());
        out.writeUTF(c.jobId());
        out.writeUTF(c.operatorId());
        out.writeUTF(c.epoch());
        writeEntries(c.entries(), out);
        out.writeInt(c.compactions().size());
        for (Committable.Unit u : c.compactions()) {
            out.writeUTF(u.bucketId());
            out.writeInt(u.inputs().size());
            for (Envelope e : u.inputs()) {
                e.write(out);
            }
        }
        out.writeInt(c.duePartitions().size());
        for (String partition : c.duePartitions()) {
            out.writeUTF(partition);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public Committable deserialize(int version, byte[] serialized) throws IOException {
        switch (version) {
            case 1:
                return readVersion1(new DataInputDeserializer(serialized));
            case 2:
                return readVersion2(serialized);
            case 3:
                return read(new DataInputDeserializer(serialized), true);
            default:
                throw new IOException("Cannot read a Sluice committable of version " + version + ": this build reads"
                        + " versions 1 to " + VERSION + ". Was the state written by a newer Sluice? Restore it with"
                        + " that version, or start without state.");
        }
    }

    private static Committable readVersion1(DataInputDeserializer in) throws IOException {
        long checkpointId = in.readLong();
        int n = in.readInt();
        List<Committable.Entry> entries = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Envelope envelope = Envelope.read(in);
            String partition = in.readBoolean() ? in.readUTF() : null;
            long creation = in.readLong();
            entries.add(new Committable.Entry(envelope, partition, creation, -1, false));
        }
        // the first layout of version 1 ended here; the second always writes the count, also 0
        List<String> due = in.available() == 0 ? new ArrayList<>() : readStrings(in);
        return new Committable(checkpointId, "", "", "", entries, Collections.emptyList(), due);
    }

    /**
     * Version 2 was written with and without the epoch. The bytes are read with the epoch first
     * (the layout of most version 2 bytes), then without; a reading must use up the bytes exactly,
     * and its epoch must be empty or a UUID. Bytes without the epoch cannot pass the first reading:
     * its epoch takes the first two bytes of their entry count, which are zero (the epoch is empty)
     * for fewer than 65,536 entries, and from there every field is read two bytes late: the entry
     * count becomes the count's low half times 65,536 plus two bytes of what follows, so 65,536
     * or more entries of at least 30 bytes each that the bytes are far too short for; with no
     * entries the same happens to the unit count, and with no units either the due-partition
     * count reaches past the end.
     */
    private static Committable readVersion2(byte[] serialized) throws IOException {
        try {
            return readExactly(serialized, true);
        } catch (IOException | RuntimeException withEpoch) {
            try {
                return readExactly(serialized, false);
            } catch (IOException | RuntimeException withoutEpoch) {
                IOException e = new IOException("Cannot read a Sluice committable of version 2 (" + serialized.length
                        + " bytes) with or without an epoch: the state is damaged. With an epoch: " + withEpoch
                        + "; without: " + withoutEpoch);
                e.addSuppressed(withEpoch);
                e.addSuppressed(withoutEpoch);
                throw e;
            }
        }
    }

    private static Committable readExactly(byte[] serialized, boolean withEpoch) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        Committable c = read(in, withEpoch);
        if (in.available() != 0) {
            throw new IOException(in.available() + " bytes left over");
        }
        if (!c.epoch().isEmpty() && c.epoch().length() != EPOCH_LENGTH) {
            throw new IOException("an epoch of " + c.epoch().length() + " characters");
        }
        return c;
    }

    /** Reads the layout of version 3 ({@code withEpoch}) or the older one of version 2. */
    private static Committable read(DataInputView in, boolean withEpoch) throws IOException {
        long checkpointId = in.readLong();
        String jobId = in.readUTF();
        String operatorId = in.readUTF();
        String epoch = withEpoch ? in.readUTF() : "";
        List<Committable.Entry> entries = readEntries(in);
        int units = in.readInt();
        List<Committable.Unit> compactions = new ArrayList<>(Math.min(units, 1024));
        for (int i = 0; i < units; i++) {
            String bucket = in.readUTF();
            int n = in.readInt();
            List<Envelope> inputs = new ArrayList<>(Math.min(n, 1024));
            for (int j = 0; j < n; j++) {
                inputs.add(Envelope.read(in));
            }
            compactions.add(new Committable.Unit(bucket, inputs));
        }
        return new Committable(checkpointId, jobId, operatorId, epoch, entries, compactions, readStrings(in));
    }

    private static List<String> readStrings(DataInputView in) throws IOException {
        int n = in.readInt();
        // capped: a damaged count must fail on the missing bytes, not on the allocation
        List<String> strings = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            strings.add(in.readUTF());
        }
        return strings;
    }

    /**
     * Writes entries: the count, then per entry the envelope, a partition flag and value, the
     * partition creation time, the size and the compaction flag. The layout of the entries of
     * versions 2 and 3, and of the files the aggregator keeps for compaction (its {@code
     * CompactionPlanner}'s state, version 1): a change here is a new version of both.
     */
    public static void writeEntries(List<Committable.Entry> entries, DataOutputView out) throws IOException {
        out.writeInt(entries.size());
        for (Committable.Entry e : entries) {
            e.envelope().write(out);
            out.writeBoolean(e.partition() != null);
            if (e.partition() != null) {
                out.writeUTF(e.partition());
            }
            out.writeLong(e.partitionCreationTime());
            out.writeLong(e.size());
            out.writeBoolean(e.forCompaction());
        }
    }

    /** Reads what {@link #writeEntries} wrote. */
    public static List<Committable.Entry> readEntries(DataInputView in) throws IOException {
        int n = in.readInt();
        List<Committable.Entry> entries = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            Envelope envelope = Envelope.read(in);
            String partition = in.readBoolean() ? in.readUTF() : null;
            long creation = in.readLong();
            long size = in.readLong();
            entries.add(new Committable.Entry(envelope, partition, creation, size, in.readBoolean()));
        }
        return entries;
    }
}
