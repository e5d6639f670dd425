package io.sluice.plugin.filesystem;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testkit.TestSinkContext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static io.sluice.partfiles.testing.PartFileTesting.T0;
import static io.sluice.partfiles.testing.PartFileTesting.at;
import static io.sluice.partfiles.testing.PartFileTesting.files;
import static io.sluice.partfiles.testing.PartFileTesting.hidden;
import static io.sluice.partfiles.testing.PartFileTesting.request;
import static io.sluice.partfiles.testing.PartFileTesting.row;
import static io.sluice.partfiles.testing.PartFileTesting.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Proves a commit retried after success (same or new committer, also after later commits) changes nothing. */
class CommitIdempotencyTest {

    @TempDir
    Path tmp;

    private final FileSystemTargetFactory target = new FileSystemTargetFactory();

    @Test
    void committingTheSameRequestTwiceLeavesTheSameFilesAndContent() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .option("sink.bucket-assigner", "date-time")
                .option("sink.bucket-assigner.date-time.time-zone", "UTC")
                .build();
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList());
                TargetCommitter committer = target.createCommitter(ctx)) {
            writer.write(row("a"), at(T0));
            writer.write(row("b"), at(T0 + 3_600_000L)); // a second bucket, a second file
            CommitRequest request = request(1, writer.prepareCommit(false));
            assertThat(request.pending()).hasSize(2);

            committer.commit(request);
            Map<String, String> afterFirst = files(base);
            assertThat(afterFirst).hasSize(2);
            assertThat(hidden(base)).isEmpty();
            Map<String, FileTime> times = modificationTimes(base, afterFirst);

            // retry after an unacknowledged success: the pending files are already renamed
            committer.commit(request);
            assertThat(files(base)).isEqualTo(afterFirst);
            assertThat(modificationTimes(base, afterFirst)).isEqualTo(times);
        }
    }

    @Test
    void aReplayedOlderCommitByANewCommitterIsANoOp() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .build();
        CommitRequest first;
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList());
                TargetCommitter committer = target.createCommitter(ctx)) {
            writer.write(row("one"), at(T0));
            first = request(1, writer.prepareCommit(false));
            committer.commit(first);
            writer.write(row("two"), at(T0 + 1));
            committer.commit(request(2, writer.prepareCommit(false)));
        }
        Map<String, String> committed = visible(base);
        assertThat(committed.values()).containsExactlyInAnyOrder("one\n", "two\n");

        // after a restore the framework replays checkpoint 1 to a fresh committer
        try (TargetCommitter restored = target.createCommitter(ctx)) {
            restored.commit(first);
            restored.commit(first);
        }
        assertThat(files(base)).isEqualTo(committed);
    }

    @Test
    void anEmptyRequestCommitsNothing() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines").build();
        try (TargetCommitter committer = target.createCommitter(ctx)) {
            committer.commit(request(1, Collections.emptyList()));
        }
        assertThat(files(base)).isEmpty();
    }

    @Test
    void aPendingPayloadOfAnUnknownVersionIsRejected() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines").build();
        List<PendingCommit> bogus = List.of(new PendingCommit(new Payload(99, new byte[] {1, 2}), null, T0));
        try (TargetCommitter committer = target.createCommitter(ctx)) {
            assertThatThrownBy(() -> committer.commit(request(1, bogus)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("99");
        }
    }

    private static Map<String, FileTime> modificationTimes(Path base, Map<String, String> files) throws IOException {
        Map<String, FileTime> times = new java.util.TreeMap<>();
        for (String f : files.keySet()) {
            times.put(f, Files.getLastModifiedTime(base.resolve(f)));
        }
        return times;
    }
}
