package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testkit.TestSinkContext;

import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static io.sluice.plugin.iceberg.Writes.ids;
import static io.sluice.plugin.iceberg.Writes.request;
import static io.sluice.plugin.iceberg.Writes.snapshots;
import static io.sluice.plugin.iceberg.Writes.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The committer finds its own earlier success in the snapshot summaries: a request committed
 * again (by the same or a new committer, also after later checkpoints) adds no snapshot; other
 * sinks and jobs are told apart; a failed commit leaves the table unchanged.
 */
class IcebergCommitIdempotenceTest {

    private static final String OPERATOR = "00000000000000000000000000000b0b";

    @TempDir
    Path warehouse;

    private final IcebergTargetFactory target = new IcebergTargetFactory();
    private TestSinkContext context;
    private CatalogTable table;

    @BeforeEach
    void createTable() {
        context = IcebergSinks.hadoop(warehouse, Writes.ROW).build();
        target.validate(context);
        table = CatalogTable.load(context.options());
    }

    @Test
    void sameRequestTwiceMakesOneSnapshot() throws Exception {
        List<Payload> pending = writeOnce(1, 100);
        try (TargetCommitter committer = target.createCommitter(context)) {
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 1, pending));
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 1, pending));
        }
        try (TargetCommitter restored = target.createCommitter(context)) {
            restored.commit(request(IcebergSinks.JOB, OPERATOR, 1, pending));
        }
        assertThat(snapshots(table.table())).isEqualTo(1);
        assertThat(ids(table.table())).isEqualTo(range(1, 100));
        Snapshot s = table.table().currentSnapshot();
        assertThat(s.summary())
                .containsEntry("flink.job-id", IcebergSinks.JOB)
                .containsEntry("flink.operator-id", OPERATOR)
                .containsEntry("flink.max-committed-checkpoint-id", "1");
    }

    @Test
    void olderRequestAfterLaterCommitsIsSkipped() throws Exception {
        List<Payload> first = writeOnce(1, 10);
        List<Payload> second = writeOnce(11, 20);
        try (TargetCommitter committer = target.createCommitter(context)) {
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 3, first));
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 4, second));
            // a restore from checkpoint 3 hands both over again
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 3, first));
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 4, second));
        }
        assertThat(snapshots(table.table())).isEqualTo(2);
        assertThat(ids(table.table())).isEqualTo(range(1, 20));
    }

    /**
     * A committer that dies after its commit and before it deleted the request's temporary
     * manifests leaves them: when the request comes again, found committed, they are deleted, and
     * the table is as it was.
     */
    @Test
    void aCommittedRequestHandedOverAgainDeletesItsManifests() throws Exception {
        IcebergTargetFactory listing = new IcebergTargetFactory(0); // every file in a manifest
        List<Payload> pending;
        try (TargetWriter writer = listing.createWriter(context, new ArrayList<>())) {
            pending = write(writer, 1, 10);
        }
        Path metadata = Path.of(java.net.URI.create(table.table().location() + "/metadata"));
        List<Path> manifests = temporaryManifests(metadata);
        assertThat(manifests).hasSize(1);
        byte[] manifest = Files.readAllBytes(manifests.get(0));
        try (TargetCommitter committer = listing.createCommitter(context)) {
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 1, pending));
            assertThat(temporaryManifests(metadata)).isEmpty();
            // as if the committer had died before deleting it
            Files.write(manifests.get(0), manifest);
        }
        try (TargetCommitter restored = listing.createCommitter(context)) {
            restored.commit(request(IcebergSinks.JOB, OPERATOR, 1, pending));
        }
        assertThat(temporaryManifests(metadata)).isEmpty();
        assertThat(snapshots(table.table())).isEqualTo(1);
        assertThat(ids(table.table())).isEqualTo(range(1, 10));
    }

    private static List<Path> temporaryManifests(Path metadata) throws IOException {
        try (Stream<Path> files = Files.list(metadata)) {
            return files.filter(f -> f.getFileName().toString().startsWith("sluice-"))
                    .collect(Collectors.toList());
        }
    }

    @Test
    void endOfInputCheckpointCommitsOnce() throws Exception {
        List<Payload> pending = writeOnce(1, 5);
        try (TargetCommitter committer = target.createCommitter(context)) {
            committer.commit(request(IcebergSinks.JOB, OPERATOR, Long.MAX_VALUE, pending));
            committer.commit(request(IcebergSinks.JOB, OPERATOR, Long.MAX_VALUE, pending));
        }
        assertThat(snapshots(table.table())).isEqualTo(1);
        assertThat(table.table().currentSnapshot().summary())
                .containsEntry("flink.max-committed-checkpoint-id", String.valueOf(Long.MAX_VALUE));
        assertThat(ids(table.table())).isEqualTo(range(1, 5));
    }

    @Test
    void otherJobsAndSinksAreNotMistakenForThisOne() throws Exception {
        List<Payload> a = writeOnce(1, 5);
        List<Payload> b = writeOnce(6, 10);
        List<Payload> c = writeOnce(11, 15);
        try (TargetCommitter committer = target.createCommitter(context)) {
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 7, a));
            committer.commit(request(IcebergSinks.JOB, "00000000000000000000000000000c0c", 1, b));
            committer.commit(request("0000000000000000000000000000000b", OPERATOR, 1, c));
        }
        assertThat(snapshots(table.table())).isEqualTo(3);
        assertThat(ids(table.table())).isEqualTo(range(1, 15));
    }

    @Test
    void writerReturnsNothingForAnEmptyCheckpoint() throws Exception {
        try (TargetWriter writer = target.createWriter(context, new ArrayList<>())) {
            assertThat(writer.prepareCommit(false)).isEmpty();
            assertThat(write(writer, 1, 3)).hasSize(1);
            assertThat(writer.prepareCommit(true)).isEmpty();
            assertThat(writer.snapshotState(1)).hasSize(1); // only the writer's identity
        }
    }

    @Test
    void commitsAreMergedAcrossWritersIntoOneSnapshot() throws Exception {
        List<Payload> pending = new ArrayList<>();
        try (TargetWriter w0 = target.createWriter(context.forSubtask(0, 2), new ArrayList<>());
                TargetWriter w1 = target.createWriter(context.forSubtask(1, 2), new ArrayList<>())) {
            pending.addAll(write(w0, 1, 50));
            pending.addAll(write(w1, 51, 100));
        }
        try (TargetCommitter committer = target.createCommitter(context)) {
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 1, pending));
        }
        assertThat(snapshots(table.table())).isEqualTo(1);
        assertThat(table.table().currentSnapshot().summary()).containsEntry("added-data-files", "2");
        assertThat(ids(table.table())).isEqualTo(range(1, 100));
    }

    @Test
    void failedCommitLeavesTheTableUnchangedAndCanBeRetried() throws Exception {
        List<Payload> committed = writeOnce(1, 10);
        List<Payload> lost = writeOnce(11, 20);
        try (TargetCommitter committer = target.createCommitter(context)) {
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 1, committed));
            // the pending files of checkpoint 2 cannot be read: their payload lost its end
            byte[] bytes = lost.get(0).bytes();
            Payload truncated = new Payload(lost.get(0).version(), java.util.Arrays.copyOf(bytes, bytes.length / 2));
            List<Payload> both = new ArrayList<>(writeOnce(21, 30));
            both.add(truncated);
            assertThatThrownBy(() -> committer.commit(request(IcebergSinks.JOB, OPERATOR, 2, both)))
                    .isInstanceOf(IOException.class);
            assertThat(snapshots(table.table())).isEqualTo(1);
            assertThat(ids(table.table())).isEqualTo(range(1, 10));
            // the next checkpoint still commits
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 3, writeOnce(31, 40)));
        }
        assertThat(ids(table.table())).isEqualTo(concat(range(1, 10), range(31, 40)));
    }

    @Test
    void branchWritesCommitToTheBranchAndCheckItsHistory() throws Exception {
        context = context.toBuilder().option("branch", "audit").build();
        List<Payload> pending = writeOnce(1, 10);
        try (TargetCommitter committer = target.createCommitter(context)) {
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 1, pending));
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 1, pending));
        }
        Table t = table.table();
        t.refresh();
        assertThat(t.currentSnapshot()).as("main is untouched").isNull();
        assertThat(t.snapshot("audit").summary()).containsEntry("flink.max-committed-checkpoint-id", "1");
        assertThat(snapshots(t)).isEqualTo(1);
    }

    private List<Payload> writeOnce(long from, long to) throws Exception {
        try (TargetWriter writer = target.createWriter(context, new ArrayList<>())) {
            return write(writer, from, to);
        }
    }

    private static List<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().collect(Collectors.toList());
    }

    private static List<Long> concat(List<Long> a, List<Long> b) {
        List<Long> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
