package io.sluice.runtime.source.file;

import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.FileSourceSplitSerializer;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Serializes {@link EnumeratorState}, the file source's enumerator checkpoint. Reads every version
 * it ever wrote.
 *
 * <ul>
 *   <li>Version 2 (written): the count of pending splits, each framed by Flink's {@link
 *       SimpleVersionedSerialization} with {@link FileSourceSplitSerializer} (its version with
 *       every split); then a flag and the seen files: lookback, watermark, the count and per recent
 *       file its path and modification time, sorted by path (so equal states give equal bytes).
 *   <li>Version 1: {@link FileSourceSplitSerializer}'s version once, the count and per pending
 *       split its length and bytes; then the seen files as in version 2, in no particular order.
 * </ul>
 */
public final class EnumeratorStateSerializer implements SimpleVersionedSerializer<EnumeratorState> {

    public static final int VERSION = 2;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(EnumeratorState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(1024);
        out.writeInt(state.pendingSplits().size());
        for (FileSourceSplit split : state.pendingSplits()) {
            SimpleVersionedSerialization.writeVersionAndSerialize(FileSourceSplitSerializer.INSTANCE, split, out);
        }
        writeSeen(state.seen(), out);
        return out.getCopyOfBuffer();
    }

    @Override
    public EnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        switch (version) {
            case 1:
                return readVersion1(in);
            case 2:
                return readVersion2(in);
            default:
                throw new IOException("Cannot read a Sluice file source enumerator state of version " + version
                        + ": this build reads versions 1 and 2. Was the state written by a newer Sluice? Restore it"
                        + " with that version, or start without state.");
        }
    }

    private static EnumeratorState readVersion1(DataInputView in) throws IOException {
        int splitVersion = in.readInt();
        int n = in.readInt();
        List<FileSourceSplit> pending = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            pending.add(FileSourceSplitSerializer.INSTANCE.deserialize(splitVersion, bytes));
        }
        return new EnumeratorState(pending, readSeen(in));
    }

    private static EnumeratorState readVersion2(DataInputView in) throws IOException {
        int n = in.readInt();
        List<FileSourceSplit> pending = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            pending.add(SimpleVersionedSerialization.readVersionAndDeSerialize(FileSourceSplitSerializer.INSTANCE, in));
        }
        return new EnumeratorState(pending, readSeen(in));
    }

    private static void writeSeen(SeenFiles seen, DataOutputView out) throws IOException {
        out.writeBoolean(seen != null);
        if (seen != null) {
            out.writeLong(seen.lookbackMillis());
            out.writeLong(seen.watermark());
            out.writeInt(seen.recent().size());
            for (Map.Entry<String, Long> e : new TreeMap<>(seen.recent()).entrySet()) {
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue());
            }
        }
    }

    /** The seen files, the same in versions 1 and 2; null for a bounded read. */
    private static SeenFiles readSeen(DataInputView in) throws IOException {
        if (!in.readBoolean()) {
            return null;
        }
        long lookback = in.readLong();
        long watermark = in.readLong();
        int m = in.readInt();
        Map<String, Long> recent = new HashMap<>(Math.min(m, 1024) * 2);
        for (int i = 0; i < m; i++) {
            recent.put(in.readUTF(), in.readLong());
        }
        return new SeenFiles(lookback, watermark, recent);
    }
}
