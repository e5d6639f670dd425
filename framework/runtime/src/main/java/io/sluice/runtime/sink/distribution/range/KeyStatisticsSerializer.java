package io.sluice.runtime.sink.distribution.range;

import io.sluice.runtime.sink.distribution.StatisticsType;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bytes of {@link KeyStatistics}, in the shuffle operators' state, the coordinator's checkpoint
 * and the events between them. Every version ever written is read ({@code
 * KeyStatisticsSerializerMigrationTest} keeps bytes of each).
 *
 * <p>Version 1: checkpoint id (long), type (byte: 0 Map, 1 Sketch), rows (long), then for Map the
 * number of keys (int) and per key, in key order, its bytes (int length, bytes) and count (long); for Sketch the
 * sample's size (int) and per entry the key's bytes.
 */
final class KeyStatisticsSerializer implements SimpleVersionedSerializer<KeyStatistics> {

    static final KeyStatisticsSerializer INSTANCE = new KeyStatisticsSerializer();

    private static final int VERSION = 1;
    private static final byte MAP = 0;
    private static final byte SKETCH = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(KeyStatistics statistics) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeLong(statistics.checkpointId());
        out.writeByte(statistics.type() == StatisticsType.MAP ? MAP : SKETCH);
        out.writeLong(statistics.rows());
        if (statistics.type() == StatisticsType.MAP) {
            out.writeInt(statistics.counts().size());
            // in key order: equal statistics, equal bytes
            for (Map.Entry<String, Long> entry : new TreeMap<>(statistics.counts()).entrySet()) {
                writeKey(entry.getKey(), out);
                out.writeLong(entry.getValue());
            }
        } else {
            out.writeInt(statistics.sample().size());
            for (String key : statistics.sample()) {
                writeKey(key, out);
            }
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public KeyStatistics deserialize(int version, byte[] serialized) throws IOException {
        switch (version) {
            case 1:
                return deserializeV1(new DataInputDeserializer(serialized));
            default:
                throw new IOException("Unknown version " + version + " of range statistics (this Sluice reads up to "
                        + VERSION + "): were they written by a newer Sluice?");
        }
    }

    private static KeyStatistics deserializeV1(DataInputDeserializer in) throws IOException {
        long checkpointId = in.readLong();
        byte type = in.readByte();
        long rows = in.readLong();
        int size = in.readInt();
        if (type == MAP) {
            Map<String, Long> counts = new HashMap<>(Math.max(16, size * 2));
            for (int i = 0; i < size; i++) {
                String key = readKey(in);
                counts.put(key, in.readLong());
            }
            return KeyStatistics.ofCounts(checkpointId, counts);
        }
        if (type == SKETCH) {
            List<String> sample = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                sample.add(readKey(in));
            }
            return KeyStatistics.ofSample(checkpointId, rows, sample);
        }
        throw new IOException("Unknown type " + type + " of range statistics");
    }

    private static void writeKey(String key, DataOutputSerializer out) throws IOException {
        byte[] bytes = key.getBytes(StandardCharsets.ISO_8859_1);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static String readKey(DataInputDeserializer in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
