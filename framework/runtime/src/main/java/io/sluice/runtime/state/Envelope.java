package io.sluice.runtime.state;

import io.sluice.spi.Payload;

import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.util.Objects;

/**
 * A plugin's bytes in the framework's frame: which plugin and extension wrote them, the plugin's
 * serialization version, and the bytes. Flink only ever checkpoints envelopes, never a plugin
 * object, so a task can restore state without the plugin's classes on the job's classpath.
 *
 * <p>Layout (unchanged since the first envelope, so every serializer that holds envelopes reads
 * them the same in all its versions): the plugin id and the extension ({@code writeUTF}), then the
 * payload framed by Flink's {@link SimpleVersionedSerialization}: the plugin's version, the length,
 * the bytes. The framework never interprets the bytes; the plugin reads them by their version.
 */
public final class Envelope {

    private final String pluginId;
    private final String extension;
    private final Payload payload;

    public Envelope(String pluginId, String extension, Payload payload) {
        this.pluginId = Objects.requireNonNull(pluginId);
        this.extension = Objects.requireNonNull(extension);
        this.payload = Objects.requireNonNull(payload);
    }

    public String pluginId() {
        return pluginId;
    }

    public String extension() {
        return extension;
    }

    public Payload payload() {
        return payload;
    }

    /**
     * Checks that this envelope was written by the given plugin extension.
     *
     * @throws IllegalStateException naming both, when they differ
     */
    public Payload payloadFor(String expectedPluginId, String expectedExtension) {
        if (!pluginId.equals(expectedPluginId) || !extension.equals(expectedExtension)) {
            throw new IllegalStateException("State was written by extension '" + extension + "' of plugin '" + pluginId
                    + "', but this job uses '" + expectedExtension + "' of plugin '" + expectedPluginId
                    + "'; restore with the same target or start without state");
        }
        return payload;
    }

    /** Writes the envelope. */
    public void write(DataOutputView out) throws IOException {
        out.writeUTF(pluginId);
        out.writeUTF(extension);
        SimpleVersionedSerialization.writeVersionAndSerialize(new PayloadFrame(payload.version()), payload, out);
    }

    /** Reads an envelope written by {@link #write}. */
    public static Envelope read(DataInputView in) throws IOException {
        String pluginId = in.readUTF();
        String extension = in.readUTF();
        Payload payload = SimpleVersionedSerialization.readVersionAndDeSerialize(PayloadFrame.READING, in);
        return new Envelope(pluginId, extension, payload);
    }

    /**
     * Hands a payload to Flink's framing as it is: the framework does not know the plugin's
     * serializer, only the version the plugin gave with the bytes, and gives both back on read.
     */
    private static final class PayloadFrame implements SimpleVersionedSerializer<Payload> {

        /** For reading: the version comes from the frame, not from here. */
        static final PayloadFrame READING = new PayloadFrame(-1);

        private final int version;

        PayloadFrame(int version) {
            this.version = version;
        }

        @Override
        public int getVersion() {
            return version;
        }

        @Override
        public byte[] serialize(Payload payload) {
            return payload.bytes();
        }

        @Override
        public Payload deserialize(int version, byte[] bytes) {
            return new Payload(version, bytes);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Envelope)) {
            return false;
        }
        Envelope that = (Envelope) o;
        return pluginId.equals(that.pluginId) && extension.equals(that.extension) && payload.equals(that.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(pluginId, extension, payload);
    }

    @Override
    public String toString() {
        return "Envelope{" + pluginId + "/" + extension + ", " + payload + "}";
    }
}
