package io.sluice.runtime.source;

import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.FileSourceSplitSerializer;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Serializes {@link EnumeratorState}. Version 1: split serializer version, pending splits, then a
 * flag and the seen files (lookback, watermark, path and modification time of each recent file).
 */
public final class EnumeratorStateSerializer implements SimpleVersionedSerializer<EnumeratorState> {

    public static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(EnumeratorState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(1024);
        FileSourceSplitSerializer splits = FileSourceSplitSerializer.INSTANCE;
        out.writeInt(splits.getVersion());
        out.writeInt(state.pendingSplits().size());
        for (FileSourceSplit split : state.pendingSplits()) {
            byte[] bytes = splits.serialize(split);
            out.writeInt(bytes.length);
            out.write(bytes);
        }
        SeenFiles seen = state.seen();
        out.writeBoolean(seen != null);
        if (seen != null) {
            out.writeLong(seen.lookbackMillis());
            out.writeLong(seen.watermark());
            out.writeInt(seen.recent().size());
            for (Map.Entry<String, Long> e : seen.recent().entrySet()) {
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue());
            }
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public EnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("Unknown Sluice source enumerator state version " + version);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int splitVersion = in.readInt();
        int n = in.readInt();
        List<FileSourceSplit> pending = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            pending.add(FileSourceSplitSerializer.INSTANCE.deserialize(splitVersion, bytes));
        }
        SeenFiles seen = null;
        if (in.readBoolean()) {
            long lookback = in.readLong();
            long watermark = in.readLong();
            int m = in.readInt();
            Map<String, Long> recent = new HashMap<>(m * 2);
            for (int i = 0; i < m; i++) {
                recent.put(in.readUTF(), in.readLong());
            }
            seen = new SeenFiles(lookback, watermark, recent);
        }
        return new EnumeratorState(pending, seen);
    }
}
