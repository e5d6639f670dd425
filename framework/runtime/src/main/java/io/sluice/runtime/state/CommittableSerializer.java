package io.sluice.runtime.state;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Serializes {@link Committable}. Version 2: checkpoint id, job id, operator id, epoch; the entries (each
 * the envelope, a partition flag and value, the partition creation time, the size and the
 * compaction flag); the compaction units (each the bucket id and its input envelopes); the due
 * partitions.
 */
public final class CommittableSerializer implements SimpleVersionedSerializer<Committable> {

    public static final int VERSION = 2;

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
        if (version != VERSION) {
            throw new IOException("Unknown Sluice committable version " + version + " (this build reads " + VERSION + ")");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        long checkpointId = in.readLong();
        String jobId = in.readUTF();
        String operatorId = in.readUTF();
        String epoch = in.readUTF();
        List<Committable.Entry> entries = readEntries(in);
        int units = in.readInt();
        List<Committable.Unit> compactions = new ArrayList<>(units);
        for (int i = 0; i < units; i++) {
            String bucket = in.readUTF();
            int n = in.readInt();
            List<Envelope> inputs = new ArrayList<>(n);
            for (int j = 0; j < n; j++) {
                inputs.add(Envelope.read(in));
            }
            compactions.add(new Committable.Unit(bucket, inputs));
        }
        int due = in.readInt();
        List<String> duePartitions = new ArrayList<>(due);
        for (int i = 0; i < due; i++) {
            duePartitions.add(in.readUTF());
        }
        return new Committable(checkpointId, jobId, operatorId, epoch, entries, compactions, duePartitions);
    }

    /** Writes entries; also the form of the files the aggregator keeps for compaction. */
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
        List<Committable.Entry> entries = new ArrayList<>(n);
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
