package io.sluice.runtime.sink.distribution.range;

import io.sluice.runtime.sink.distribution.StatisticsType;
import io.sluice.testshared.CheckedInBytes;

import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.apache.flink.runtime.state.OperatorStateHandle;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The range shuffle's operator state on Flink's operator test harness: what a snapshot holds, and
 * what each subtask restores from it at the same and at another parallelism, and from the union
 * state of snapshots before 0.1.0 ({@code range-shuffle-state-migration/legacy-union-p2.b64}, two
 * subtasks' state written by that operator). The harness never opens the operator: the state does
 * not need the target, which only {@code open} asks for its sort key.
 */
class RangeShuffleOperatorStateTest {

    private static final int MAX_PARALLELISM = 128;
    private static final String LEGACY = "range-shuffle-state-migration/legacy-union-p2.b64";

    @TempDir
    Path tmp;

    @Test
    void aSnapshotHoldsNoUnionStateSoAFinishedSubtaskDoesNotAbortCheckpoints() throws Exception {
        // Flink aborts every checkpoint of a vertex with union state once part of it finished
        for (OperatorSubtaskState state : snapshotsWith(statistics(7), 2)) {
            assertThat(modes(state)).containsOnlyKeys(RangeShuffleOperator.STATE);
            assertThat(modes(state).values()).doesNotContain(OperatorStateHandle.Mode.UNION);
        }
    }

    @Test
    void eachSubtaskRestoresTheStatisticsItApplied() throws Exception {
        List<OperatorSubtaskState> snapshots = snapshotsWith(statistics(7), 2);
        OperatorSubtaskState all =
                AbstractStreamOperatorTestHarness.repackageState(snapshots.toArray(new OperatorSubtaskState[0]));

        assertThat(restoredCheckpoints(all, 2, 2)).containsExactly(7L, 7L);
    }

    @Test
    void atAnotherParallelismTheCopiesAreSplitAmongTheSubtasks() throws Exception {
        OperatorSubtaskState all = AbstractStreamOperatorTestHarness.repackageState(
                snapshotsWith(statistics(9), 3).toArray(new OperatorSubtaskState[0]));

        // fewer subtasks: each has one copy at least
        assertThat(restoredCheckpoints(all, 3, 2)).containsExactly(9L, 9L);
        // more subtasks: those without a copy partition round-robin until the coordinator's
        // statistics arrive (RangeStatisticsCoordinator sends them as a subtask becomes ready)
        assertThat(restoredCheckpoints(all, 3, 5)).containsExactlyInAnyOrder(9L, 9L, 9L, -1L, -1L);
    }

    @Test
    void eachSnapshotHoldsTheStatisticsAppliedLast() throws Exception {
        // the serialized statistics are kept between checkpoints: a newer statistics must replace them
        try (OneInputStreamOperatorTestHarness<RowData, Tuple2<Integer, RowData>> harness = harness(1, 0)) {
            harness.initializeEmptyState();
            RangeShuffleOperator operator = (RangeShuffleOperator) harness.getOperator();
            operator.handleOperatorEvent(StatisticsEvent.global(statistics(3)));
            OperatorSubtaskState first = harness.snapshot(3, 3);
            OperatorSubtaskState unchanged = harness.snapshot(4, 4);
            operator.handleOperatorEvent(StatisticsEvent.global(statistics(4)));
            OperatorSubtaskState second = harness.snapshot(5, 5);

            assertThat(restoredCheckpoints(first, 1, 1)).containsExactly(3L);
            assertThat(restoredCheckpoints(unchanged, 1, 1)).containsExactly(3L);
            assertThat(restoredCheckpoints(second, 1, 1)).containsExactly(4L);
        }
    }

    @Test
    void aSubtaskThatAppliedNoStatisticsSnapshotsNone() throws Exception {
        OperatorSubtaskState all = AbstractStreamOperatorTestHarness.repackageState(
                snapshotsWith(null, 2).toArray(new OperatorSubtaskState[0]));

        assertThat(restoredCheckpoints(all, 2, 2)).containsExactly(-1L, -1L);
    }

    @Test
    void theUnionStateOfSnapshotsBefore010IsRestoredAndClearedOnTheNextSnapshot() throws Exception {
        Path file = tmp.resolve("legacy");
        Files.write(file, CheckedInBytes.read(LEGACY));
        OperatorSubtaskState legacy = OperatorSnapshotUtil.readStateHandle(file.toString());

        // union state: every subtask at any parallelism gets the one copy subtask 0 wrote
        assertThat(restoredCheckpoints(legacy, 2, 2)).containsExactly(5L, 5L);
        assertThat(restoredCheckpoints(legacy, 2, 3)).containsExactly(5L, 5L, 5L);

        try (OneInputStreamOperatorTestHarness<RowData, Tuple2<Integer, RowData>> harness = harness(2, 1)) {
            harness.initializeState(
                    AbstractStreamOperatorTestHarness.repartitionOperatorState(legacy, MAX_PARALLELISM, 2, 2, 1));
            OperatorSubtaskState next = harness.snapshot(6, 6);
            assertThat(modes(next))
                    .containsEntry(RangeShuffleOperator.STATE, OperatorStateHandle.Mode.SPLIT_DISTRIBUTE);
            // a restored state stays registered in Flink; it is empty from then on
            assertThat(restoredCheckpoints(next, 1, 1)).containsExactly(5L);
        }
    }

    /**
     * Checks in the state of the union-state operator (run against the commit before the split
     * state, with -Dsluice.migration.write=true).
     */
    @Test
    @EnabledIfSystemProperty(named = CheckedInBytes.WRITE_PROPERTY, matches = "true")
    void writeLegacySnapshot() throws Exception {
        OperatorSubtaskState all = AbstractStreamOperatorTestHarness.repackageState(
                snapshotsWith(statistics(5), 2).toArray(new OperatorSubtaskState[0]));
        Path file = tmp.resolve("legacy");
        OperatorSnapshotUtil.writeStateHandle(all, file.toString());
        CheckedInBytes.write(LEGACY, Files.readAllBytes(file));
    }

    /** Each subtask's snapshot at checkpoint 1 after it applied {@code applied} (or nothing). */
    private static List<OperatorSubtaskState> snapshotsWith(KeyStatistics applied, int parallelism) throws Exception {
        List<OperatorSubtaskState> snapshots = new ArrayList<>();
        for (int subtask = 0; subtask < parallelism; subtask++) {
            try (OneInputStreamOperatorTestHarness<RowData, Tuple2<Integer, RowData>> harness =
                    harness(parallelism, subtask)) {
                harness.initializeEmptyState();
                if (applied != null) {
                    ((RangeShuffleOperator) harness.getOperator()).handleOperatorEvent(StatisticsEvent.global(applied));
                }
                snapshots.add(harness.snapshot(1, 1));
            }
        }
        return snapshots;
    }

    /** The checkpoint of the statistics each subtask applies after a restore, -1 for none. */
    private static List<Long> restoredCheckpoints(OperatorSubtaskState snapshot, int from, int to) throws Exception {
        List<Long> checkpoints = new ArrayList<>();
        for (int subtask = 0; subtask < to; subtask++) {
            try (OneInputStreamOperatorTestHarness<RowData, Tuple2<Integer, RowData>> harness = harness(to, subtask)) {
                harness.initializeState(AbstractStreamOperatorTestHarness.repartitionOperatorState(
                        snapshot, MAX_PARALLELISM, from, to, subtask));
                KeyStatistics applied = ((RangeShuffleOperator) harness.getOperator()).applied();
                checkpoints.add(applied == null ? -1L : applied.checkpointId());
            }
        }
        return checkpoints;
    }

    private static OneInputStreamOperatorTestHarness<RowData, Tuple2<Integer, RowData>> harness(
            int parallelism, int subtask) throws Exception {
        List<OperatorEvent> sent = new ArrayList<>();
        // no descriptor: only open() (never called here) and an unexpected event's error use it
        RangeShuffleOperator operator = new RangeShuffleOperator(null, StatisticsType.MAP, 0.0, sent::add);
        return new OneInputStreamOperatorTestHarness<>(operator, MAX_PARALLELISM, parallelism, subtask);
    }

    private static Map<String, OperatorStateHandle.Mode> modes(OperatorSubtaskState state) {
        return state.getManagedOperatorState().stream()
                .flatMap(handle -> handle.getStateNameToPartitionOffsets().entrySet().stream())
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().getDistributionMode(), (a, b) -> a));
    }

    private static KeyStatistics statistics(long checkpointId) {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("\u0001p0\u0000\u0000", 40L);
        counts.put("\u0001p1\u0000\u0000", 2L);
        return KeyStatistics.ofCounts(checkpointId, counts);
    }
}
