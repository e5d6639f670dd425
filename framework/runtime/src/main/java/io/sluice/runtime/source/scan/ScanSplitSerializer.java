package io.sluice.runtime.source.scan;

import io.sluice.runtime.state.Envelope;

import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Serializes {@link ScanSourceSplit}s. Version 1 (the only one so far): id, description, the
 * envelope of the plugin's split ({@link Envelope}: the plugin's version inside), then a flag and
 * the reader's position (offset, records after it).
 */
public final class ScanSplitSerializer implements SimpleVersionedSerializer<ScanSourceSplit> {

    public static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(ScanSourceSplit split) throws IOException {
        DataOutputSerializer out =
                new DataOutputSerializer(split.split().payload().bytes().length + 128);
        write(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public ScanSourceSplit deserialize(int version, byte[] serialized) throws IOException {
        switch (version) {
            case 1:
                return read(new DataInputDeserializer(serialized));
            default:
                throw new IOException("Cannot read a Sluice scan split of version " + version + ": this build reads"
                        + " version 1. Was the state written by a newer Sluice? Restore it with that version, or start"
                        + " without state.");
        }
    }

    /** Writes the layout of version 1. */
    private static void write(ScanSourceSplit split, DataOutputView out) throws IOException {
        out.writeUTF(split.splitId());
        out.writeUTF(split.description());
        split.split().write(out);
        CheckpointedPosition position = split.getReaderPosition().orElse(null);
        out.writeBoolean(position != null);
        if (position != null) {
            out.writeLong(position.getOffset());
            out.writeLong(position.getRecordsAfterOffset());
        }
    }

    /** Reads the layout of version 1: also how version 1 of {@link ScanEnumeratorStateSerializer} holds splits. */
    static ScanSourceSplit read(DataInputView in) throws IOException {
        String id = in.readUTF();
        String description = in.readUTF();
        Envelope envelope = Envelope.read(in);
        CheckpointedPosition position =
                in.readBoolean() ? new CheckpointedPosition(in.readLong(), in.readLong()) : null;
        return new ScanSourceSplit(id, description, envelope, position);
    }
}
