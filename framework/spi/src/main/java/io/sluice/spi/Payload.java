package io.sluice.spi;

import java.util.Arrays;
import java.util.Objects;

/**
 * Bytes a plugin hands to the framework to keep: writer state or a pending commit.
 *
 * <p>The plugin owns the format of the bytes and its versioning. The framework stores the version
 * next to the bytes and gives both back on restore, so a plugin can read every version it ever
 * wrote.
 */
public final class Payload {

    private final int version;
    private final byte[] bytes;

    /**
     * @param version the plugin's serialization version of {@code bytes}
     * @param bytes the serialized state, owned by the payload from now on
     */
    public Payload(int version, byte[] bytes) {
        this.version = version;
        this.bytes = Objects.requireNonNull(bytes, "bytes");
    }

    /** The plugin's serialization version of the bytes. */
    public int version() {
        return version;
    }

    /** The serialized state; callers must not modify it. */
    public byte[] bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Payload)) {
            return false;
        }
        Payload that = (Payload) o;
        return version == that.version && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return 31 * version + Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "Payload{version=" + version + ", " + bytes.length + " bytes}";
    }
}
