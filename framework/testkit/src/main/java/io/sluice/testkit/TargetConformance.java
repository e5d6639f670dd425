package io.sluice.testkit;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.RecordContext;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.sink.TargetWriter;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Conformance tests for a {@link TargetFactory}: extend this class in a plugin's tests, return the
 * factory from {@link #targetFactory()}, the options of a sink writing a new table under a
 * directory from {@link #sinkOptions(Path)}, and the rows readers of that table see from {@link
 * #committedRows(Path, Map)} (read with an independent reader: the format's own library, the table
 * format's Java API), and JUnit 5 runs every check below against it. Rows are {@code (id BIGINT,
 * name STRING)}; the writer and committer are created directly, with {@link TestSinkContext}s of
 * the sink, and called as the framework calls them.
 *
 * <p>The checks, each the ARCHITECTURE's committer invariants as a target meets them:
 *
 * <ul>
 *   <li>a commit handed over again (its success was never acknowledged) changes nothing, also to a
 *       new committer instance;
 *   <li>an older request replayed after newer ones (a restore from a retained older checkpoint)
 *       changes nothing;
 *   <li>writers that reach end of input at different checkpoints: the finished writer's last data
 *       arrives in the next checkpoint's request, and every row is committed once;
 *   <li>a writer restored from its state (copied as bytes, as after a restore in another JVM)
 *       resumes without the rows written after the snapshot and without losing those before;
 *   <li>state and pending payloads of a version the target never wrote are rejected, naming the
 *       version, and leave the table as it was;
 *   <li>a commit that fails leaves nothing of its request visible: here a request whose second
 *       payload is of an unknown version.
 * </ul>
 */
public abstract class TargetConformance {

    /** The rows the kit writes. */
    public static final RowType ROW_TYPE = (RowType)
            DataTypes.ROW(DataTypes.FIELD("id", DataTypes.BIGINT()), DataTypes.FIELD("name", DataTypes.STRING()))
                    .getLogicalType();

    private static final String OPERATOR = "0000000000000000000000000000000a";

    @TempDir
    protected Path tmp;

    private long nextId;

    /** The target, created directly. */
    protected abstract TargetFactory targetFactory();

    /** The options of a sink that writes a new, empty table below {@code dir} (creating it if the target needs that). */
    protected abstract Map<String, String> sinkOptions(Path dir) throws Exception;

    /** The rows readers of the table see now, as {@code id,name}, in any order. */
    protected abstract List<String> committedRows(Path dir, Map<String, String> options) throws Exception;

    /** The context of the sink for subtask 0 of 1; override to add extensions or options the target needs. */
    protected TestSinkContext.Builder context(Map<String, String> options) {
        return TestSinkContext.builder(ROW_TYPE)
                .options(options)
                .offersCompaction(targetFactory().compaction().isPresent());
    }

    // ------------------------------------------------------------------ checks

    @Test
    void aCommitHandedOverAgainChangesNothing() throws Exception {
        Sink sink = sink("retried");
        TargetWriter writer = sink.writer(0, 1);
        List<String> rows = write(writer, 3);
        CommitRequest request = sink.request(1, writer.prepareCommit(true));
        try (TargetCommitter committer = sink.committer()) {
            committer.commit(request);
            committer.commit(request);
        }
        try (TargetCommitter another = sink.committer()) {
            another.commit(copy(request));
        }
        writer.close();
        assertThat(sink.rows())
                .as("rows after a commit was handed over again")
                .containsExactlyInAnyOrderElementsOf(rows);
    }

    @Test
    void anOlderRequestReplayedAfterNewerOnesChangesNothing() throws Exception {
        Sink sink = sink("replayed");
        TargetWriter writer = sink.writer(0, 1);
        List<String> rows = new ArrayList<>(write(writer, 2));
        CommitRequest first = sink.request(1, writer.prepareCommit(false));
        rows.addAll(write(writer, 2));
        CommitRequest second = sink.request(2, writer.prepareCommit(true));
        try (TargetCommitter committer = sink.committer()) {
            committer.commit(first);
            committer.commit(second);
        }
        try (TargetCommitter restored = sink.committer()) {
            restored.commit(copy(first));
            restored.commit(copy(second));
        }
        writer.close();
        assertThat(sink.rows()).as("rows after replaying older requests").containsExactlyInAnyOrderElementsOf(rows);
    }

    @Test
    void writersEndingAtDifferentCheckpointsCommitEveryRowOnce() throws Exception {
        Sink sink = sink("ending");
        TargetWriter early = sink.writer(0, 2);
        TargetWriter late = sink.writer(1, 2);
        List<String> rows = new ArrayList<>(write(early, 3));
        rows.addAll(write(late, 2));
        List<PendingCommit> earlyEnd = early.prepareCommit(true); // end of input before checkpoint 1
        List<PendingCommit> cp1 = late.prepareCommit(false);
        rows.addAll(write(late, 2));
        List<PendingCommit> cp2 = new ArrayList<>(earlyEnd); // the framework folds it into the next checkpoint
        cp2.addAll(late.prepareCommit(false));
        rows.addAll(write(late, 1));
        List<PendingCommit> end = late.prepareCommit(true);
        try (TargetCommitter committer = sink.committer()) {
            committer.commit(sink.request(1, cp1));
            committer.commit(sink.request(2, cp2));
            committer.commit(sink.request(Long.MAX_VALUE, end));
        }
        early.close();
        late.close();
        assertThat(sink.rows())
                .as("rows of writers that ended at different checkpoints")
                .containsExactlyInAnyOrderElementsOf(rows);
    }

    @Test
    void aRestoredWriterKeepsWhatItsSnapshotHadAndNothingWrittenAfter() throws Exception {
        Sink sink = sink("restored");
        TargetWriter failing = sink.writer(0, 1);
        List<String> rows = new ArrayList<>(write(failing, 3));
        List<PendingCommit> cp1 = failing.prepareCommit(false);
        List<Payload> state = copies(failing.snapshotState(1));
        write(failing, 2); // after the snapshot: lost with the failure, never committed
        // the task fails: the writer is neither closed nor committed

        TargetWriter restored = targetFactory().createWriter(sink.context(0, 1), state);
        rows.addAll(write(restored, 2));
        List<PendingCommit> end = restored.prepareCommit(true);
        try (TargetCommitter committer = sink.committer()) {
            committer.commit(sink.request(1, cp1));
            committer.commit(sink.request(Long.MAX_VALUE, end));
        }
        restored.close();
        assertThat(sink.rows())
                .as("rows after a restore from the snapshot of checkpoint 1")
                .containsExactlyInAnyOrderElementsOf(rows);
    }

    @Test
    void payloadsOfAnUnknownVersionAreRejectedAndChangeNothing() throws Exception {
        Sink sink = sink("unknown");
        TargetWriter writer = sink.writer(0, 1);
        List<String> rows = write(writer, 2);
        List<PendingCommit> good = writer.prepareCommit(true);
        try (TargetCommitter committer = sink.committer()) {
            committer.commit(sink.request(1, good));
        }
        writer.close();
        int unknown = 0x7fff_fff0;
        Payload alien = new Payload(unknown, new byte[] {1, 2, 3});

        Throwable restore = catchThrowable(() ->
                targetFactory().createWriter(sink.context(0, 1), List.of(alien)).close());
        assertThat(restore)
                .as("a writer restored from state of version %d", unknown)
                .isNotNull();
        assertThat(messages(restore)).as("the error names the version").contains(String.valueOf(unknown));

        Throwable commit;
        try (TargetCommitter committer = sink.committer()) {
            commit = catchThrowable(
                    () -> committer.commit(CommitRequest.of(sink.jobId, OPERATOR, sink.epoch, 2, List.of(alien))));
        }
        assertThat(commit)
                .as("a commit of a pending payload of version %d", unknown)
                .isNotNull();
        assertThat(messages(commit)).as("the error names the version").contains(String.valueOf(unknown));
        assertThat(sink.rows()).as("rows after the rejected payloads").containsExactlyInAnyOrderElementsOf(rows);
    }

    @Test
    void aCommitThatFailsLeavesNothingOfItsRequestVisible() throws Exception {
        Sink sink = sink("failing");
        TargetWriter writer = sink.writer(0, 1);
        write(writer, 3);
        List<Payload> pending = new ArrayList<>(payloads(writer.prepareCommit(true)));
        assertThat(pending).as("what the writer prepared").isNotEmpty();
        pending.add(new Payload(0x7fff_fff0, new byte[] {1}));
        try (TargetCommitter committer = sink.committer()) {
            assertThat(catchThrowable(
                            () -> committer.commit(CommitRequest.of(sink.jobId, OPERATOR, sink.epoch, 1, pending))))
                    .as("a commit with a payload it cannot read")
                    .isNotNull();
        }
        writer.close();
        assertThat(sink.rows()).as("rows after a failed commit").isEmpty();
    }

    // ------------------------------------------------------------------ helpers

    /** One sink writing one new table below {@code tmp/name}. */
    private Sink sink(String name) throws Exception {
        Path dir = tmp.resolve(name);
        Sink sink = new Sink(dir, sinkOptions(dir));
        targetFactory().validate(sink.context(0, 1)); // on the client, before the job: may create the table
        return sink;
    }

    private final class Sink {
        final Path dir;
        final Map<String, String> options;
        final String jobId = UUID.randomUUID().toString().replace("-", "");
        final String epoch = UUID.randomUUID().toString();

        Sink(Path dir, Map<String, String> options) {
            this.dir = dir;
            this.options = options;
        }

        TestSinkContext context(int subtask, int subtasks) {
            return TargetConformance.this.context(options).jobId(jobId).build().forSubtask(subtask, subtasks);
        }

        TargetWriter writer(int subtask, int subtasks) throws IOException {
            return targetFactory().createWriter(context(subtask, subtasks), Collections.emptyList());
        }

        TargetCommitter committer() throws IOException {
            return targetFactory().createCommitter(context(0, 1));
        }

        CommitRequest request(long checkpointId, List<PendingCommit> prepared) {
            return CommitRequest.of(jobId, OPERATOR, epoch, checkpointId, payloads(prepared));
        }

        List<String> rows() throws Exception {
            return committedRows(dir, options);
        }
    }

    /** Writes {@code n} rows with new ids; returns them as {@code id,name}. */
    private List<String> write(TargetWriter writer, int n) throws IOException {
        List<String> written = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long id = nextId++;
            String name = "n" + id + (id % 3 == 0 ? " ü" : "");
            writer.write(GenericRowData.of(id, StringData.fromString(name)), new KitRecordContext(1_000L * id));
            written.add(id + "," + name);
        }
        return written;
    }

    private static CommitRequest copy(CommitRequest r) {
        return CommitRequest.of(r.jobId(), r.operatorId(), r.epoch(), r.checkpointId(), copies(r.pending()));
    }

    private static List<Payload> copies(List<Payload> payloads) {
        List<Payload> copies = new ArrayList<>(payloads.size());
        payloads.forEach(p -> copies.add(new Payload(p.version(), p.bytes().clone())));
        return copies;
    }

    private static String messages(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            b.append(c.getMessage()).append('\n');
        }
        return b.toString();
    }

    /** Processing and event time of a row: the kit's clock, no watermark. */
    private static final class KitRecordContext implements RecordContext {
        private final long time;

        KitRecordContext(long time) {
            this.time = time;
        }

        @Override
        public long currentProcessingTime() {
            return time;
        }

        @Override
        public Long timestamp() {
            return time;
        }

        @Override
        public long currentWatermark() {
            return Long.MIN_VALUE;
        }
    }

    /** The payloads of what writers prepared, in order. */
    private static List<Payload> payloads(List<PendingCommit> prepared) {
        List<Payload> payloads = new ArrayList<>(prepared.size());
        prepared.forEach(p -> payloads.add(p.payload()));
        return payloads;
    }
}
