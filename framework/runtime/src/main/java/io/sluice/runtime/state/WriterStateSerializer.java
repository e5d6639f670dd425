package io.sluice.runtime.state;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Serializes {@link WriterState}. Version 1: count, then envelopes. */
public final class WriterStateSerializer implements SimpleVersionedSerializer<WriterState> {

    public static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(WriterState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        out.writeInt(state.envelopes().size());
        for (Envelope e : state.envelopes()) {
            e.write(out);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public WriterState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("Unknown Sluice writer state version " + version + " (this build reads " + VERSION + ")");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int n = in.readInt();
        List<Envelope> envelopes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            envelopes.add(Envelope.read(in));
        }
        return new WriterState(envelopes);
    }
}
