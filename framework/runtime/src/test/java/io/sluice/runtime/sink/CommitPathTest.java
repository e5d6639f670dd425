package io.sluice.runtime.sink;

import io.sluice.runtime.plugin.TestPlugins;
import io.sluice.runtime.state.Committable;

import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static io.sluice.runtime.sink.CommitPathHarness.file;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The committer invariants of the architecture document, each on the aggregator and Flink's
 * committer operator alone ({@link CommitPathHarness}), and all of them together on random
 * schedules: writers that end at different checkpoints (some before the first one), empty
 * handovers, compaction and partition commit on or off, failures between any two steps and inside
 * the commit, each followed by a restore from the latest completed checkpoint.
 */
class CommitPathTest {

    private static final long EOI = CommittableMessage.EOI;

    @TempDir
    Path pluginsDir;

    @BeforeEach
    void onePlugin() throws Exception {
        // the aggregator asks the registry for partition time extractors: it needs a plugins directory
        TestPlugins.plugin(pluginsDir, "none")
                .source("p.Nothing", "package p; public class Nothing {}")
                .build();
    }

    private CommitPathHarness harness(CommitPathHarness.Ledger ledger, Map<String, String> options) throws Exception {
        return new CommitPathHarness(options, pluginsDir, ledger);
    }

    @Test
    void aWriterThatFinishedEarlyIsCommittedWithTheNextCheckpoint() throws Exception {
        CommitPathHarness.Ledger ledger = new CommitPathHarness.Ledger();
        try (CommitPathHarness h = harness(ledger, Map.of())) {
            h.hand(0, 2, EOI, List.of(file("a-last", null, false)));
            h.hand(1, 2, 1, List.of(file("b1", null, false)));
            h.checkpoint(1);
            h.complete(1);
            assertThat(ledger.published).containsOnlyKeys("a-last", "b1");
            h.hand(1, 2, EOI, List.of(file("b-last", null, false)));
            h.endOfInput();
            h.checkpoint(2);
            h.complete(2);
            assertThat(ledger.published).containsOnlyKeys("a-last", "b1", "b-last");
        }
    }

    /**
     * FileSinkFailureCampaignIT seed 20261218: the barrier of checkpoint 1 passes, then the writer
     * rolls its open file at the end of input and hands it over; checkpoint 1's completion is
     * notified only after that. The file must wait for the next checkpoint: checkpoint 1's writer
     * state still has it open, and a failover to checkpoint 1 resumes it.
     */
    @Test
    void filesHandedOverAfterABarrierWaitForTheNextCheckpointAlsoWhenItsNotificationComesLate() throws Exception {
        CommitPathHarness.Ledger ledger = new CommitPathHarness.Ledger();
        try (CommitPathHarness h = harness(ledger, Map.of())) {
            h.hand(0, 1, 1, List.of(file("a1", null, false)));
            h.checkpoint(1);
            h.hand(0, 1, EOI, List.of(file("a-last@1", null, false)));
            h.endOfInput();
            h.complete(1);
            assertThat(ledger.published).containsOnlyKeys("a1");
            // the job fails before the final checkpoint: the writer resumes its file from checkpoint 1
            h.restore(1);
            h.hand(0, 1, EOI, List.of(file("a-last@2", null, false)));
            h.endOfInput();
            h.checkpoint(2);
            assertThat(ledger.published).containsOnlyKeys("a1");
            h.complete(2);
            assertThat(ledger.published).containsOnlyKeys("a1", "a-last@2");
        }
    }

    /** A checkpoint of an earlier version holds committables in Flink's committer: they are committed. */
    @Test
    void committablesInTheFlinkCommitterOfAnEarlierCheckpointAreCommittedAfterTheRestore() throws Exception {
        CommitPathHarness.Ledger ledger = new CommitPathHarness.Ledger();
        try (CommitPathHarness h = harness(ledger, Map.of())) {
            h.handToFlinkCommitterAsEarlierVersionsDid(1, List.of(file("old", null, false)));
            h.checkpoint(1);
            // Flink's harness restores as from checkpoint 0: its committer commits them with the next
            // notification instead of at once, as it does in a job restored from checkpoint 1
            h.restore(1);
            h.hand(0, 1, EOI, List.of(file("new", null, false)));
            h.endOfInput();
            h.checkpoint(2);
            h.complete(2);
            assertThat(ledger.published).containsOnlyKeys("old", "new");
            assertThat(ledger.requests).extracting(q -> q.epoch).contains("epoch-of-an-earlier-version");
        }
    }

    @Test
    void aFinishedWritersFilesSurviveAFailoverAfterTheCheckpoint() throws Exception {
        CommitPathHarness.Ledger ledger = new CommitPathHarness.Ledger();
        try (CommitPathHarness h = harness(ledger, Map.of())) {
            h.hand(0, 2, EOI, List.of(file("a-last", null, false)));
            h.hand(1, 2, 1, List.of(file("b1", null, false)));
            h.checkpoint(1);
            // the job fails before the committer learns that checkpoint 1 completed
            h.restore(1);
            // writer 0 has finished and never runs again; writer 1 goes on from checkpoint 1
            h.hand(1, 2, EOI, List.of(file("b-last", null, false)));
            h.endOfInput();
            h.checkpoint(2);
            h.complete(2);
            assertThat(ledger.published).containsOnlyKeys("a-last", "b1", "b-last");
        }
    }

    @Test
    void aFinishedWritersFilesWithCompactionAndPartitionsSurviveAFailover() throws Exception {
        CommitPathHarness.Ledger ledger = new CommitPathHarness.Ledger();
        Map<String, String> options = Map.of(
                "auto-compaction",
                "true",
                "compaction.file-size",
                "1mb",
                "compaction.checkpoints",
                "0",
                "sink.partition-commit.policy.kind",
                "success-file");
        try (CommitPathHarness h = harness(ledger, options)) {
            h.hand(0, 2, EOI, List.of(file("dt=1/a-last", "dt=1", true)));
            h.hand(1, 2, 1, List.of(file("dt=2/b1", "dt=2", true)));
            h.checkpoint(1);
            h.complete(1);
            // too small to be due: the files wait in the aggregator's state, their partitions too
            assertThat(ledger.published).isEmpty();
            assertThat(ledger.duePartitions).isEmpty();
            h.restore(1);
            h.hand(1, 2, 2, List.of(file("dt=1/b2", "dt=1", true)));
            h.checkpoint(2);
            h.restore(2);
            h.hand(1, 2, EOI, List.of());
            h.endOfInput();
            h.checkpoint(3);
            h.complete(3);
            assertThat(ledger.published).containsOnlyKeys("dt=1/a-last", "dt=2/b1", "dt=1/b2");
            assertThat(ledger.filesWhenDue).containsEntry("dt=1", 2).containsEntry("dt=2", 1);
        }
    }

    @Test
    void aReplayedCommitOfAnOlderCheckpointCarriesItsFirstIdentity() throws Exception {
        CommitPathHarness.Ledger ledger = new CommitPathHarness.Ledger();
        try (CommitPathHarness h = harness(ledger, Map.of())) {
            h.hand(0, 1, 1, List.of(file("a1", null, false)));
            h.checkpoint(1);
            h.complete(1);
            h.hand(0, 1, 2, List.of(file("a2", null, false)));
            h.checkpoint(2);
            h.complete(2);
            CommitPathHarness.CommitRequestRecord first = ledger.requests.get(0);
            // restored from the retained checkpoint 1, whose committer state still holds its request
            h.restore(1);
            // the writer goes on from checkpoint 1: what it writes now is committed by nobody yet
            h.hand(0, 1, 3, List.of(file("a2-again", null, false)));
            h.checkpoint(3);
            h.complete(3);
            assertThat(ledger.requests).extracting(q -> q.checkpointId).containsExactly(1L, 2L, 1L, 3L);
            CommitPathHarness.CommitRequestRecord replay = ledger.requests.get(2);
            assertThat(replay.epoch)
                    .as("the target tells a replay by epoch and checkpoint")
                    .isEqualTo(first.epoch);
            assertThat(replay.files).isEqualTo(first.files);
            assertThat(ledger.requests.get(3).epoch).as("a new run").isNotEqualTo(first.epoch);
            assertThat(ledger.published).containsKeys("a1", "a2", "a2-again");
        }
    }

    @Test
    void aCommitThatFailsIsRetriedFromStateAfterTheRestore() throws Exception {
        for (String when : List.of("before", "after")) {
            CommitPathHarness.Ledger ledger = new CommitPathHarness.Ledger();
            try (CommitPathHarness h = harness(ledger, Map.of())) {
                h.hand(0, 2, 1, List.of(file("a1", null, false)));
                h.hand(1, 2, EOI, List.of(file("b-last", null, false)));
                h.checkpoint(1);
                ledger.failNextCommit(when);
                assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> h.complete(1)))
                        .hasStackTraceContaining("injected failure " + when);
                h.restore(1);
                h.hand(0, 2, EOI, List.of());
                h.endOfInput();
                h.checkpoint(2);
                h.complete(2);
                assertThat(ledger.published).as(when).containsOnlyKeys("a1", "b-last");
                assertThat(ledger.requests)
                        .as(when)
                        .extracting(q -> q.checkpointId)
                        .containsExactly(when.equals("before") ? new Long[] {1L} : new Long[] {1L, 1L});
            }
        }
    }

    /**
     * A job that fails for good in the aggregator (issue 31: a partition value that is not a time
     * for the partition-time trigger) hands the target what arrived since its last snapshot, and
     * nothing a snapshot holds: a restore from that snapshot still commits those.
     */
    @Test
    void aJobThatFailsForGoodDiscardsWhatNoSnapshotHolds() throws Exception {
        Map<String, String> notATime = Map.of(
                "sink.partition-commit.policy.kind", "success-file",
                "sink.partition-commit.trigger", "partition-time",
                "partition.time-extractor.timestamp-formatter", "yyyy-MM-dd");
        for (boolean atEndOfInput : new boolean[] {false, true}) {
            CommitPathHarness.Ledger ledger = new CommitPathHarness.Ledger();
            try (CommitPathHarness h = harness(ledger, notATime)) {
                h.hand(0, 1, 1, List.of(file("dt=2024-01-01/a", "dt=2024-01-01", false)));
                h.checkpoint(1);
                long id = atEndOfInput ? EOI : 2;
                h.hand(0, 1, id, List.of(file("dt=2024-01-02/b", "dt=2024-01-02", false)));
                h.hand(0, 1, id, List.of(file("dt=not-a-date/c", "dt=not-a-date", true)));
                Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> {
                    if (atEndOfInput) {
                        h.endOfInput();
                    } else {
                        h.checkpoint(2);
                    }
                });
                assertThat(t)
                        .isInstanceOf(org.apache.flink.runtime.execution.SuppressRestartsException.class)
                        .hasStackTraceContaining("dt=not-a-date");
                assertThat(ledger.discarded)
                        .as("at the end of input: %s", atEndOfInput)
                        .containsExactly("dt=2024-01-02/b", "dt=not-a-date/c");
                assertThat(ledger.published).isEmpty();
            }
        }
    }

    /**
     * Random schedules: every file a writer hands over is published exactly once (one attempt of
     * it, never two), whatever fails when; every partition's commit policy runs after all its
     * files are visible. The base seed is printed and can be set with {@code -Dsluice.test.seed}.
     */
    @Test
    void randomSchedules() throws Exception {
        long base = Long.getLong("sluice.test.seed", System.currentTimeMillis());
        int runs = Integer.getInteger("sluice.test.schedules", 300);
        System.out.println("CommitPathTest.randomSchedules base seed " + base + " (-Dsluice.test.seed=" + base + ")");
        for (int i = 0; i < runs; i++) {
            runSchedule(base + i);
        }
    }

    private void runSchedule(long seed) throws Exception {
        Random r = new Random(seed);
        int writers = 1 + r.nextInt(4);
        int[] endStep = new int[writers];
        int lastStep = 0;
        for (int w = 0; w < writers; w++) {
            endStep[w] = 1 + r.nextInt(5);
            lastStep = Math.max(lastStep, endStep[w]);
        }
        int[][] files = new int[writers][lastStep + 1];
        for (int w = 0; w < writers; w++) {
            for (int s = 1; s <= endStep[w]; s++) {
                files[w][s] = r.nextInt(3);
            }
        }
        boolean compaction = r.nextBoolean();
        boolean partitions = r.nextBoolean();
        int[] failuresLeft = {r.nextInt(5)};
        Map<String, String> options = new HashMap<>();
        if (compaction) {
            options.put("auto-compaction", "true");
            options.put("compaction.file-size", (10 + r.nextInt(40)) + "b");
            options.put("compaction.checkpoints", String.valueOf(r.nextInt(3)));
        }
        if (partitions) {
            options.put("sink.partition-commit.policy.kind", "success-file");
        }
        String schedule = "seed " + seed + ": writers end at steps " + java.util.Arrays.toString(endStep) + ", files "
                + java.util.Arrays.deepToString(files) + ", " + options;
        List<String> events = new ArrayList<>();

        CommitPathHarness.Ledger ledger = new CommitPathHarness.Ledger();
        try (CommitPathHarness h = harness(ledger, options)) {
            Map<Long, Integer> stepAt = new HashMap<>();
            stepAt.put(0L, 0);
            long completed = 0;
            long nextCheckpoint = 1;
            int step = 0;
            int attempt = 0;
            long late = 0; // a completed checkpoint whose notification comes after the next handovers
            while (true) {
                try {
                    step++;
                    long checkpoint = nextCheckpoint++;
                    List<Integer> alive = new ArrayList<>();
                    for (int w = 0; w < writers; w++) {
                        if (endStep[w] >= step) {
                            alive.add(w);
                        }
                    }
                    Collections.shuffle(alive, r);
                    for (int w : alive) {
                        List<Committable.Entry> handed = new ArrayList<>();
                        for (int i = 0; i < files[w][step]; i++) {
                            String partition = partitions ? "dt=" + (w + i) % 3 : null;
                            String name = (partition == null ? "" : partition + "/") + w + "-" + step + "-" + i + "@"
                                    + attempt;
                            handed.add(file(name, partition, compaction));
                        }
                        boolean ends = endStep[w] == step;
                        h.hand(w, writers, ends ? EOI : checkpoint, handed);
                        events.add("w" + w + (ends ? " ends" : "") + " hands " + handed.size());
                        maybeFail(r, failuresLeft, "after writer " + w + " handed step " + step);
                    }
                    boolean allEnded = lastStep <= step;
                    if (allEnded) {
                        h.endOfInput();
                        events.add("end of input");
                    }
                    if (late != 0) {
                        long notified = late;
                        late = 0;
                        h.complete(notified);
                        events.add("late complete " + notified);
                    }
                    h.checkpoint(checkpoint);
                    stepAt.put(checkpoint, step);
                    completed = checkpoint;
                    events.add("checkpoint " + checkpoint);
                    maybeFail(r, failuresLeft, "before checkpoint " + checkpoint + " was notified");
                    if (failuresLeft[0] > 0 && r.nextInt(5) == 0) {
                        failuresLeft[0]--;
                        ledger.failNextCommit(r.nextBoolean() ? "before" : "after");
                    }
                    if (!allEnded && r.nextInt(3) == 0) {
                        late = checkpoint;
                        events.add("complete " + checkpoint + " notified late");
                        continue;
                    }
                    h.complete(checkpoint);
                    events.add("complete " + checkpoint);
                    if (allEnded) {
                        break;
                    }
                } catch (Exception e) {
                    if (!String.valueOf(org.apache.flink.util.ExceptionUtils.stringifyException(e))
                            .contains("injected")) {
                        throw new AssertionError(schedule + "\nevents " + events, e);
                    }
                    attempt++;
                    late = 0;
                    events.add("FAIL, restore " + completed);
                    restore(h, completed, events);
                    step = stepAt.get(completed);
                }
            }
        }

        // each file exactly once: one attempt of it
        Map<String, Set<String>> attempts = new TreeMap<>();
        for (String name : ledger.published.keySet()) {
            int at = name.indexOf('@');
            attempts.computeIfAbsent(name.substring(0, at), k -> new TreeSet<>())
                    .add(name.substring(at + 1));
        }
        Set<String> expected = new TreeSet<>();
        Map<String, Integer> perPartition = new TreeMap<>();
        for (int w = 0; w < writers; w++) {
            for (int s = 1; s <= endStep[w]; s++) {
                for (int i = 0; i < files[w][s]; i++) {
                    String partition = partitions ? "dt=" + (w + i) % 3 : null;
                    expected.add((partition == null ? "" : partition + "/") + w + "-" + s + "-" + i);
                    if (partition != null) {
                        perPartition.merge(partition, 1, Integer::sum);
                    }
                }
            }
        }
        String context = schedule + "\nevents " + events + "\nrequests " + ledger.requests;
        assertThat(attempts.keySet()).as(context).isEqualTo(expected);
        assertThat(attempts)
                .as(context)
                .allSatisfy((file, as) -> assertThat(as).as(file).hasSize(1));
        // every partition's policies ran after all its files were visible
        assertThat(ledger.filesWhenDue).as(context).isEqualTo(perPartition);
    }

    /** Restores from {@code checkpoint}; a restored commit that fails (injected) fails the restore, which is tried again. */
    private static void restore(CommitPathHarness h, long checkpoint, List<String> events) throws Exception {
        while (true) {
            try {
                h.restore(checkpoint);
                return;
            } catch (Exception e) {
                if (!String.valueOf(org.apache.flink.util.ExceptionUtils.stringifyException(e))
                        .contains("injected")) {
                    throw e;
                }
                events.add("FAIL in the restore, restore " + checkpoint);
            }
        }
    }

    private static void maybeFail(Random r, int[] failuresLeft, String where) {
        if (failuresLeft[0] > 0 && r.nextInt(8) == 0) {
            failuresLeft[0]--;
            throw new IllegalStateException("injected failure " + where);
        }
    }
}
