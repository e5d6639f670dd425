package io.sluice.plugin.filesystem;

import io.sluice.partfiles.testing.PartFileTesting;
import io.sluice.spi.Payload;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.spi.sink.WriterLineage;
import io.sluice.testkit.TestSinkContext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static io.sluice.partfiles.testing.PartFileTesting.T0;
import static io.sluice.partfiles.testing.PartFileTesting.at;
import static io.sluice.partfiles.testing.PartFileTesting.commit;
import static io.sluice.partfiles.testing.PartFileTesting.files;
import static io.sluice.partfiles.testing.PartFileTesting.hidden;
import static io.sluice.partfiles.testing.PartFileTesting.row;
import static io.sluice.partfiles.testing.PartFileTesting.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Proves a writer restored from a snapshot resumes its open row-format file truncated to the checkpoint, and loses or duplicates nothing. */
class RestoreTest {

    @TempDir
    Path tmp;

    private final FileSystemTargetFactory target = new FileSystemTargetFactory();

    @Test
    void resumedFileHoldsExactlyTheCheckpointedRowsPlusTheRowsWrittenAfterRestore() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines").build(); // default policy: small files stay open

        TargetWriter failing = target.createWriter(ctx, Collections.emptyList());
        failing.write(row("r1"), at(T0));
        failing.write(row("r2"), at(T0 + 1));
        assertThat(failing.prepareCommit(false)).isEmpty(); // nothing rolled: the file stays open
        List<Payload> state = failing.snapshotState(1);
        // data after the checkpoint, then the task fails: no prepareCommit, no commit
        failing.write(row("lost1"), at(T0 + 2));
        failing.write(row("lost2"), at(T0 + 3));
        assertThat(hidden(base).values()).containsExactly("r1\nr2\nlost1\nlost2\n");
        failing.close();

        // the framework keeps state as bytes: restore from copies
        List<Payload> restoredState = new ArrayList<>();
        state.forEach(p -> restoredState.add(new Payload(p.version(), p.bytes().clone())));
        try (TargetWriter restored = target.createWriter(ctx, restoredState);
                TargetCommitter committer = target.createCommitter(ctx)) {
            Map<String, String> resumed = hidden(base);
            assertThat(resumed.values()).containsExactly("r1\nr2\n"); // truncated to the checkpoint
            String inProgressName = resumed.keySet().iterator().next();

            restored.write(row("r3"), at(T0 + 10));
            List<PendingCommit> pending = restored.prepareCommit(true);
            assertThat(pending).hasSize(1);
            commit(committer, Long.MAX_VALUE, pending);

            Map<String, String> finished = visible(base);
            assertThat(finished.values()).containsExactly("r1\nr2\nr3\n");
            String name = finished.keySet().iterator().next();
            assertThat(inProgressName).startsWith("." + name + ".inprogress.");
            assertThat(hidden(base)).isEmpty();
        }
    }

    /**
     * A killed writer leaves the in-progress files it opened after its last checkpoint; the
     * writer restored from that checkpoint deletes exactly those: not the file pending in the
     * committer's state (rolled before the checkpoint), not another live writer's file.
     */
    @Test
    void aRestoredWriterRemovesOnlyWhatItsDeadPredecessorOpenedAfterTheCheckpoint() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .build();

        TargetWriter live = target.createWriter(ctx, Collections.emptyList());
        live.write(row("live"), at(T0));

        TargetWriter killed = target.createWriter(ctx, Collections.emptyList());
        killed.write(row("r1"), at(T0));
        List<PendingCommit> cp1 = killed.prepareCommit(false); // rolled: pending, still an in-progress file
        List<Payload> state = killed.snapshotState(1);
        killed.write(row("after-cp1"), at(T0 + 1)); // a new part file no state knows of
        assertThat(hidden(base).values()).containsExactlyInAnyOrder("live\n", "r1\n", "after-cp1\n");
        // killed: neither closed nor disposed

        try (TargetWriter restored = target.createWriter(ctx, state);
                TargetCommitter committer = target.createCommitter(ctx)) {
            assertThat(hidden(base).values())
                    .as("in-progress files after the restore")
                    .containsExactlyInAnyOrder("live\n", "r1\n");
            commit(committer, 1, cp1);
            assertThat(visible(base).values()).containsExactly("r1\n");
            restored.write(row("r2"), at(T0 + 10));
            commit(committer, 2, restored.prepareCommit(true));
            assertThat(visible(base).values()).containsExactlyInAnyOrder("r1\n", "r2\n");
        }
        assertThat(hidden(base).values()).as("the live writer's file").containsExactly("live\n");
        live.close();
    }

    /**
     * On S3 a persist leaves the file's unfinished last part in an object {@code _<name>_tmp_<uuid>}
     * (FLINK-10963); a persist at a checkpoint that never completed leaves one no state names. The
     * restored writer removes the last-part objects of its dead predecessor's files that no restored
     * recoverable needs: a file closed before the checkpoint needs none. Where the recoverable's
     * bytes spell out no last-part name (the local file system's), a resumed file's objects are kept,
     * as are another writer's.
     */
    @Test
    void aRestoredWriterRemovesLastPartObjectsThatNoRestoredStateNeeds() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.rollover-interval", "1 min")
                .build();
        String dead = "dead0000-0000-3000-8000-00000000dead";
        String live = "a11e0000-0000-3000-8000-00000000a11e";
        TargetWriter killed = target.createWriter(
                ctx.toBuilder().writerLineage(WriterLineage.of(dead, List.of())).build(), List.of());
        killed.write(row("closed before the checkpoint"), at(T0));
        killed.onProcessingTime(T0 + 120_000); // rolls part 0
        killed.write(row("open at the checkpoint"), at(T0 + 120_001)); // part 1
        List<PendingCommit> cp1 = killed.prepareCommit(false);
        List<Payload> state = killed.snapshotState(1);
        String closedOnes = "_part-" + dead + "-0_tmp_" + java.util.UUID.randomUUID();
        String resumedOnes = "_part-" + dead + "-1_tmp_" + java.util.UUID.randomUUID();
        String liveOnes = "_part-" + live + "-0_tmp_" + java.util.UUID.randomUUID();
        for (String name : List.of(closedOnes, resumedOnes, liveOnes)) {
            java.nio.file.Files.write(base.resolve(name), new byte[] {1});
        }

        try (TargetWriter restored = target.createWriter(
                        ctx.toBuilder()
                                .writerLineage(WriterLineage.of("00000001-0000-3000-8000-000000000001", List.of()))
                                .build(),
                        state);
                TargetCommitter committer = target.createCommitter(ctx)) {
            assertThat(java.nio.file.Files.exists(base.resolve(closedOnes)))
                    .as("the last part of a file closed before the checkpoint")
                    .isFalse();
            assertThat(java.nio.file.Files.exists(base.resolve(resumedOnes)))
                    .as("the last part of the resumed file, whose local recoverable names no object")
                    .isTrue();
            assertThat(java.nio.file.Files.exists(base.resolve(liveOnes)))
                    .as("another writer's last part")
                    .isTrue();
            commit(committer, 1, cp1);
            commit(committer, 2, restored.prepareCommit(true));
        }
        assertThat(files(base))
                .containsOnlyKeys("part-" + dead + "-0", "part-" + dead + "-1", resumedOnes, liveOnes)
                .containsEntry("part-" + dead + "-0", "closed before the checkpoint\n")
                .containsEntry("part-" + dead + "-1", "open at the checkpoint\n");
    }

    /**
     * A writer that dies before its first checkpoint is in no state; the next attempt of its subtask
     * knows its id from the lineage and removes every part it began, from a fresh start and from a
     * restore alike, and nothing of the other subtask's writer.
     */
    @Test
    void theNextAttemptRemovesWhatAnAttemptThatDiedBeforeItsFirstCheckpointOpened() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .build();
        // lineage ids are name-based UUIDs: a lineage's writers share the first 24 characters of
        // their uids (FailedWriters), so these stand-ins differ there
        String attempt0 = "a0000000-0000-3000-8000-000000000000";
        String attempt1 = "a1000000-0000-3000-8000-000000000001";
        String attempt2 = "a2000000-0000-3000-8000-000000000002";
        String otherSubtask = "ff000000-0000-3000-8000-0000000000ff";
        TargetWriter other = target.createWriter(
                ctx.toBuilder()
                        .writerLineage(WriterLineage.of(otherSubtask, List.of()))
                        .build(),
                List.of());
        other.write(row("other subtask"), at(T0));

        TargetWriter first = target.createWriter(
                ctx.toBuilder()
                        .writerLineage(WriterLineage.of(attempt0, List.of()))
                        .build(),
                List.of());
        first.write(row("a0-1"), at(T0));
        first.prepareCommit(false); // rolled, never committed: the checkpoint did not complete
        first.write(row("a0-2"), at(T0 + 1));
        assertThat(hidden(base)).hasSize(3);
        assertThat(hidden(base).keySet()).anyMatch(name -> name.contains(attempt0));
        // dies: neither closed nor disposed, in no state

        TargetWriter second = target.createWriter(
                ctx.toBuilder()
                        .writerLineage(WriterLineage.of(attempt1, List.of(attempt0)))
                        .build(),
                List.of());
        assertThat(hidden(base).values())
                .as("in-progress files after the second attempt started")
                .containsExactly("other subtask\n");
        second.write(row("a1"), at(T0 + 2));
        // dies too, before a checkpoint

        try (TargetWriter third = target.createWriter(
                        ctx.toBuilder()
                                .writerLineage(WriterLineage.of(attempt2, List.of(attempt0, attempt1)))
                                .build(),
                        List.of());
                TargetCommitter committer = target.createCommitter(ctx)) {
            assertThat(hidden(base).values()).containsExactly("other subtask\n");
            third.write(row("a2"), at(T0 + 3));
            commit(committer, 1, third.prepareCommit(true));
        }
        assertThat(visible(base).values()).containsExactly("a2\n");
        assertThat(visible(base).keySet()).allMatch(name -> name.contains(attempt2));
        other.close();
    }

    /**
     * A dynamic sink's writers of one table share the table's lineage id and differ by their
     * opening. The attempt that took the checkpoint had opened one writer of the table by then; it
     * opened a second one after it (for a second schema), in no state, and died. The next attempt's
     * writer, restored from the checkpoint, removes what the second opening began and what the first
     * began after the checkpoint, and keeps the first's file that the checkpoint's commit publishes
     * and the files of another table's writers.
     */
    @Test
    void aTableWriterOpenedAfterTheCheckpointIsFoundByItsOpening() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .build();
        String table = "b0000000-0000-3000-8000-00000000000b";
        String otherTable = "c0000000-0000-3000-8000-00000000000c";
        String nextAttempt = "b1000000-0000-3000-8000-00000000000b";

        TargetWriter first = target.createWriter(
                ctx.toBuilder()
                        .writerLineage(WriterLineage.ofOpening(table, List.of(), Map.of(), 0, false))
                        .build(),
                List.of());
        first.write(row("r1"), at(T0));
        List<PendingCommit> cp1 = first.prepareCommit(false);
        List<Payload> state = first.snapshotState(1);
        first.write(row("first, after the checkpoint"), at(T0 + 1));
        TargetWriter other = target.createWriter(
                ctx.toBuilder()
                        .writerLineage(WriterLineage.ofOpening(otherTable, List.of(), Map.of(), 1, false))
                        .build(),
                List.of());
        other.write(row("other table"), at(T0 + 1));
        TargetWriter second = target.createWriter(
                ctx.toBuilder()
                        .writerLineage(WriterLineage.ofOpening(table, List.of(), Map.of(), 2, true))
                        .build(),
                List.of());
        second.write(row("second opening"), at(T0 + 2));
        assertThat(hidden(base)).hasSize(4);
        // the attempt dies: nothing closed, the second opening in no state

        try (TargetWriter restored = target.createWriter(
                        ctx.toBuilder()
                                .writerLineage(
                                        WriterLineage.ofOpening(nextAttempt, List.of(), Map.of(table, 1), 0, false))
                                .build(),
                        state);
                TargetCommitter committer = target.createCommitter(ctx)) {
            assertThat(hidden(base).values())
                    .as("in-progress files after the restore")
                    .containsExactlyInAnyOrder("r1\n", "other table\n");
            commit(committer, 1, cp1);
            restored.write(row("r2"), at(T0 + 10));
            commit(committer, 2, restored.prepareCommit(true));
            assertThat(visible(base).values()).containsExactlyInAnyOrder("r1\n", "r2\n");
        }
        assertThat(hidden(base).values()).containsExactly("other table\n");
        other.close();
    }

    /**
     * A writer closed before the end of input (its task failed or was cancelled, perhaps for good)
     * removes the files it began after its last snapshot, which nothing would ever commit, and keeps
     * those a restore or the committer still needs; after the end of input it keeps everything.
     */
    @Test
    void aWriterClosedBeforeTheEndOfInputRemovesOnlyWhatNoStateNames() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .option("sink.bucket-assigner", "date-time")
                .option("sink.bucket-assigner.date-time.time-zone", "UTC")
                .build();
        long hour = 3_600_000L;
        TargetWriter failing = target.createWriter(ctx, Collections.emptyList());
        failing.write(row("rolled"), at(T0));
        List<PendingCommit> cp1 = failing.prepareCommit(false);
        failing.snapshotState(1);
        failing.write(row("after-cp1"), at(T0 + 1));
        failing.write(row("new-bucket"), at(T0 + hour));
        assertThat(hidden(base).values()).containsExactlyInAnyOrder("rolled\n", "after-cp1\n", "new-bucket\n");
        failing.close();
        assertThat(hidden(base).values()).as("after close").containsExactly("rolled\n");
        try (TargetCommitter committer = target.createCommitter(ctx)) {
            commit(committer, 1, cp1);
        }
        assertThat(visible(base).values()).containsExactly("rolled\n");

        Path batch = tmp.resolve("batch");
        TestSinkContext batchCtx = FileSystemSinks.of(batch, "lines").build();
        TargetWriter finished = target.createWriter(batchCtx, Collections.emptyList());
        finished.write(row("last"), at(T0));
        List<PendingCommit> end = finished.prepareCommit(true);
        finished.close(); // a BATCH writer closes before the committer runs
        try (TargetCommitter committer = target.createCommitter(batchCtx)) {
            commit(committer, Long.MAX_VALUE, end);
        }
        assertThat(visible(batch).values()).containsExactly("last\n");
    }

    /**
     * The dead writers opened buckets after their checkpoint that no state names (KilledTaskManagerIT
     * seed 20261202 left two such files): one successor taking over both (scale-in) finds them
     * anywhere in the table.
     */
    @Test
    void leftoversInBucketsFirstOpenedAfterTheCheckpointAreRemovedToo() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .option("sink.bucket-assigner", "date-time")
                .option("sink.bucket-assigner.date-time.time-zone", "UTC")
                .build();
        long hour = 3_600_000L;
        TargetWriter first = target.createWriter(ctx, Collections.emptyList());
        TargetWriter second = target.createWriter(ctx, Collections.emptyList());
        first.write(row("a-h7"), at(T0));
        second.write(row("b-h7"), at(T0));
        List<PendingCommit> cp1 = new ArrayList<>(first.prepareCommit(false));
        cp1.addAll(second.prepareCommit(false));
        List<Payload> state = new ArrayList<>(first.snapshotState(1));
        state.addAll(second.snapshotState(1));
        first.write(row("a-h8"), at(T0 + hour)); // buckets no checkpoint knows of
        second.write(row("b-h9"), at(T0 + 2 * hour));
        assertThat(hidden(base).keySet())
                .extracting(PartFileTesting::parent)
                .containsExactlyInAnyOrder("2024-03-05--07", "2024-03-05--07", "2024-03-05--08", "2024-03-05--09");
        // both killed: neither closed nor disposed

        try (TargetWriter restored = target.createWriter(ctx, state);
                TargetCommitter committer = target.createCommitter(ctx)) {
            assertThat(hidden(base).values())
                    .as("in-progress files after the restore")
                    .containsExactlyInAnyOrder("a-h7\n", "b-h7\n");
            commit(committer, 1, cp1);
        }
        assertThat(hidden(base)).isEmpty();
        assertThat(visible(base).values()).containsExactlyInAnyOrder("a-h7\n", "b-h7\n");
    }

    @Test
    void pendingFilesOfAFailedWriterStillCommitAfterRestore() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .build();

        TargetWriter failing = target.createWriter(ctx, Collections.emptyList());
        failing.write(row("before-cp1"), at(T0));
        List<PendingCommit> cp1 = failing.prepareCommit(false);
        List<Payload> state = failing.snapshotState(1);
        failing.write(row("after-cp1"), at(T0 + 1));
        failing.close(); // fails before checkpoint 1 was committed

        try (TargetWriter restored = target.createWriter(ctx, state);
                TargetCommitter committer = target.createCommitter(ctx)) {
            commit(committer, 1, cp1); // the committer commits checkpoint 1 from its state
            restored.write(row("after-restore"), at(T0 + 10));
            commit(committer, 2, restored.prepareCommit(false));
        }
        Map<String, String> finished = visible(base);
        assertThat(finished.values()).containsExactlyInAnyOrder("before-cp1\n", "after-restore\n");
        // the abandoned in-progress file of the failed writer was never visible, never committed,
        // and the restored writer removed it
        assertThat(hidden(base)).isEmpty();
    }

    @Test
    void twoRestoredWritersWithOpenFilesInTheSameBucketAreBothKept() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx0 = FileSystemSinks.of(base, "lines").subtask(0, 1).build();
        TestSinkContext ctx1 = FileSystemSinks.of(base, "lines").subtask(1, 2).build();

        TargetWriter w0 = target.createWriter(ctx0, Collections.emptyList());
        TargetWriter w1 = target.createWriter(ctx1, Collections.emptyList());
        w0.write(row("from-0"), at(T0));
        w1.write(row("from-1"), at(T0));
        assertThat(w0.prepareCommit(false)).isEmpty();
        assertThat(w1.prepareCommit(false)).isEmpty();
        List<Payload> state = new ArrayList<>(w0.snapshotState(1));
        state.addAll(w1.snapshotState(1));
        w0.write(row("lost-0"), at(T0 + 1));
        w0.close();
        w1.close();

        // scale in: one subtask takes over both writers' state
        try (TargetWriter restored = target.createWriter(ctx0, state);
                TargetCommitter committer = target.createCommitter(ctx0)) {
            restored.write(row("new"), at(T0 + 10));
            List<PendingCommit> pending = restored.prepareCommit(true);
            assertThat(pending).hasSize(2);
            commit(committer, Long.MAX_VALUE, pending);
        }
        String all = String.join("", visible(base).values());
        assertThat(visible(base)).hasSize(2);
        assertThat(all.split("\n")).containsExactlyInAnyOrder("from-0", "from-1", "new");
        assertThat(hidden(base)).isEmpty();
    }

    @Test
    void newFilesAfterRestoreNeverReuseAName() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .build();
        TargetWriter first = target.createWriter(ctx, Collections.emptyList());
        TargetCommitter committer = target.createCommitter(ctx);
        first.write(row("a"), at(T0));
        commit(committer, 1, first.prepareCommit(false));
        List<Payload> state = first.snapshotState(1);
        first.close();

        try (TargetWriter restored = target.createWriter(ctx, state)) {
            restored.write(row("b"), at(T0 + 1));
            commit(committer, 2, restored.prepareCommit(false));
        }
        committer.close();
        assertThat(files(base).values()).containsExactlyInAnyOrder("a\n", "b\n");
    }

    @Test
    void stateOfAnUnknownVersionIsRejected() {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines").build();
        assertThatThrownBy(() -> target.createWriter(ctx, List.of(new Payload(42, new byte[0]))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("42");
    }
}
