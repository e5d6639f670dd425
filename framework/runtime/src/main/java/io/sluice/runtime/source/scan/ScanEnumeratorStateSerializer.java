package io.sluice.runtime.source.scan;

import io.sluice.runtime.state.Envelope;

import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Serializes {@link ScanEnumeratorState}, the scan source's enumerator checkpoint. Reads every
 * version it ever wrote.
 *
 * <ul>
 *   <li>Version 2 (written): the next split number, the count of pending splits, each framed by
 *       Flink's {@link SimpleVersionedSerialization} with {@link ScanSplitSerializer} (so a new
 *       split version needs no new version here), then a flag and the position's envelope.
 *   <li>Version 1: the same, but the splits without a frame, each as {@link ScanSplitSerializer}
 *       version 1 writes it.
 * </ul>
 */
public final class ScanEnumeratorStateSerializer implements SimpleVersionedSerializer<ScanEnumeratorState> {

    public static final int VERSION = 2;

    private static final ScanSplitSerializer SPLITS = new ScanSplitSerializer();

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
            SimpleVersionedSerialization.writeVersionAndSerialize(SPLITS, split, out);
        }
        out.writeBoolean(state.position() != null);
        if (state.position() != null) {
            state.position().write(out);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public ScanEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        switch (version) {
            case 1:
                return read(in, false);
            case 2:
                return read(in, true);
            default:
                throw new IOException("Cannot read a Sluice scan enumerator state of version " + version + ": this"
                        + " build reads versions 1 and 2. Was the state written by a newer Sluice? Restore it with"
                        + " that version, or start without state.");
        }
    }

    private static ScanEnumeratorState read(DataInputView in, boolean framedSplits) throws IOException {
        long nextSplitNumber = in.readLong();
        int n = in.readInt();
        List<ScanSourceSplit> pending = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            pending.add(
                    framedSplits
                            ? SimpleVersionedSerialization.readVersionAndDeSerialize(SPLITS, in)
                            : ScanSplitSerializer.read(in));
        }
        Envelope position = in.readBoolean() ? Envelope.read(in) : null;
        return new ScanEnumeratorState(pending, position, nextSplitNumber);
    }
}
