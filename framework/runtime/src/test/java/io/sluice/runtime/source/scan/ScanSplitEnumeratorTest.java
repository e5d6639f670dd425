package io.sluice.runtime.source.scan;

import io.sluice.runtime.source.TestEnumeratorContext;
import io.sluice.spi.Payload;
import io.sluice.spi.source.PlannedSplit;
import io.sluice.spi.source.ScanPlan;
import io.sluice.spi.source.ScanPlanner;

import org.junit.jupiter.api.Test;

import javax.annotation.Nullable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The scan enumerator against a planner over a growing list of commits: every planned split is
 * handed out once, across rounds, restores from serialized state and a worker thread that plans
 * twice before the coordinator takes either plan.
 */
class ScanSplitEnumeratorTest {

    private final Commits commits = new Commits();
    private final ScanEnumeratorStateSerializer serializer = new ScanEnumeratorStateSerializer();

    @Test
    void continuousReadHandsOutEachSplitOnceAcrossRoundsAndRestore() throws Exception {
        TestEnumeratorContext<ScanSourceSplit> context = new TestEnumeratorContext<>();
        ScanSplitEnumerator enumerator = ScanSplitEnumerator.continuous(context, commits, "p", "t", 1000, null);
        enumerator.start();
        commits.add("a", "b");
        context.runPeriodic();
        context.runPeriodic(); // nothing new
        enumerator.handleSplitRequest(0, null);
        enumerator.handleSplitRequest(1, null);
        enumerator.handleSplitRequest(0, null); // waits
        assertThat(read(context.assigned())).containsExactly("a", "b");

        byte[] checkpoint = serializer.serialize(enumerator.snapshotState(1));
        commits.add("c");
        context.runPeriodic();
        assertThat(read(context.assigned())).containsExactly("a", "b", "c");

        // restore the checkpoint: c was planned after it, so it is planned again, under a fresh id
        TestEnumeratorContext<ScanSourceSplit> restoredContext = new TestEnumeratorContext<>();
        ScanSplitEnumerator restored = ScanSplitEnumerator.continuous(
                restoredContext, commits, "p", "t", 1000, serializer.deserialize(serializer.getVersion(), checkpoint));
        restored.start();
        commits.add("d");
        restoredContext.runPeriodic();
        restored.handleSplitRequest(0, null);
        restored.handleSplitRequest(0, null);
        assertThat(read(restoredContext.assigned())).containsExactly("c", "d");
        List<String> ids = new ArrayList<>(ids(context.assigned()).subList(0, 2));
        ids.addAll(ids(restoredContext.assigned()));
        assertThat(ids).doesNotHaveDuplicates();
        assertThat(restoredContext.finished()).isEmpty();
    }

    @Test
    void aPlanMadeFromAPositionThatMovedMeanwhileIsDropped() {
        TestEnumeratorContext<ScanSourceSplit> context = new TestEnumeratorContext<>();
        ScanSplitEnumerator enumerator = ScanSplitEnumerator.continuous(context, commits, "p", "t", 1000, null);
        enumerator.start();
        commits.add("a");
        context.runPeriodicTwiceBeforeHandling(); // both plans start before either is taken
        commits.add("b");
        context.runPeriodic();
        for (int i = 0; i < 4; i++) {
            enumerator.handleSplitRequest(i % 2, null);
        }
        assertThat(read(context.assigned())).containsExactly("a", "b");
    }

    @Test
    void boundedReadPlansOnceAndThenTellsReadersThereIsNoMore() throws Exception {
        commits.add("a", "b");
        ScanEnumeratorState planned = ScanSplitEnumerator.planOnce(commits, "p", "t");
        commits.add("c"); // after the plan: not part of this read
        TestEnumeratorContext<ScanSourceSplit> context = new TestEnumeratorContext<>();
        ScanSplitEnumerator enumerator = ScanSplitEnumerator.bounded(context, "p", "t", planned);
        enumerator.start();
        enumerator.handleSplitRequest(0, null);
        ScanEnumeratorState checkpoint =
                serializer.deserialize(serializer.getVersion(), serializer.serialize(enumerator.snapshotState(1)));

        TestEnumeratorContext<ScanSourceSplit> restoredContext = new TestEnumeratorContext<>();
        ScanSplitEnumerator restored = ScanSplitEnumerator.bounded(restoredContext, "p", "t", checkpoint);
        restored.handleSplitRequest(1, null);
        restored.handleSplitRequest(1, null);
        restored.handleSplitRequest(0, null);
        assertThat(read(context.assigned())).containsExactly("a");
        assertThat(read(restoredContext.assigned())).containsExactly("b");
        assertThat(restoredContext.finished()).containsExactlyInAnyOrder(0, 1);
    }

    @Test
    void splitsKeepTheirPositionThroughTheSerializer() throws IOException {
        commits.add("a");
        ScanSourceSplit split = ScanSplitEnumerator.planOnce(commits, "p", "t")
                .pendingSplits()
                .get(0)
                .updateWithCheckpointedPosition(
                        new org.apache.flink.connector.file.src.util.CheckpointedPosition(2, 7));
        ScanSplitSerializer splits = new ScanSplitSerializer();
        ScanSourceSplit copy = splits.deserialize(splits.getVersion(), splits.serialize(split));
        assertThat(copy.splitId()).isEqualTo(split.splitId());
        assertThat(copy.description()).isEqualTo("split a");
        assertThat(copy.split()).isEqualTo(split.split());
        assertThat(copy.getReaderPosition())
                .contains(new org.apache.flink.connector.file.src.util.CheckpointedPosition(2, 7));
    }

    @Test
    void aLongDescriptionIsShortenedSoTheSplitStillFitsItsState() throws IOException {
        ScanSourceSplit split = new ScanSourceSplit(
                "s",
                "x".repeat(100_000),
                new io.sluice.runtime.state.Envelope("p", "t", new Payload(1, new byte[] {1})),
                null);
        ScanSplitSerializer splits = new ScanSplitSerializer();
        ScanSourceSplit copy = splits.deserialize(splits.getVersion(), splits.serialize(split));
        assertThat(copy.description())
                .hasSize(ScanSourceSplit.MAX_DESCRIPTION + 3)
                .endsWith("...");
    }

    @Test
    void aFailingPlanNamesTheTarget() {
        commits.failing = true;
        assertThatThrownBy(() -> ScanSplitEnumerator.planOnce(commits, "p", "lake"))
                .hasMessageContaining("'lake' source")
                .hasMessageContaining("metadata unreachable");
    }

    private static List<String> read(List<ScanSourceSplit> splits) {
        return splits.stream()
                .map(s -> new String(s.split().payload().bytes(), StandardCharsets.UTF_8))
                .collect(Collectors.toList());
    }

    private static List<String> ids(List<ScanSourceSplit> splits) {
        return splits.stream().map(ScanSourceSplit::splitId).collect(Collectors.toList());
    }

    /** A planner over a list of commits, one split each; its position is the number of commits planned. */
    private static final class Commits implements ScanPlanner {
        private final List<String> commits = new ArrayList<>();
        boolean failing;

        void add(String... names) {
            commits.addAll(List.of(names));
        }

        @Override
        public ScanPlan plan(@Nullable Payload position) throws IOException {
            if (failing) {
                throw new IOException("metadata unreachable");
            }
            int from = position == null ? 0 : ByteBuffer.wrap(position.bytes()).getInt();
            List<PlannedSplit> splits = new ArrayList<>();
            for (String name : commits.subList(from, commits.size())) {
                splits.add(new PlannedSplit("split " + name, new Payload(1, name.getBytes(StandardCharsets.UTF_8))));
            }
            return new ScanPlan(
                    splits,
                    new Payload(1, ByteBuffer.allocate(4).putInt(commits.size()).array()));
        }

        @Override
        public void close() {}
    }
}
