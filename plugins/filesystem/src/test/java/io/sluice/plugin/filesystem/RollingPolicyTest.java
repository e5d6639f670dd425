package io.sluice.plugin.filesystem;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testkit.TestSinkContext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static io.sluice.partfiles.testing.PartFileTesting.T0;
import static io.sluice.partfiles.testing.PartFileTesting.at;
import static io.sluice.partfiles.testing.PartFileTesting.commit;
import static io.sluice.partfiles.testing.PartFileTesting.hidden;
import static io.sluice.partfiles.testing.PartFileTesting.row;
import static io.sluice.partfiles.testing.PartFileTesting.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Proves when part files roll: default policy by size, rollover and inactivity; on-checkpoint; bulk formats at every checkpoint. */
class RollingPolicyTest {

    private static final long MINUTE = 60_000L;

    @TempDir
    Path tmp;

    private final FileSystemTargetFactory target = new FileSystemTargetFactory();

    @Test
    void defaultPolicyRollsAFileThatExceedsTheSizeOnTheNextEventAndAtACheckpoint() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.file-size", "10b")
                .build();
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList());
                TargetCommitter committer = target.createCommitter(ctx)) {
            writer.write(row("r001"), at(T0)); // 5 bytes
            writer.write(row("r002"), at(T0)); // 10: not more than the size
            writer.write(row("r003"), at(T0)); // 15
            assertThat(hidden(base)).hasSize(1);
            writer.write(row("r004"), at(T0)); // the open file exceeds 10 bytes: rolls before this row
            assertThat(hidden(base).values()).containsExactlyInAnyOrder("r001\nr002\nr003\n", "r004\n");

            // at the checkpoint only the rolled file is pending; the 5-byte file stays open
            List<PendingCommit> cp1 = writer.prepareCommit(false);
            assertThat(cp1).hasSize(1);
            commit(committer, 1, cp1);
            assertThat(visible(base).values()).containsExactly("r001\nr002\nr003\n");

            writer.write(row("r005"), at(T0));
            writer.write(row("r006"), at(T0)); // 15 bytes: rolls at the checkpoint, not later
            List<PendingCommit> cp2 = writer.prepareCommit(false);
            assertThat(cp2).hasSize(1);
            commit(committer, 2, cp2);
            assertThat(visible(base).values()).containsExactlyInAnyOrder("r001\nr002\nr003\n", "r004\nr005\nr006\n");
            assertThat(hidden(base)).isEmpty();
            assertThat(visible(base).keySet()).allMatch(n -> n.endsWith("-0") || n.endsWith("-1"));
        }
    }

    @Test
    void defaultPolicyRollsOnRolloverIntervalAtProcessingTime() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.rollover-interval", "10 min")
                .option("sink.rolling-policy.check-interval", "5 s")
                .build();
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList())) {
            assertThat(writer.processingTimeInterval()).isEqualTo(5_000L);
            writer.write(row("a"), at(T0));
            writer.write(row("b"), at(T0 + 9 * MINUTE)); // activity does not extend the rollover interval
            writer.onProcessingTime(T0 + 10 * MINUTE - 1);
            assertThat(writer.prepareCommit(false)).isEmpty();

            writer.onProcessingTime(T0 + 10 * MINUTE);
            writer.write(row("c"), at(T0 + 10 * MINUTE)); // goes to a new file
            List<PendingCommit> pending = writer.prepareCommit(false);
            assertThat(pending).hasSize(1);
            assertThat(hidden(base).values()).containsExactlyInAnyOrder("a\nb\n", "c\n");
        }
    }

    @Test
    void defaultPolicyRollsOnInactivityAtProcessingTime() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.inactivity-interval", "1 min")
                .build();
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList());
                TargetCommitter committer = target.createCommitter(ctx)) {
            assertThat(writer.processingTimeInterval()).isEqualTo(MINUTE); // check-interval default
            writer.write(row("a"), at(T0));
            writer.write(row("b"), at(T0 + 50_000)); // keeps the file active
            writer.onProcessingTime(T0 + 50_000 + MINUTE - 1);
            assertThat(writer.prepareCommit(false)).isEmpty();

            writer.onProcessingTime(T0 + 50_000 + MINUTE);
            List<PendingCommit> pending = writer.prepareCommit(false);
            assertThat(pending).hasSize(1);
            commit(committer, 1, pending);
            // the bucket went idle and comes back: a new file with the next counter
            writer.write(row("c"), at(T0 + 3 * MINUTE));
            commit(committer, 2, writer.prepareCommit(true));
        }
        Map<String, String> finished = visible(base);
        assertThat(finished.values()).containsExactlyInAnyOrder("a\nb\n", "c\n");
        assertThat(finished.keySet()).anyMatch(n -> n.endsWith("-0")).anyMatch(n -> n.endsWith("-1"));
    }

    @Test
    void onCheckpointPolicyRollsAtEveryCheckpointAndNeverOnEventsOrTimers() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .option("sink.rolling-policy.file-size", "1b")
                .option("sink.rolling-policy.rollover-interval", "1 ms")
                .option("sink.rolling-policy.inactivity-interval", "1 ms")
                .build();
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList());
                TargetCommitter committer = target.createCommitter(ctx)) {
            for (int i = 0; i < 5; i++) {
                writer.write(row("row" + i), at(T0 + i * MINUTE));
            }
            writer.onProcessingTime(T0 + 60 * MINUTE);
            assertThat(hidden(base)).hasSize(1);
            List<PendingCommit> cp1 = writer.prepareCommit(false);
            assertThat(cp1).hasSize(1);
            commit(committer, 1, cp1);
            assertThat(writer.prepareCommit(false)).isEmpty(); // nothing written since
            writer.write(row("row5"), at(T0 + 61 * MINUTE));
            commit(committer, 3, writer.prepareCommit(false));
        }
        assertThat(visible(base).values()).containsExactlyInAnyOrder("row0\nrow1\nrow2\nrow3\nrow4\n", "row5\n");
        assertThat(hidden(base)).isEmpty();
    }

    @Test
    void bulkFormatsRollAtEveryCheckpointEvenWithTheDefaultPolicy() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "bulk-lines").build(); // default policy, 128mb
        List<Payload> state;
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList());
                TargetCommitter committer = target.createCommitter(ctx)) {
            writer.write(row("b1"), at(T0));
            writer.write(row("b2"), at(T0));
            assertThat(hidden(base).values()).containsExactly(""); // a bulk writer writes on finish()
            List<PendingCommit> cp1 = writer.prepareCommit(false);
            assertThat(cp1).hasSize(1);
            assertThat(hidden(base).values()).containsExactly("b1\nb2\n");
            commit(committer, 1, cp1);

            writer.write(row("b3"), at(T0 + 1));
            List<PendingCommit> cp2 = writer.prepareCommit(false);
            assertThat(cp2).hasSize(1);
            state = writer.snapshotState(2); // nothing open: nothing to resume
            commit(committer, 2, cp2);
        }
        assertThat(visible(base).values()).containsExactlyInAnyOrder("b1\nb2\n", "b3\n");
        try (TargetWriter restored = target.createWriter(ctx, state)) {
            assertThat(restored.prepareCommit(true)).isEmpty();
        }
        assertThat(hidden(base)).isEmpty();
    }

    @Test
    void bulkFormatsStillRollOnTheDefaultPolicysTimers() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "bulk-lines")
                .option("sink.rolling-policy.rollover-interval", "1 min")
                .build();
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList())) {
            writer.write(row("b1"), at(T0));
            writer.onProcessingTime(T0 + MINUTE);
            assertThat(hidden(base).values()).containsExactly("b1\n"); // finished by the roll
            writer.write(row("b2"), at(T0 + MINUTE));
            assertThat(writer.prepareCommit(false)).hasSize(2);
        }
    }

    @Test
    void aNonPositiveFileSizeIsRejectedNamingTheOption() {
        TestSinkContext ctx = FileSystemSinks.of(tmp.resolve("out"), "lines")
                .option("sink.rolling-policy.file-size", "0b")
                .build();
        assertThatThrownBy(() -> target.validate(ctx))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sink.rolling-policy.file-size")
                .hasMessageContaining("0");
    }
}
