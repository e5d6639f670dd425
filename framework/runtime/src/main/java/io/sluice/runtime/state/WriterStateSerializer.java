package io.sluice.runtime.state;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Serializes {@link WriterState}. Version 1 (the only one so far): the count, then the envelopes
 * ({@link Envelope}; each target writer's payload keeps its own version inside).
 */
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
        switch (version) {
            case 1:
                return readVersion1(new DataInputDeserializer(serialized));
            default:
                throw new IOException("Cannot read a Sluice writer state of version " + version + ": this build reads"
                        + " version 1. Was the state written by a newer Sluice? Restore it with that version, or start"
                        + " without state.");
        }
    }

    private static WriterState readVersion1(DataInputDeserializer in) throws IOException {
        int n = in.readInt();
        List<Envelope> envelopes = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            envelopes.add(Envelope.read(in));
        }
        return new WriterState(envelopes);
    }
}
