package io.sluice.plugin.hive;

import io.sluice.spi.Payload;

import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import javax.annotation.Nullable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a streaming read of a Hive table has consumed, in bounded space: an offset in the read's
 * order and the partitions (or files) taken at or after it, each with its key in the order (a
 * partition name, or a time). Anything whose key is below the offset counts as consumed; anything at
 * or above it that is not among the taken is new.
 *
 * <p>After each plan the offset moves up to the newest key taken less the order's lookback (zero
 * for names and partition times: just the newest key's own), and only what lies at or above it is
 * kept. So the position holds the partitions of about the newest time, not every partition the
 * table ever had, and a partition that appears later with a key below the offset is not read: the
 * order's promise, as upstream's.
 *
 * <p>Travels as a {@link Payload} of {@link #VERSION}: the key kind, the offset, the taken entries.
 */
final class StreamingPosition {

    static final int VERSION = 1;

    /** How a key is compared: names as strings, times as milliseconds. */
    enum KeyKind {
        NAME,
        TIME
    }

    private final KeyKind kind;

    @Nullable
    private final Comparable<?> offset; // String or Long; null: from the start of the order

    private final Map<String, Comparable<?>> taken; // name -> key, every key >= offset

    private StreamingPosition(KeyKind kind, @Nullable Comparable<?> offset, Map<String, Comparable<?>> taken) {
        this.kind = kind;
        this.offset = offset;
        this.taken = Collections.unmodifiableMap(taken);
    }

    /** The position before the first plan: at the start offset (inclusive), or the start of the order. */
    static StreamingPosition start(KeyKind kind, @Nullable Comparable<?> startOffset) {
        checkKey(kind, startOffset, true);
        return new StreamingPosition(kind, startOffset, new HashMap<>());
    }

    KeyKind kind() {
        return kind;
    }

    @Nullable
    Comparable<?> offset() {
        return offset;
    }

    /** How many entries above the offset the position keeps. */
    int size() {
        return taken.size();
    }

    /** Whether the partition (or file) of this name and key is yet to be read. */
    boolean isNew(String name, Comparable<?> key) {
        checkKey(kind, key, false);
        return (offset == null || compare(key, offset) >= 0) && !taken.containsKey(name);
    }

    /**
     * The position after also taking {@code newlyTaken} (each {@linkplain #isNew new}): the offset
     * moves to the newest key less {@code lookbackMillis} (times only) if that is higher.
     */
    StreamingPosition after(Map<String, ? extends Comparable<?>> newlyTaken, long lookbackMillis) {
        if (newlyTaken.isEmpty()) {
            return this;
        }
        Map<String, Comparable<?>> all = new HashMap<>(taken);
        Comparable<?> newest = null;
        for (Map.Entry<String, ? extends Comparable<?>> e : newlyTaken.entrySet()) {
            checkKey(kind, e.getValue(), false);
            all.put(e.getKey(), e.getValue());
        }
        for (Comparable<?> key : all.values()) {
            if (newest == null || compare(key, newest) > 0) {
                newest = key;
            }
        }
        Comparable<?> floor = kind == KeyKind.TIME ? Long.valueOf(minus((Long) newest, lookbackMillis)) : newest;
        Comparable<?> newOffset = offset == null || compare(floor, offset) > 0 ? floor : offset;
        all.values().removeIf(key -> compare(key, newOffset) < 0);
        return new StreamingPosition(kind, newOffset, all);
    }

    private static long minus(long a, long b) {
        long r = a - b;
        return ((a ^ b) & (a ^ r)) < 0 ? Long.MIN_VALUE : r;
    }

    /** Compares two keys of one kind (both names or both times). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compare(Comparable<?> a, Comparable<?> b) {
        return ((Comparable) a).compareTo(b);
    }

    private static void checkKey(KeyKind kind, @Nullable Comparable<?> key, boolean nullable) {
        if (key == null) {
            if (!nullable) {
                throw new IllegalArgumentException("A " + kind + " key is required");
            }
            return;
        }
        boolean fits = kind == KeyKind.NAME ? key instanceof String : key instanceof Long;
        if (!fits) {
            throw new IllegalArgumentException(
                    "A " + kind + " key cannot be a " + key.getClass().getSimpleName());
        }
    }

    Payload toPayload() {
        DataOutputSerializer out = new DataOutputSerializer(64 + 32 * taken.size());
        try {
            out.writeByte(kind.ordinal());
            out.writeBoolean(offset != null);
            if (offset != null) {
                writeKey(out, offset);
            }
            out.writeInt(taken.size());
            // sorted, so that equal positions are equal bytes
            for (Map.Entry<String, Comparable<?>> e : new java.util.TreeMap<>(taken).entrySet()) {
                writeString(out, e.getKey());
                if (kind == KeyKind.TIME) {
                    out.writeLong((Long) e.getValue());
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return new Payload(VERSION, out.getCopyOfBuffer());
    }

    static StreamingPosition fromPayload(Payload payload) throws IOException {
        if (payload.version() != VERSION) {
            throw new IOException("Cannot read a Hive streaming position of version " + payload.version()
                    + ": this build reads version " + VERSION);
        }
        DataInputDeserializer in = new DataInputDeserializer(payload.bytes());
        int ordinal = in.readByte();
        if (ordinal < 0 || ordinal >= KeyKind.values().length) {
            throw new IOException("Cannot read a Hive streaming position: unknown key kind " + ordinal);
        }
        KeyKind kind = KeyKind.values()[ordinal];
        Comparable<?> offset = in.readBoolean() ? readKey(in, kind) : null;
        int n = in.readInt();
        Map<String, Comparable<?>> taken = new HashMap<>();
        for (int i = 0; i < n; i++) {
            String name = readString(in);
            taken.put(name, kind == KeyKind.TIME ? Long.valueOf(in.readLong()) : name);
        }
        return new StreamingPosition(kind, offset, taken);
    }

    private void writeKey(DataOutputSerializer out, Comparable<?> key) throws IOException {
        if (kind == KeyKind.TIME) {
            out.writeLong((Long) key);
        } else {
            writeString(out, (String) key);
        }
    }

    private static Comparable<?> readKey(DataInputDeserializer in, KeyKind kind) throws IOException {
        return kind == KeyKind.TIME ? Long.valueOf(in.readLong()) : readString(in);
    }

    // length-prefixed UTF-8: writeUTF stops at 64 KB, a name need not
    private static void writeString(DataOutputSerializer out, String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static String readString(DataInputDeserializer in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException("Cannot read a Hive streaming position: a name of " + length + " bytes");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof StreamingPosition)) {
            return false;
        }
        StreamingPosition that = (StreamingPosition) o;
        return kind == that.kind && Objects.equals(offset, that.offset) && taken.equals(that.taken);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, offset, taken);
    }

    @Override
    public String toString() {
        return "StreamingPosition{" + kind + ", offset=" + offset + ", taken=" + taken.size() + "}";
    }
}
