package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.state.Envelope;
import io.sluice.runtime.state.WriterState;
import io.sluice.runtime.state.WriterStateSerializer;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One dynamic writer subtask's state: its table writers' state ({@link WriterState}, framed
 * envelopes) and the starts of the attempts whose table writers opened after the checkpoint may
 * have left files that no state names ({@link Start}).
 */
final class DynamicWriterState {

    /**
     * The start of an attempt of a writer subtask and how many table writers it had opened when a
     * checkpoint was taken: the writers it opened from then on (and all writers of the earlier
     * attempts that began from the same checkpoint) are in no state of that checkpoint, their ids
     * are computed from this after a restore.
     */
    static final class Start {
        final int subtask;
        /** The checkpoint the attempt began from, or empty for a fresh start. */
        final OptionalLong origin;

        final int attempt;
        /** The table writers the attempt had opened when the checkpoint was taken. */
        final int openings;

        Start(int subtask, OptionalLong origin, int attempt, int openings) {
            this.subtask = subtask;
            this.origin = origin;
            this.attempt = attempt;
            this.openings = openings;
        }

        /** The same attempt, with its openings not counted: how it is told apart from others. */
        boolean sameAttempt(Start other) {
            return subtask == other.subtask && origin.equals(other.origin) && attempt == other.attempt;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Start)) {
                return false;
            }
            Start that = (Start) o;
            return sameAttempt(that) && openings == that.openings;
        }

        @Override
        public int hashCode() {
            return Objects.hash(subtask, origin, attempt, openings);
        }

        @Override
        public String toString() {
            return "subtask " + subtask + " attempt " + attempt + " from "
                    + (origin.isPresent() ? "checkpoint " + origin.getAsLong() : "a fresh start") + ", " + openings
                    + " writers opened";
        }
    }

    final WriterState writers;
    final List<Start> starts;

    DynamicWriterState(WriterState writers, List<Start> starts) {
        this.writers = writers;
        this.starts = List.copyOf(starts);
    }

    /**
     * Version 2: the count of starts, each as subtask, origin (-1 for none), attempt and openings,
     * then the writers' state as {@link WriterStateSerializer}'s version 1. Version 1 was that
     * writers' state alone (no starts: leftovers of writers opened after its checkpoint stay).
     */
    static final class Serializer implements SimpleVersionedSerializer<DynamicWriterState> {

        static final int VERSION = 2;

        @Override
        public int getVersion() {
            return VERSION;
        }

        @Override
        public byte[] serialize(DynamicWriterState state) throws IOException {
            DataOutputSerializer out = new DataOutputSerializer(256);
            out.writeInt(state.starts.size());
            for (Start s : state.starts) {
                out.writeInt(s.subtask);
                out.writeLong(s.origin.isPresent() ? s.origin.getAsLong() : -1L);
                out.writeInt(s.attempt);
                out.writeInt(s.openings);
            }
            out.writeInt(state.writers.envelopes().size());
            for (Envelope e : state.writers.envelopes()) {
                e.write(out);
            }
            return out.getCopyOfBuffer();
        }

        @Override
        public DynamicWriterState deserialize(int version, byte[] serialized) throws IOException {
            switch (version) {
                case 1:
                    return new DynamicWriterState(new WriterStateSerializer().deserialize(1, serialized), List.of());
                case 2:
                    return readVersion2(serialized);
                default:
                    throw new IOException("Cannot read a Sluice dynamic writer state of version " + version
                            + ": this build reads versions 1 and 2. Was the state written by a newer Sluice?"
                            + " Restore it with that version, or start without state.");
            }
        }

        private static DynamicWriterState readVersion2(byte[] serialized) throws IOException {
            DataInputDeserializer in = new DataInputDeserializer(serialized);
            int n = in.readInt();
            List<Start> starts = new ArrayList<>(Math.min(n, 1024));
            for (int i = 0; i < n; i++) {
                int subtask = in.readInt();
                long origin = in.readLong();
                int attempt = in.readInt();
                int openings = in.readInt();
                starts.add(new Start(
                        subtask, origin < 0 ? OptionalLong.empty() : OptionalLong.of(origin), attempt, openings));
            }
            int count = in.readInt();
            List<Envelope> envelopes = new ArrayList<>(Math.min(count, 1024));
            for (int i = 0; i < count; i++) {
                envelopes.add(Envelope.read(in));
            }
            return new DynamicWriterState(new WriterState(envelopes), starts);
        }
    }
}
