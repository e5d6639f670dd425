package io.sluice.runtime.source;

import io.sluice.runtime.state.Envelope;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Serializes {@link ScanEnumeratorState}. Version 1: the next split number, the pending splits
 * (each as {@link ScanSplitSerializer} version 1 writes it), then a flag and the position's
 * envelope.
 */
public final class ScanEnumeratorStateSerializer implements SimpleVersionedSerializer<ScanEnumeratorState> {

    public static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(ScanEnumeratorState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(1024);
        out.writeLong(state.nextSplitNumber());
        out.writeInt(state.pendingSplits().size());
        for (ScanSourceSplit split : state.pendingSplits()) {
            ScanSplitSerializer.write(split, out);
        }
        out.writeBoolean(state.position() != null);
        if (state.position() != null) {
            state.position().write(out);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public ScanEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("Unknown Sluice scan enumerator state version " + version);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        long nextSplitNumber = in.readLong();
        int n = in.readInt();
        List<ScanSourceSplit> pending = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            pending.add(ScanSplitSerializer.read(in));
        }
        Envelope position = in.readBoolean() ? Envelope.read(in) : null;
        return new ScanEnumeratorState(pending, position, nextSplitNumber);
    }
}
