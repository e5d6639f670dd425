package io.sluice.testkit;

import io.sluice.runtime.source.file.EnumeratorHarness;
import io.sluice.runtime.source.file.EnumeratorState;
import io.sluice.runtime.source.file.EnumeratorStateSerializer;
import io.sluice.spi.source.FileEnumeratorFactory;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.enumerate.FileEnumerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Conformance tests for a {@link FileEnumeratorFactory}: extend this class in a plugin's tests,
 * return the factory from {@link #enumeratorFactory()}, and JUnit 5 runs every check below
 * against it. The factory is created directly (no plugin loading) and gets a {@link
 * TestSourceContext} with {@link #options()}.
 *
 * <p>Each test lays out a source directory: data files with known sizes and modification times
 * (some in subdirectories), plus files no enumerator may ever list: hidden files ({@code .x}),
 * in-progress part files ({@code .part-...inprogress...}), {@code _}-prefixed files such as
 * {@code _SUCCESS}, and files under {@code .}/{@code _}-prefixed staging directories. The kit then
 * calls {@link #prepare(Path, Set)}, where an enumerator that does not simply list a directory
 * publishes the files its own way (a manifest, a marker) and says which of them it must list. A
 * continuous read adds a second round of files, one of them an in-progress file renamed into
 * place with its older modification time kept, as a sink's commit does.
 *
 * <p>The checks:
 *
 * <ul>
 *   <li>every expected file is listed, exactly once, nothing else is, and listing again yields
 *       the same files: each split carries the file's size and modification time, and the splits
 *       of a file cover it from 0 to its size without gap or overlap;
 *   <li>split ids are unique among everything one enumerator lists (the framework's split
 *       enumerator replaces them with ids made from file, offset and modification time, so they
 *       stay unique across restores too);
 *   <li>hidden, in-progress and {@code _}-prefixed files are never listed;
 *   <li>in the framework's continuous split enumerator, with the factory created for a continuous
 *       read ({@link SourceContext#boundedness()} {@code CONTINUOUS_UNBOUNDED}), files added after
 *       a listing are handed out exactly once, and after a restore from the serialized enumerator
 *       state no file is handed out again and none is skipped; for a factory that refuses
 *       continuous reads ({@link #readsContinuously()} false) these two are skipped and the kit
 *       checks instead that {@code create} refuses a continuous context with an {@link
 *       IllegalArgumentException};
 *   <li>invalid options ({@link #invalidOptions()}) fail {@code create} with an {@link
 *       IllegalArgumentException} naming the option.
 * </ul>
 *
 * <p>Modification times are fixed in the past and never closer together than a second, so the
 * checks do not depend on the clock or on the time resolution of the file system.
 */
public abstract class FileEnumeratorConformance {

    /** The readers of the tested source; passed to the enumerator as its desired split count. */
    private static final int PARALLELISM = 2;

    /** 2023-11-14T22:13:20Z: files are old, as in a real directory, and times are whole seconds. */
    private static final long BASE_TIME = 1_700_000_000_000L;

    /** The second round comes a minute after the first. */
    private static final long ROUND_TWO_TIME = BASE_TIME + 60_000;

    /** Sub-classes are JUnit test classes. */
    protected FileEnumeratorConformance() {}

    // ---------------------------------------------------------------- what a plugin author supplies

    /** The factory under test, created directly (a new instance each call is fine). */
    protected abstract FileEnumeratorFactory enumeratorFactory();

    /** The options the factory gets in every check but {@link #rejectsInvalidOptions()}. */
    protected Map<String, String> options() {
        return Collections.emptyMap();
    }

    /**
     * Options the factory must reject with an {@link IllegalArgumentException} from {@code create};
     * {@code null} (the default) skips that check, for a factory without options.
     */
    protected Map<String, String> invalidOptions() {
        return null;
    }

    /**
     * Publishes the data files the kit has just written and returns those the enumerator must
     * list. Called once per round of files: first for the initial directory, then again when a
     * continuous read's check adds files; {@code written} holds only the new round's files, and
     * the files returned before must stay listed.
     *
     * <p>The default returns every written file: right for an enumerator that lists all visible
     * files under the path recursively. An enumerator that reads only some files (those a manifest
     * names, those at the top level, those with a suffix) publishes them here and returns them.
     *
     * @param dir the source path the enumerator is given
     * @param written the data files of this round, as paths relative to {@code dir} with {@code /}
     *     separators; the never-listed files are not among them
     * @return the files of {@code written} that the enumerator must list from now on
     */
    protected Set<String> prepare(Path dir, Set<String> written) throws IOException {
        return written;
    }

    /** The suffix of the data files' names (for an enumerator that selects files by suffix). */
    protected String fileSuffix() {
        return ".data";
    }

    /** The context the factory is created with; override to give a row type or partition keys. */
    protected SourceContext sourceContext(Map<String, String> options) {
        return new TestSourceContext(options);
    }

    /**
     * The context of a continuous read: {@link #sourceContext} made {@link
     * TestSourceContext#continuous()}. Override it too if {@code sourceContext} returns another
     * kind of context.
     */
    protected SourceContext continuousSourceContext(Map<String, String> options) {
        SourceContext context = sourceContext(options);
        if (context instanceof TestSourceContext) {
            return ((TestSourceContext) context).continuous();
        }
        throw new IllegalStateException(
                "sourceContext() returns a " + context.getClass().getName()
                        + ", not a TestSourceContext: override continuousSourceContext() to give a continuous one");
    }

    /**
     * Whether the factory serves continuous reads ({@code source.monitor-interval} set); false for
     * one that lists once and must refuse a continuous context with an {@link
     * IllegalArgumentException} from {@code create} (the kit checks that it does).
     */
    protected boolean readsContinuously() {
        return true;
    }

    // ---------------------------------------------------------------- the checks

    /** Every expected file once, with its size and modification time, its splits covering it. */
    @Test
    void listsEveryExpectedFileOnceWithItsSizeAndModificationTime(@TempDir Path dir) throws Exception {
        SourceDirectory source = new SourceDirectory(dir);
        source.writeFirstRound();
        FileEnumerator enumerator = createEnumerator();

        List<FileSourceSplit> first = list(enumerator, dir);
        assertExactlyCovered(source, first, "the first listing");
        // the framework, not the enumerator, remembers what was read: every listing lists all
        List<FileSourceSplit> second = list(enumerator, dir);
        assertExactlyCovered(
                source,
                second,
                "a second listing of the same directory (an enumerator lists every "
                        + "file that is there, not only the new ones)");

        List<FileSourceSplit> both = new ArrayList<>(first);
        both.addAll(second);
        assertUniqueIds(both, "the splits of two listings by one enumerator");
    }

    /** Hidden, in-progress and {@code _}-prefixed files, and whatever is below such directories. */
    @Test
    void neverListsHiddenInProgressOrUnderscoreFiles(@TempDir Path dir) throws Exception {
        SourceDirectory source = new SourceDirectory(dir);
        source.writeFirstRound();
        FileEnumerator enumerator = createEnumerator();
        assertNothingHidden(source, list(enumerator, dir), "the first listing");

        source.writeSecondRound();
        assertNothingHidden(source, list(enumerator, dir), "a listing after more files arrived");
    }

    /** A continuous read hands out the first files and the ones added later, each exactly once. */
    @Test
    void continuousReadHandsOutEveryNewFileExactlyOnce(@TempDir Path dir) throws Exception {
        assumeTrue(readsContinuously(), "readsContinuously() is false: the factory refuses continuous reads");
        SourceDirectory source = new SourceDirectory(dir);
        source.writeFirstRound();
        TestSplitEnumeratorContext<FileSourceSplit> context = new TestSplitEnumeratorContext<>(PARALLELISM);
        try (SplitEnumerator<FileSourceSplit, EnumeratorState> enumerator =
                EnumeratorHarness.continuous(context, createContinuousEnumerator(), paths(dir), options())) {
            enumerator.start();
            context.runPeriodicCalls();
            context.runPeriodicCalls(); // nothing changed: nothing new to hand out
            drain(enumerator, context);
            assertExactlyCovered(source, context.assignedSplits(), "the splits handed out after the first listings");

            source.writeSecondRound();
            context.runPeriodicCalls();
            context.runPeriodicCalls();
            drain(enumerator, context);
            assertExactlyCovered(
                    source,
                    context.assignedSplits(),
                    "the splits handed out after files were added (including one renamed into place with an older "
                            + "modification time)");
            assertUniqueIds(context.assignedSplits(), "the splits one enumerator handed out");
        }
    }

    /**
     * After a restore from the serialized checkpoint, the splits handed out before the checkpoint
     * and those handed out after the restore are every expected split, once. Files added after
     * the checkpoint are handed out by the failed enumerator too; that is lost with the failure
     * and must happen again.
     */
    @Test
    void restoredReadNeitherRepeatsNorSkipsFiles(@TempDir Path dir) throws Exception {
        assumeTrue(readsContinuously(), "readsContinuously() is false: the factory refuses continuous reads");
        SourceDirectory source = new SourceDirectory(dir);
        source.writeFirstRound();
        EnumeratorStateSerializer serializer = new EnumeratorStateSerializer();

        TestSplitEnumeratorContext<FileSourceSplit> before = new TestSplitEnumeratorContext<>(PARALLELISM);
        byte[] checkpoint;
        List<FileSourceSplit> handedOut;
        try (SplitEnumerator<FileSourceSplit, EnumeratorState> enumerator =
                EnumeratorHarness.continuous(before, createContinuousEnumerator(), paths(dir), options())) {
            enumerator.start();
            before.runPeriodicCalls();
            // hand out about half, so the checkpoint holds both assigned and pending splits
            int pending = enumerator.snapshotState(0).pendingSplits().size();
            for (int i = 0; i < pending / 2; i++) {
                enumerator.handleSplitRequest(i % PARALLELISM, "localhost");
            }
            checkpoint = serializer.serialize(enumerator.snapshotState(1));
            handedOut = new ArrayList<>(before.assignedSplits());

            // the job goes on after the checkpoint, then fails: nothing from here on counts
            source.writeSecondRound();
            before.runPeriodicCalls();
            drain(enumerator, before);
        }

        TestSplitEnumeratorContext<FileSourceSplit> after = new TestSplitEnumeratorContext<>(PARALLELISM);
        EnumeratorState restoredState = serializer.deserialize(serializer.getVersion(), checkpoint);
        try (SplitEnumerator<FileSourceSplit, EnumeratorState> restored = EnumeratorHarness.restoreContinuous(
                after, createContinuousEnumerator(), paths(dir), options(), restoredState)) {
            restored.start();
            after.runPeriodicCalls();
            after.runPeriodicCalls();
            drain(restored, after);
        }
        handedOut.addAll(after.assignedSplits());
        assertExactlyCovered(
                source,
                handedOut,
                "the splits handed out before the checkpoint plus those handed out after the restore");
    }

    /** {@link #invalidOptions()} fail {@code create} with an exception naming an option. */
    @Test
    void rejectsInvalidOptions() {
        Map<String, String> invalid = invalidOptions();
        assumeTrue(
                invalid != null, "invalidOptions() is null: the factory has no options to get wrong, nothing to check");
        assertThatThrownBy(() -> enumeratorFactory().create(sourceContext(invalid)))
                .as("create() with the invalid options %s", invalid)
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(invalid.keySet())
                        .as(
                                "options named in the message '%s' (the SPI asks for the option and the value)",
                                e.getMessage())
                        .anyMatch(
                                key -> e.getMessage() != null && e.getMessage().contains(key)));
    }

    /** A factory that says it refuses continuous reads does, clearly, and still serves bounded ones. */
    @Test
    void refusesAContinuousReadIfItSaysSo() {
        assumeTrue(!readsContinuously(), "readsContinuously() is true: continuous reads are checked above");
        assertThat(createEnumerator()).as("create() for a bounded read").isNotNull();
        assertThatThrownBy(() -> enumeratorFactory().create(continuousSourceContext(options())))
                .as("create() for a continuous read, which readsContinuously() says the factory refuses")
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e ->
                        assertThat(e.getMessage()).as("the refusal's message").isNotBlank());
    }

    // ---------------------------------------------------------------- helpers

    private FileEnumerator createContinuousEnumerator() {
        return enumeratorFactory().create(continuousSourceContext(options()));
    }

    private FileEnumerator createEnumerator() {
        return enumeratorFactory().create(sourceContext(options()));
    }

    private static org.apache.flink.core.fs.Path[] paths(Path dir) {
        return new org.apache.flink.core.fs.Path[] {new org.apache.flink.core.fs.Path(dir.toUri())};
    }

    private static List<FileSourceSplit> list(FileEnumerator enumerator, Path dir) throws IOException {
        Collection<FileSourceSplit> splits = enumerator.enumerateSplits(paths(dir), PARALLELISM);
        assertThat(splits).as("enumerateSplits result").isNotNull();
        return new ArrayList<>(splits);
    }

    /** Requests splits, readers in turn, until a request yields none (that reader then waits). */
    private static void drain(
            SplitEnumerator<FileSourceSplit, ?> enumerator, TestSplitEnumeratorContext<FileSourceSplit> context) {
        for (int request = 0; request < 1_000_000; request++) {
            int before = context.assignedSplits().size();
            enumerator.handleSplitRequest(request % PARALLELISM, "localhost");
            if (context.assignedSplits().size() == before) {
                return;
            }
        }
        fail("The split enumerator handed out a million splits for a directory of a few files");
    }

    private static void assertUniqueIds(List<FileSourceSplit> splits, String what) {
        List<String> ids = new ArrayList<>();
        splits.forEach(s -> ids.add(s.splitId()));
        assertThat(ids)
                .as("split ids of %s (a reader keys its split state by id)", what)
                .doesNotHaveDuplicates();
    }

    private static void assertNothingHidden(SourceDirectory source, List<FileSourceSplit> splits, String when) {
        for (FileSourceSplit split : splits) {
            String relative = source.relative(split);
            for (String part : relative.split("/")) {
                assertThat(part.startsWith(".") || part.startsWith("_"))
                        .as(
                                "%s lists %s: a name starting with '.' or '_' (hidden, in-progress, success or staging "
                                        + "file or directory) is never read",
                                when, relative)
                        .isFalse();
            }
        }
    }

    /**
     * The splits are exactly the expected files: each file's splits carry its size and
     * modification time and cover it from 0 to its size, neither overlapping nor leaving a gap.
     */
    private static void assertExactlyCovered(SourceDirectory source, List<FileSourceSplit> splits, String what)
            throws IOException {
        Map<String, List<FileSourceSplit>> byFile = new TreeMap<>();
        for (FileSourceSplit split : splits) {
            byFile.computeIfAbsent(source.relative(split), k -> new ArrayList<>())
                    .add(split);
        }
        assertThat(byFile.keySet()).as("files in %s", what).containsExactlyInAnyOrderElementsOf(source.expected);

        for (Map.Entry<String, List<FileSourceSplit>> e : byFile.entrySet()) {
            Path file = source.root.resolve(e.getKey());
            long size = Files.size(file);
            long modified = Files.getLastModifiedTime(file).toMillis();
            List<FileSourceSplit> fileSplits = e.getValue();
            fileSplits.sort(Comparator.comparingLong(FileSourceSplit::offset));
            long next = 0;
            for (FileSourceSplit split : fileSplits) {
                String at = what + ", split " + split;
                assertThat(split.fileSize()).as("file size of %s", at).isEqualTo(size);
                assertThat(split.fileModificationTime())
                        .as("modification time of %s", at)
                        .isEqualTo(modified);
                assertThat(split.offset())
                        .as(
                                "offset of %s (the previous split ends at %s: %s)",
                                at, next, split.offset() < next ? "an overlap, or the same split twice" : "a gap")
                        .isEqualTo(next);
                // an empty file is one empty split; any other empty split is a split handed out for nothing
                assertThat(split.length() > 0 || size == 0)
                        .as("length of %s is positive", at)
                        .isTrue();
                next = split.offset() + split.length();
            }
            assertThat(next)
                    .as("end of the last split of %s in %s (the file's size is %s)", e.getKey(), what, size)
                    .isEqualTo(size);
            if (size == 0) {
                assertThat(fileSplits)
                        .as("splits of the empty file %s in %s", e.getKey(), what)
                        .hasSize(1);
            }
        }
    }

    /** The files the kit writes, and the ones the author said the enumerator lists. */
    private final class SourceDirectory {
        final Path root;
        final Set<String> expected = new TreeSet<>();

        SourceDirectory(Path root) {
            this.root = root.toAbsolutePath();
        }

        void writeFirstRound() throws IOException {
            String s = fileSuffix();
            Set<String> written = new TreeSet<>();
            // sizes: empty, one byte, and a few larger ones a splitting enumerator may cut
            written.add(write("a" + s, 0, BASE_TIME));
            written.add(write("b" + s, 1, BASE_TIME + 1_000));
            written.add(write("sub/c" + s, 1_000, BASE_TIME + 2_000));
            written.add(write("sub/deeper/d" + s, 70_000, BASE_TIME + 4_000));
            written.add(write("year=2024/e" + s, 10, BASE_TIME + 5_000));

            write(".hidden" + s, 10, BASE_TIME);
            write(".part-5f2e-0.inprogress.7a1c", 20, BASE_TIME + 1_000);
            write("_SUCCESS", 0, BASE_TIME + 5_000);
            write("_temporary/0/part-0" + s, 30, BASE_TIME + 2_000);
            write(".staging/part-1" + s, 30, BASE_TIME + 2_000);
            write("sub/_common_metadata", 5, BASE_TIME + 2_000);
            // becomes visible in the second round, keeping this older modification time
            write("sub/.part-5f2e-1.inprogress.9b3d", 800, BASE_TIME + 3_000);

            publish(written);
        }

        void writeSecondRound() throws IOException {
            String s = fileSuffix();
            Set<String> written = new TreeSet<>();
            written.add(write("f" + s, 2_000, ROUND_TWO_TIME));
            written.add(write("sub/g" + s, 5, ROUND_TWO_TIME + 1_000));
            written.add(write("new-dir/h" + s, 300, ROUND_TWO_TIME + 2_000));
            // a sink commits by renaming: the file appears with a time older than files already read
            Path renamed = root.resolve("sub/part-5f2e-1" + s);
            Files.move(root.resolve("sub/.part-5f2e-1.inprogress.9b3d"), renamed);
            Files.setLastModifiedTime(renamed, FileTime.fromMillis(BASE_TIME + 3_000));
            written.add("sub/part-5f2e-1" + s);

            write(".part-5f2e-2.inprogress.1d4e", 40, ROUND_TWO_TIME + 3_000);
            write("new-dir/_SUCCESS", 0, ROUND_TWO_TIME + 3_000);
            publish(written);
        }

        private void publish(Set<String> written) throws IOException {
            Set<String> listed = prepare(root, Collections.unmodifiableSet(written));
            assertThat(listed).as("what prepare() returns").isNotNull();
            assertThat(written)
                    .as("the files the kit wrote in this round (prepare() returns some of them)")
                    .containsAll(listed);
            expected.addAll(listed);
            assertThat(expected)
                    .as("the files prepare() expects to be listed (none: nothing to check)")
                    .isNotEmpty();
        }

        /** Writes a file of the given size (parents created) and sets its modification time. */
        private String write(String relative, int size, long modificationTime) throws IOException {
            Path file = root.resolve(relative);
            Files.createDirectories(file.getParent());
            byte[] bytes = new byte[size];
            for (int i = 0; i < size; i++) {
                bytes[i] = (byte) ('a' + i % 26); // readable, and different at every offset in a line
            }
            Files.write(file, bytes);
            Files.setLastModifiedTime(file, FileTime.fromMillis(modificationTime));
            return relative;
        }

        /** The split's file relative to the root, with {@code /} separators; fails outside it. */
        String relative(FileSourceSplit split) {
            Path file = Paths.get(split.path().toUri()).toAbsolutePath().normalize();
            if (!file.startsWith(root)) {
                fail("Split " + split + " is for a file outside the source path " + root);
            }
            return root.relativize(file).toString().replace(File.separatorChar, '/');
        }
    }
}
