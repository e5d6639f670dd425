package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.state.Envelope;
import io.sluice.runtime.state.WriterState;
import io.sluice.runtime.state.WriterStateSerializer;
import io.sluice.spi.Payload;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.testshared.CheckedInBytes;

import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The dynamic sink's frames of every version stay readable: its writers' state and its
 * committables hold {@link TableFrames} (version 1), and rows in flight in an unaligned checkpoint
 * are {@link RoutedRowSerializer}'s (its first layout); an element of its writers' operator state is
 * a {@link DynamicWriterState} (version 2; version 1 was a {@link WriterState} alone). {@code
 * dynamic-sink-migration/<scenario>/v<n>} was written by the commit that added version n.
 */
class DynamicSinkMigrationTest {

    private static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(true, 20)}, new String[] {"id", "name"});

    private static final WriteTarget UPSERT =
            new WriteTarget("db.orders", "audit", 3, 1, ROW, List.of("bucket(16, id)"), true, List.of("id"));
    private static final WriteTarget SCHEMALESS =
            new WriteTarget("events/2026", null, -1, 0, ROW, List.of("identity(name)"), null, List.of());

    private static final Envelope INNER =
            new Envelope("iceberg", "iceberg", new Payload(7, "target bytes".getBytes(StandardCharsets.UTF_8)));

    private static byte[] frame(WriteTarget target) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(128);
        TableFrames.frame(target, INNER).write(out);
        return out.getCopyOfBuffer();
    }

    private static byte[] routed(RoutedRow row) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(128);
        new RoutedRowSerializer().serialize(row, out);
        return out.getCopyOfBuffer();
    }

    private static RoutedRow shuffled() {
        return new RoutedRow(UPSERT, GenericRowData.of(42L, StringData.fromString("forty-two")), 3);
    }

    private static RoutedRow pending() {
        return RoutedRow.pending(SCHEMALESS, GenericRowData.of(7L, null), DistributionMode.HASH, 2);
    }

    @Test
    void tableFramesOfVersion1ReadToTheirTargetAndEnvelope() throws IOException {
        for (WriteTarget expected : List.of(UPSERT, SCHEMALESS)) {
            String scenario = expected == UPSERT ? "upsert-frame" : "schemaless-frame";
            byte[] checkedIn = CheckedInBytes.read(resource(scenario));
            Envelope framed = Envelope.read(new DataInputDeserializer(checkedIn));
            assertThat(TableFrames.isFrame(framed)).isTrue();
            TableFrames.Framed read = TableFrames.unframe(framed, new WriteTarget.TypeCache());
            assertThat(read.target()).isEqualTo(expected);
            assertThat(read.target().upsert()).isEqualTo(expected.upsert());
            assertThat(read.envelope().pluginId()).isEqualTo("iceberg");
            assertThat(read.envelope().payload()).isEqualTo(INNER.payload());
            assertThat(frame(expected)).as("the current layout").isEqualTo(checkedIn);
        }
    }

    @Test
    void routedRowsOfTheFirstLayoutRead() throws IOException {
        RoutedRow shuffled = new RoutedRowSerializer()
                .deserialize(new DataInputDeserializer(CheckedInBytes.read(resource("shuffled-row"))));
        assertThat(shuffled.target()).isEqualTo(UPSERT);
        assertThat(shuffled.writer()).isEqualTo(3);
        RowData row = shuffled.row();
        assertThat(row.getLong(0)).isEqualTo(42L);
        assertThat(row.getString(1).toString()).isEqualTo("forty-two");
        RoutedRow pending = new RoutedRowSerializer()
                .deserialize(new DataInputDeserializer(CheckedInBytes.read(resource("pending-row"))));
        assertThat(pending.isPending()).isTrue();
        assertThat(pending.mode()).isEqualTo(DistributionMode.HASH);
        assertThat(pending.writeParallelism()).isEqualTo(2);
        assertThat(pending.row().isNullAt(1)).isTrue();
        assertThat(routed(shuffled())).isEqualTo(CheckedInBytes.read(resource("shuffled-row")));
        assertThat(routed(pending())).isEqualTo(CheckedInBytes.read(resource("pending-row")));
    }

    @Test
    void anEnvelopeOfAnotherExtensionOrAnUnknownVersionIsAnError() {
        assertThatThrownBy(() -> TableFrames.unframe(INNER, new WriteTarget.TypeCache()))
                .hasMessageContaining("is not a dynamic sink's");
        Envelope future = new Envelope(TableFrames.FRAMEWORK, TableFrames.EXTENSION, new Payload(2, new byte[0]));
        assertThatThrownBy(() -> TableFrames.unframe(future, new WriteTarget.TypeCache()))
                .hasMessageContaining("table frame of version 2")
                .hasMessageContaining("reads version 1");
    }

    /** An element of the writers' operator state: one subtask's, as {@link DynamicWriterOperator} writes it. */
    private static DynamicWriterState writerState() throws IOException {
        return new DynamicWriterState(
                new WriterState(List.of(TableFrames.frame(UPSERT, INNER), TableFrames.frame(SCHEMALESS, INNER))),
                List.of(
                        new DynamicWriterState.Start(3, OptionalLong.of(12), 1, 4),
                        new DynamicWriterState.Start(0, OptionalLong.empty(), 2, 0)));
    }

    @Test
    void writerStatesOfVersion1ReadWithoutStartsAndOfVersion2WithThem() throws IOException {
        DynamicWriterState v1 = SimpleVersionedSerialization.readVersionAndDeSerialize(
                new DynamicWriterState.Serializer(), CheckedInBytes.read(writerStateResource(1)));
        assertThat(v1.starts).as("version 1 knew no attempt starts").isEmpty();
        assertThat(targets(v1)).containsExactly(UPSERT, SCHEMALESS);

        DynamicWriterState v2 = SimpleVersionedSerialization.readVersionAndDeSerialize(
                new DynamicWriterState.Serializer(), CheckedInBytes.read(writerStateResource(2)));
        assertThat(v2.starts).isEqualTo(writerState().starts);
        assertThat(v2.starts.get(0).origin).hasValue(12);
        assertThat(v2.starts.get(1).origin).isEmpty();
        assertThat(targets(v2)).containsExactly(UPSERT, SCHEMALESS);
        assertThat(SimpleVersionedSerialization.writeVersionAndSerialize(
                        new DynamicWriterState.Serializer(), writerState()))
                .as("the current layout")
                .isEqualTo(CheckedInBytes.read(writerStateResource(2)));
    }

    @Test
    void aWriterStateOfAnUnknownVersionIsAnError() {
        assertThatThrownBy(() -> new DynamicWriterState.Serializer().deserialize(3, new byte[0]))
                .hasMessageContaining("dynamic writer state of version 3")
                .hasMessageContaining("versions 1 and 2");
    }

    private static List<WriteTarget> targets(DynamicWriterState state) throws IOException {
        List<WriteTarget> targets = new java.util.ArrayList<>();
        for (Envelope e : state.writers.envelopes()) {
            TableFrames.Framed framed = TableFrames.unframe(e, new WriteTarget.TypeCache());
            assertThat(framed.envelope().payload()).isEqualTo(INNER.payload());
            targets.add(framed.target());
        }
        return targets;
    }

    private static String writerStateResource(int version) {
        return "dynamic-sink-migration/writer-state/v" + version + ".b64";
    }

    /** Checks in the bytes of the current layouts (run with -Dsluice.migration.write=true). */
    @Test
    @EnabledIfSystemProperty(named = CheckedInBytes.WRITE_PROPERTY, matches = "true")
    void writeCurrentVersion() throws IOException {
        CheckedInBytes.write(resource("upsert-frame"), frame(UPSERT));
        CheckedInBytes.write(resource("schemaless-frame"), frame(SCHEMALESS));
        CheckedInBytes.write(resource("shuffled-row"), routed(shuffled()));
        CheckedInBytes.write(resource("pending-row"), routed(pending()));
        if (!CheckedInBytes.exists(writerStateResource(1))) {
            // version 1 was the writers' state alone, as the single-table sink's writers keep it
            CheckedInBytes.write(
                    writerStateResource(1),
                    SimpleVersionedSerialization.writeVersionAndSerialize(
                            new WriterStateSerializer(), writerState().writers));
        }
        CheckedInBytes.write(
                writerStateResource(2),
                SimpleVersionedSerialization.writeVersionAndSerialize(
                        new DynamicWriterState.Serializer(), writerState()));
    }

    private static String resource(String scenario) {
        return "dynamic-sink-migration/" + scenario + "/v1.b64";
    }
}
