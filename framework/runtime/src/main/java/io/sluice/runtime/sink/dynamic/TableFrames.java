package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.state.Envelope;
import io.sluice.spi.Payload;

import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.Objects;

/**
 * The frame that tags a target's envelope (its writer state or a pending commit) with the {@link
 * WriteTarget} it belongs to, so that the framework's writer state and committables, whose
 * serializers know nothing of tables, carry a dynamic sink's many tables unchanged: a framed
 * envelope is an envelope of the framework's own extension {@value #EXTENSION} whose payload
 * holds the write target and the target's envelope.
 *
 * <p>Version 1: the write target ({@link WriteTarget#write}), then the target's envelope ({@link
 * Envelope#write}).
 */
public final class TableFrames {

    /** The extension of a framed envelope: no plugin's extension may be named so. */
    public static final String EXTENSION = "sluice.dynamic-table";

    /** The plugin id of a framed envelope: the framework's. */
    public static final String FRAMEWORK = "sluice";

    static final int VERSION = 1;

    private TableFrames() {}

    /** An envelope of the target, framed with its write target. */
    public static Envelope frame(WriteTarget target, Envelope envelope) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(128);
        target.write(out);
        envelope.write(out);
        return new Envelope(FRAMEWORK, EXTENSION, new Payload(VERSION, out.getCopyOfBuffer()));
    }

    /** Whether an envelope is a frame of this class. */
    public static boolean isFrame(Envelope envelope) {
        return FRAMEWORK.equals(envelope.pluginId()) && EXTENSION.equals(envelope.extension());
    }

    /** A framed envelope's write target and the target's envelope. */
    public static Framed unframe(Envelope envelope, WriteTarget.TypeCache types) throws IOException {
        if (!isFrame(envelope)) {
            throw new IllegalStateException("State of extension '" + envelope.extension() + "' of plugin '"
                    + envelope.pluginId() + "' is not a dynamic sink's: restore a dynamic sink from a dynamic"
                    + " sink's state, or start without state");
        }
        Payload payload = envelope.payload();
        if (payload.version() != VERSION) {
            throw new IOException("Cannot read a dynamic sink's table frame of version " + payload.version()
                    + ": this build reads version " + VERSION + ". Was the state written by a newer Sluice?");
        }
        DataInputDeserializer in = new DataInputDeserializer(payload.bytes());
        WriteTarget target = WriteTarget.read(in, types);
        Envelope inner = Envelope.read(in);
        if (in.available() != 0) {
            throw new IOException("A dynamic sink's table frame of " + payload.bytes().length + " bytes has "
                    + in.available() + " bytes left over: the state is damaged");
        }
        return new Framed(target, inner);
    }

    /** A write target and the target's envelope of it. */
    public static final class Framed {
        private final WriteTarget target;
        private final Envelope envelope;

        Framed(WriteTarget target, Envelope envelope) {
            this.target = Objects.requireNonNull(target);
            this.envelope = Objects.requireNonNull(envelope);
        }

        public WriteTarget target() {
            return target;
        }

        public Envelope envelope() {
            return envelope;
        }
    }
}
