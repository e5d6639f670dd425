package io.sluice.runtime.state;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Serializes {@link Committable}. Version 1: checkpoint id, count, then per entry the envelope, a
 * partition flag and value, and the partition creation time; then the count and names of the due
 * partitions.
 */
public final class CommittableSerializer implements SimpleVersionedSerializer<Committable> {

    public static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(Committable c) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        out.writeLong(c.checkpointId());
        out.writeInt(c.entries().size());
        for (Committable.Entry e : c.entries()) {
            e.envelope().write(out);
            out.writeBoolean(e.partition() != null);
            if (e.partition() != null) {
                out.writeUTF(e.partition());
            }
            out.writeLong(e.partitionCreationTime());
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
        int n = in.readInt();
        List<Committable.Entry> entries = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Envelope envelope = Envelope.read(in);
            String partition = in.readBoolean() ? in.readUTF() : null;
            entries.add(new Committable.Entry(envelope, partition, in.readLong()));
        }
        int due = in.readInt();
        List<String> duePartitions = new ArrayList<>(due);
        for (int i = 0; i < due; i++) {
            duePartitions.add(in.readUTF());
        }
        return new Committable(checkpointId, entries, duePartitions);
    }
}
