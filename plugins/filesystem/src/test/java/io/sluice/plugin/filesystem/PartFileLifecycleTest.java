package io.sluice.plugin.filesystem;

import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testkit.TestSinkContext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.sluice.partfiles.testing.PartFileTesting.T0;
import static io.sluice.partfiles.testing.PartFileTesting.at;
import static io.sluice.partfiles.testing.PartFileTesting.commit;
import static io.sluice.partfiles.testing.PartFileTesting.hidden;
import static io.sluice.partfiles.testing.PartFileTesting.row;
import static io.sluice.partfiles.testing.PartFileTesting.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Proves part files go in-progress -> pending (both hidden) -> finished, with OutputFileConfig-style names and counters that never repeat. */
class PartFileLifecycleTest {

    private static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

    @TempDir
    Path tmp;

    private final FileSystemTargetFactory target = new FileSystemTargetFactory();

    @Test
    void inProgressAndPendingFilesAreHiddenUntilTheCommitPublishesThem() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .build();
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList());
                TargetCommitter committer = target.createCommitter(ctx)) {
            writer.write(row("a"), at(T0));
            writer.write(row("b"), at(T0 + 1));

            // in-progress: one hidden file, nothing visible
            Map<String, String> inProgress = hidden(base);
            assertThat(inProgress).hasSize(1);
            String hiddenName = inProgress.keySet().iterator().next();
            assertThat(hiddenName).startsWith(".part-").contains(".inprogress.");
            assertThat(visible(base)).isEmpty();

            // pending: closed, still hidden, holds all the data
            List<PendingCommit> pending = writer.prepareCommit(false);
            assertThat(pending).hasSize(1);
            assertThat(pending.get(0).partition()).isNull(); // base-path bucket
            assertThat(pending.get(0).partitionCreationTime()).isEqualTo(T0);
            assertThat(hidden(base)).containsExactly(Map.entry(hiddenName, "a\nb\n"));
            assertThat(visible(base)).isEmpty();

            // finished: renamed to <prefix>-<uid>-<counter><suffix>
            commit(committer, 1, pending);
            assertThat(hidden(base)).isEmpty();
            Map<String, String> finished = visible(base);
            assertThat(finished).hasSize(1);
            String name = finished.keySet().iterator().next();
            assertThat(name).matches("part-" + UUID + "-0");
            assertThat(finished.get(name)).isEqualTo("a\nb\n");
            // the in-progress name was the hidden form of the final name
            assertThat(hiddenName).startsWith("." + name + ".inprogress.");
        }
    }

    @Test
    void customPrefixAndSuffixNameInProgressAndFinishedFiles() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .option("sink.part-file.prefix", "prefix")
                .option("sink.part-file.suffix", ".ext")
                .build();
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList());
                TargetCommitter committer = target.createCommitter(ctx)) {
            writer.write(row("x"), at(T0));
            assertThat(hidden(base).keySet())
                    .singleElement()
                    .asString()
                    .matches("\\.prefix-" + UUID + "-0\\.ext\\.inprogress\\." + UUID);

            commit(committer, 1, writer.prepareCommit(false));
            writer.write(row("y"), at(T0 + 10));
            assertThat(hidden(base).keySet())
                    .singleElement()
                    .asString()
                    .matches("\\.prefix-" + UUID + "-1\\.ext\\.inprogress\\." + UUID);
            commit(committer, 2, writer.prepareCommit(false));

            Map<String, String> finished = visible(base);
            assertThat(finished.keySet()).hasSize(2).allMatch(n -> n.matches("prefix-" + UUID + "-[01]\\.ext"));
            assertThat(finished.values()).containsExactlyInAnyOrder("x\n", "y\n");
            assertThat(hidden(base)).isEmpty();
        }
    }

    @Test
    void countersContinueWhenAnIdleBucketComesBackSoNoCommittedFileIsOverwritten() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .build();
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList());
                TargetCommitter committer = target.createCommitter(ctx)) {
            for (int cp = 1; cp <= 3; cp++) {
                // the bucket is created, rolled at the checkpoint and dropped as idle, every time
                writer.write(row("cp" + cp), at(T0 + cp));
                commit(committer, cp, writer.prepareCommit(false));
                assertThat(writer.prepareCommit(false)).isEmpty(); // nothing open any more
            }
            Map<String, String> finished = visible(base);
            assertThat(finished).hasSize(3);
            String uid = uidOf(finished.keySet().iterator().next());
            assertThat(finished)
                    .containsExactly(
                            Map.entry("part-" + uid + "-0", "cp1\n"),
                            Map.entry("part-" + uid + "-1", "cp2\n"),
                            Map.entry("part-" + uid + "-2", "cp3\n"));
        }
    }

    @Test
    void countersAreUniqueAcrossBucketsOfOneWriter() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .option("sink.bucket-assigner", "date-time")
                .option("sink.bucket-assigner.date-time.time-zone", "UTC")
                .build();
        long hour = 3_600_000L;
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList());
                TargetCommitter committer = target.createCommitter(ctx)) {
            writer.write(row("h7"), at(T0));
            writer.write(row("h8"), at(T0 + hour));
            commit(committer, 1, writer.prepareCommit(false));
            writer.write(row("h7-again"), at(T0));
            writer.write(row("h9"), at(T0 + 2 * hour));
            commit(committer, 2, writer.prepareCommit(false));
        }
        Map<String, String> finished = visible(base);
        assertThat(finished).hasSize(4);
        Set<String> counters = new HashSet<>();
        finished.keySet().forEach(p -> counters.add(p.substring(p.lastIndexOf('-') + 1)));
        assertThat(counters).containsExactlyInAnyOrder("0", "1", "2", "3");
        assertThat(finished.entrySet())
                .filteredOn(e -> e.getKey().startsWith("2024-03-05--07/"))
                .extracting(Map.Entry::getValue)
                .containsExactlyInAnyOrder("h7\n", "h7-again\n");
    }

    @Test
    void anUnwritableBasePathFailsWithAnIOExceptionNamingThePath() {
        TestSinkContext ctx =
                FileSystemSinks.of(Path.of("/proc/sluice-x"), "lines").build();
        assertThatThrownBy(() -> {
                    try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList())) {
                        writer.write(row("a"), at(T0));
                    }
                })
                .isInstanceOf(IOException.class)
                .hasMessageContaining("/proc/sluice-x");
        assertThat(Path.of("/proc/sluice-x")).doesNotExist();
    }

    static String uidOf(String finishedName) {
        Matcher m = Pattern.compile("(" + UUID + ")").matcher(finishedName);
        assertThat(m.find()).isTrue();
        return m.group(1);
    }
}
