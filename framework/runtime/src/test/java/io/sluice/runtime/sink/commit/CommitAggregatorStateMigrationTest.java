package io.sluice.runtime.sink.commit;

import io.sluice.runtime.sink.compaction.CompactionPlanner;
import io.sluice.runtime.state.Committable;
import io.sluice.runtime.state.Envelope;
import io.sluice.spi.Payload;
import io.sluice.testshared.CheckedInBytes;

import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The commit aggregator's own operator state stays readable in every version: the pending
 * handovers ({@link CommitAggregator#PENDING_STATE}; {@code aggregator-pending-migration/}, {@code
 * v2} written by f2cb40f, {@code v3} by {@link #writeCurrentVersions}) and the compaction planner's
 * ({@code compaction-migration/}, {@code v1} written by f2cb40f into {@link
 * CommitAggregator#UNFRAMED_COMPACTION_STATE}, the layout of version 1 also inside the frames of
 * {@link CommitAggregator#COMPACTION_STATE}) and the committables not committed yet ({@link
 * CommitAggregator#UNCOMMITTED_STATE}; {@code aggregator-uncommitted-migration/}, {@code v3} by
 * {@link #writeCurrentVersions}).
 */
class CommitAggregatorStateMigrationTest {

    static final long T0 = 1709622489010L;

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void pendingHandoversOfEveryVersionReadToWhatTheyHeld(int version) throws IOException {
        TreeMap<Long, List<Committable.Entry>> read = new TreeMap<>();
        CommitAggregator.readPending(CheckedInBytes.readList(pendingResource(version)), read);

        assertThat(read).usingRecursiveComparison().isEqualTo(pending());
    }

    @Test
    void pendingHandoversAreWrittenAsCheckedInWithTheCommittablesVersion() throws IOException {
        List<byte[]> written = CommitAggregator.pendingState(pending());

        assertThat(written).containsExactlyElementsOf(CheckedInBytes.readList(pendingResource(3)));
    }

    @ParameterizedTest
    @ValueSource(ints = {3})
    void uncommittedCommittablesOfEveryVersionReadToWhatTheyHeld(int version) throws IOException {
        List<Committable> read =
                CommitAggregator.readUncommitted(CheckedInBytes.readList(uncommittedResource(version)));

        assertThat(read).usingRecursiveComparison().isEqualTo(uncommitted());
    }

    @Test
    void uncommittedCommittablesAreWrittenAsCheckedInWithTheCommittablesVersion() throws IOException {
        assertThat(CommitAggregator.uncommittedState(uncommitted()))
                .containsExactlyElementsOf(CheckedInBytes.readList(uncommittedResource(3)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"empty", "waiting-files"})
    void compactionStateVersion1ReadsToWhatItHeldAndIsWrittenSo(String scenario) throws IOException {
        byte[] checkedIn = CheckedInBytes.read("compaction-migration/" + scenario + "/v1.b64");
        CompactionPlanner.State expected = compaction(scenario);

        assertThat(CompactionPlanner.StateSerializer.INSTANCE.deserialize(1, checkedIn))
                .usingRecursiveComparison()
                .isEqualTo(expected);
        // the current version: the same bytes again, framed in the current state
        assertThat(CompactionPlanner.StateSerializer.INSTANCE.getVersion()).isEqualTo(1);
        assertThat(CompactionPlanner.StateSerializer.INSTANCE.serialize(expected))
                .isEqualTo(checkedIn);
    }

    @Test
    void aPlannerRestoredFromTheUnframedStateHasItsFilesAndItsCount() throws IOException {
        byte[] unframed = CheckedInBytes.read("compaction-migration/waiting-files/v1.b64");
        CompactionPlanner planner = new CompactionPlanner(true, 1 << 20, 5);
        planner.restoreUnframed(unframed);

        assertThat(planner.waitingFiles()).isEqualTo(3);
        assertThat(planner.isWaiting("dt=2024-03-05")).isTrue();
        assertThat(planner.isWaiting("")).isTrue();
        // the state framed as the aggregator writes it now, and read back
        byte[] framed = planner.snapshot();
        assertThat(framed)
                .isEqualTo(SimpleVersionedSerialization.writeVersionAndSerialize(
                        CompactionPlanner.StateSerializer.INSTANCE,
                        CompactionPlanner.StateSerializer.INSTANCE.deserialize(1, unframed)));
        CompactionPlanner again = new CompactionPlanner(true, 1 << 20, 5);
        again.restore(framed);
        // two checkpoints had passed: the files are due at the third after the restore, the fifth since compaction
        assertThat(again.onCheckpoint(false)).isEmpty();
        assertThat(again.onCheckpoint(false)).isEmpty();
        assertThat(again.onCheckpoint(false))
                .extracting(Committable.Unit::bucketId)
                .containsExactly("dt=2024-03-05", "");
    }

    @Test
    void anUnknownCompactionStateVersionIsAnErrorNamingTheVersionsRead() {
        assertThatThrownBy(() -> CompactionPlanner.StateSerializer.INSTANCE.deserialize(2, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("compaction state of version 2")
                .hasMessageContaining("reads version 1");
    }

    /** Checks in the bytes of the current versions (run with -Dsluice.migration.write=true). */
    @Test
    @EnabledIfSystemProperty(named = CheckedInBytes.WRITE_PROPERTY, matches = "true")
    void writeCurrentVersions() throws IOException {
        CheckedInBytes.writeList(
                pendingResource(new io.sluice.runtime.state.CommittableSerializer().getVersion()),
                CommitAggregator.pendingState(pending()));
        CheckedInBytes.writeList(
                uncommittedResource(new io.sluice.runtime.state.CommittableSerializer().getVersion()),
                CommitAggregator.uncommittedState(uncommitted()));
        for (String scenario : Arrays.asList("empty", "waiting-files")) {
            CheckedInBytes.write(
                    "compaction-migration/" + scenario + "/v" + CompactionPlanner.StateSerializer.VERSION + ".b64",
                    CompactionPlanner.StateSerializer.INSTANCE.serialize(compaction(scenario)));
        }
    }

    private static String pendingResource(int version) {
        return "aggregator-pending-migration/two-checkpoints/v" + version;
    }

    private static String uncommittedResource(int version) {
        return "aggregator-uncommitted-migration/compaction-and-partitions/v" + version;
    }

    /** Made for checkpoint 4 (files, a compaction unit, a due partition) and at the end of input. */
    private static List<Committable> uncommitted() {
        return Arrays.asList(
                new Committable(
                        4L,
                        "job-a",
                        "operator-b",
                        "epoch-c",
                        Collections.singletonList(
                                new Committable.Entry(envelope("part-0-4"), "dt=2024-03-05", T0, 1024, false)),
                        Collections.singletonList(new Committable.Unit(
                                "dt=2024-03-04", Arrays.asList(envelope("part-0-2"), envelope("part-1-2")))),
                        Collections.singletonList("dt=2024-03-04")),
                new Committable(
                        CommittableMessage.EOI,
                        "job-a",
                        "operator-b",
                        "epoch-c",
                        Collections.singletonList(
                                new Committable.Entry(envelope("part-1-5"), null, T0 + 9, 2048, false)),
                        Collections.emptyList(),
                        Collections.emptyList()));
    }

    private static Envelope envelope(String bytes) {
        return new Envelope("filesystem", "filesystem", new Payload(2, bytes.getBytes(StandardCharsets.UTF_8)));
    }

    /** Handed over for checkpoint 3, and by a writer that finished. */
    private static TreeMap<Long, List<Committable.Entry>> pending() {
        TreeMap<Long, List<Committable.Entry>> pending = new TreeMap<>();
        pending.put(
                3L,
                Arrays.asList(
                        new Committable.Entry(envelope("part-0-0"), "dt=2024-03-05", T0, 1024, false),
                        new Committable.Entry(envelope("part-0-1"), null, T0 + 1, -1, true)));
        pending.put(
                CommittableMessage.EOI,
                Collections.singletonList(
                        new Committable.Entry(envelope("part-1-0"), "dt=2024-03-05", T0 + 5, 2048, false)));
        return pending;
    }

    private static CompactionPlanner.State compaction(String scenario) {
        if (scenario.equals("empty")) {
            return new CompactionPlanner.State(0, Collections.emptyList());
        }
        // in the planner's order: per bucket, in the order the files arrived
        return new CompactionPlanner.State(
                2,
                Arrays.asList(
                        new Committable.Entry(envelope("part-0-2"), "dt=2024-03-05", T0, 1000, true),
                        new Committable.Entry(envelope("part-0-3"), "dt=2024-03-05", T0 + 3, 3000, true),
                        new Committable.Entry(envelope("part-1-2"), null, T0 + 2, 2000, true)));
    }
}
