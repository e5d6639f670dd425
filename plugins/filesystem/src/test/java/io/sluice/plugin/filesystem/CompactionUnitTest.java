package io.sluice.plugin.filesystem;

import io.sluice.spi.Payload;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.compact.CompactionInputs;
import io.sluice.spi.compact.CompactionOutput;
import io.sluice.spi.compact.CompactorContext;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.compact.FileCompactorFactory;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testkit.TestSinkContext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static io.sluice.partfiles.testing.PartFileTesting.T0;
import static io.sluice.partfiles.testing.PartFileTesting.at;
import static io.sluice.partfiles.testing.PartFileTesting.hidden;
import static io.sluice.partfiles.testing.PartFileTesting.request;
import static io.sluice.partfiles.testing.PartFileTesting.row;
import static io.sluice.partfiles.testing.PartFileTesting.unit;
import static io.sluice.partfiles.testing.PartFileTesting.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Compaction units on the filesystem target: hidden inputs become one visible file, and a unit
 * handed over again after a failure at any step publishes its rows exactly once.
 */
class CompactionUnitTest {

    @TempDir
    Path tmp;

    private final FileSystemTargetFactory target = new FileSystemTargetFactory();

    /** Compaction on with the named compactor, as the framework runs it when {@code auto-compaction} is on. */
    private TestSinkContext context(String compactor) {
        SluiceFactory[] testCompactors = {new FailingCompactorFactory(), new UppercasingCompactorFactory()};
        FileCompactorFactory chosen =
                FileSystemSinks.extensions(testCompactors).find(FileCompactorFactory.class, compactor);
        return FileSystemSinks.of(tmp.resolve("out"), "lines", testCompactors)
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .option("auto-compaction", "true")
                .option("compaction.compactor", compactor)
                .compactsWith(chosen.createCompactor(null))
                .build();
    }

    /** Three checkpoints of one row each: three hidden pending files for compaction. */
    private List<PendingCommit> threeSmallFiles(TestSinkContext ctx) throws Exception {
        List<PendingCommit> files = new ArrayList<>();
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList())) {
            for (String line : new String[] {"a", "b", "c"}) {
                writer.write(row(line), at(T0));
                files.addAll(writer.prepareCommit(false));
            }
        }
        return files;
    }

    /**
     * The target hands {@code compaction.parallelism} to its committer: two units of one commit
     * run at the same time (each waits for the other: one after another would never end).
     */
    @Test
    void unitsOfOneCommitRunAtTheSameTimeUpToCompactionParallelism() throws Exception {
        java.util.concurrent.CountDownLatch both = new java.util.concurrent.CountDownLatch(2);
        List<Boolean> met = Collections.synchronizedList(new ArrayList<>());
        io.sluice.spi.compact.FileCompactor meeting = (inputs, output) -> {
            both.countDown();
            try {
                met.add(both.await(60, java.util.concurrent.TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                throw new java.io.InterruptedIOException();
            }
            java.io.OutputStream out = output.stream();
            for (org.apache.flink.core.fs.Path file : inputs.files()) {
                try (java.io.InputStream in = inputs.open(file)) {
                    in.transferTo(out);
                }
            }
        };
        TestSinkContext ctx = FileSystemSinks.of(tmp.resolve("out"), "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .option("auto-compaction", "true")
                .option("compaction.parallelism", "2")
                .compactsWith(meeting)
                .build();
        List<PendingCommit> first = threeSmallFiles(ctx);
        List<PendingCommit> second = threeSmallFiles(ctx); // another writer's
        CommitRequest request = request(1, Collections.emptyList(), List.of(unit("", first), unit("", second)));
        try (TargetCommitter committer = target.createCommitter(ctx)) {
            committer.commit(request);
        }
        assertThat(met).containsExactly(true, true);
        assertThat(visible(tmp.resolve("out")).values()).containsExactly("a\nb\nc\n", "a\nb\nc\n");
        assertThat(hidden(tmp.resolve("out"))).isEmpty();
    }

    @Test
    void concatTurnsHiddenFilesIntoOneVisibleFileAndRemovesThem() throws Exception {
        TestSinkContext ctx = context("concat");
        List<PendingCommit> files = threeSmallFiles(ctx);
        assertThat(files).hasSize(3).allSatisfy(f -> {
            assertThat(f.forCompaction()).isTrue();
            assertThat(f.size()).isEqualTo(2);
        });
        CommitRequest request = request(1, Collections.emptyList(), List.of(unit("", files)));
        try (TargetCommitter committer = target.createCommitter(ctx)) {
            committer.commit(request);
        }
        Map<String, String> published = visible(tmp.resolve("out"));
        assertThat(published.values()).containsExactly("a\nb\nc\n");
        assertThat(published.keySet())
                .singleElement()
                .satisfies(name -> assertThat(name).startsWith("part-"));
        assertThat(hidden(tmp.resolve("out"))).isEmpty();

        // handed over again (the checkpoint's acknowledgement was lost): nothing changes
        try (TargetCommitter committer = target.createCommitter(ctx)) {
            committer.commit(request);
        }
        assertThat(visible(tmp.resolve("out"))).isEqualTo(published);
    }

    @Test
    void recordWiseReadsAndWritesRowsWithTheFormat() throws Exception {
        TestSinkContext ctx = context("record-wise");
        List<PendingCommit> files = threeSmallFiles(ctx);
        try (TargetCommitter committer = target.createCommitter(ctx)) {
            committer.commit(request(1, Collections.emptyList(), List.of(unit("", files))));
        }
        assertThat(visible(tmp.resolve("out")).values()).containsExactly("a\nb\nc\n");
        assertThat(hidden(tmp.resolve("out"))).isEmpty();
    }

    @Test
    void aUnitOfOneFileIsRenamed() throws Exception {
        TestSinkContext ctx = context("concat");
        List<PendingCommit> files = threeSmallFiles(ctx);
        try (TargetCommitter committer = target.createCommitter(ctx)) {
            CommitRequest request = request(
                    1, Collections.emptyList(), List.of(unit("", files.subList(0, 1)), unit("", files.subList(1, 3))));
            committer.commit(request);
            committer.commit(request);
        }
        assertThat(visible(tmp.resolve("out")).values()).containsExactlyInAnyOrder("a\n", "b\nc\n");
        assertThat(hidden(tmp.resolve("out"))).isEmpty();
    }

    /** A compactor that transforms records is run on a unit of one file too, when it says it must be. */
    @Test
    void aUnitOfOneFileGoesThroughACompactorThatMustSeeEveryUnit() throws Exception {
        TestSinkContext ctx = context("uppercasing");
        List<PendingCommit> files = threeSmallFiles(ctx);
        try (TargetCommitter committer = target.createCommitter(ctx)) {
            CommitRequest request = request(
                    1, Collections.emptyList(), List.of(unit("", files.subList(0, 1)), unit("", files.subList(1, 3))));
            committer.commit(request);
            committer.commit(request); // handed over again: the one-file unit is not transformed twice
        }
        assertThat(visible(tmp.resolve("out")).values()).containsExactlyInAnyOrder("A\n", "B\nC\n");
        assertThat(hidden(tmp.resolve("out"))).isEmpty();
    }

    @Test
    void aCompactorFailingHalfWayPublishesNothingAndTheRetryPublishesEverythingOnce() throws Exception {
        TestSinkContext failing = context("failing");
        List<PendingCommit> files = threeSmallFiles(failing);
        CommitRequest request = request(1, Collections.emptyList(), List.of(unit("", files)));
        try (TargetCommitter committer = target.createCommitter(failing)) {
            assertThatThrownBy(() -> committer.commit(request))
                    .hasMessageContaining("Compaction of")
                    .hasRootCauseMessage("injected");
        }
        assertThat(visible(tmp.resolve("out"))).isEmpty();

        try (TargetCommitter committer = target.createCommitter(context("concat"))) {
            committer.commit(request);
        }
        assertThat(visible(tmp.resolve("out")).values()).containsExactly("a\nb\nc\n");
    }

    @Test
    void aRetryAfterTheOutputWasPublishedButBeforeTheInputsWereRemovedOnlyRemovesThem() throws Exception {
        TestSinkContext ctx = context("concat");
        List<PendingCommit> files = threeSmallFiles(ctx);
        // stage the inputs as the first attempt did, and keep copies of them
        try (TargetCommitter committer = target.createCommitter(ctx)) {
            committer.commit(request(1, files)); // publishes them under their hidden names
        }
        Map<String, String> staged = hidden(tmp.resolve("out"));
        assertThat(staged).hasSize(3);
        CommitRequest request = request(1, Collections.emptyList(), List.of(unit("", files)));
        try (TargetCommitter committer = target.createCommitter(ctx)) {
            committer.commit(request);
        }
        Map<String, String> published = visible(tmp.resolve("out"));
        // the crash: inputs were still there when the job died
        for (Map.Entry<String, String> e : staged.entrySet()) {
            Files.write(tmp.resolve("out").resolve(e.getKey()), e.getValue().getBytes(StandardCharsets.UTF_8));
        }
        try (TargetCommitter committer = target.createCommitter(ctx)) {
            committer.commit(request);
        }
        assertThat(visible(tmp.resolve("out"))).isEqualTo(published);
        assertThat(published.values()).containsExactly("a\nb\nc\n");
        assertThat(hidden(tmp.resolve("out"))).isEmpty();
    }

    @Test
    void aFileOpenedForCompactionStaysForCompactionAfterCompactionIsSwitchedOff() throws Exception {
        TestSinkContext on = FileSystemSinks.of(tmp.resolve("out"), "lines")
                .option("auto-compaction", "true")
                .compactsWith(new ConcatFileCompactorFactory().createCompactor(null))
                .build();
        List<Payload> state;
        try (TargetWriter writer = target.createWriter(on, Collections.emptyList())) {
            writer.write(row("open"), at(T0));
            assertThat(writer.prepareCommit(false))
                    .as("row format: stays open at the checkpoint")
                    .isEmpty();
            state = writer.snapshotState(1);
        }
        TestSinkContext off = FileSystemSinks.of(tmp.resolve("out"), "lines").build();
        try (TargetWriter writer = target.createWriter(off, state)) {
            writer.write(row("more"), at(T0 + 1));
            List<PendingCommit> pending = writer.prepareCommit(true);
            assertThat(pending)
                    .singleElement()
                    .satisfies(p -> assertThat(p.forCompaction()).isTrue());
            writer.write(row("new"), at(T0 + 2));
            assertThat(writer.prepareCommit(true))
                    .singleElement()
                    .satisfies(p -> assertThat(p.forCompaction())
                            .as("a file opened now")
                            .isFalse());
        }
    }

    /** Test compactor {@code failing}: writes part of the first input, then fails. */
    static final class FailingCompactorFactory implements FileCompactorFactory {
        @Override
        public String identifier() {
            return "failing";
        }

        @Override
        public FileCompactor createCompactor(CompactorContext context) {
            return (CompactionInputs inputs, CompactionOutput output) -> {
                output.stream().write('a');
                throw new IOException("injected");
            };
        }
    }

    /** Upper-cases every byte: a transforming compactor, which must see units of one file too. */
    static final class UppercasingCompactorFactory implements FileCompactorFactory {
        @Override
        public String identifier() {
            return "uppercasing";
        }

        @Override
        public FileCompactor createCompactor(CompactorContext context) {
            return new FileCompactor() {
                @Override
                public void compact(CompactionInputs inputs, CompactionOutput output) throws IOException {
                    for (org.apache.flink.core.fs.Path file : inputs.files()) {
                        try (java.io.InputStream in = inputs.open(file)) {
                            for (byte b : in.readAllBytes()) {
                                output.stream().write(Character.toUpperCase((char) b));
                            }
                        }
                    }
                }

                @Override
                public boolean mustSeeEveryUnit() {
                    return true;
                }
            };
        }
    }
}
