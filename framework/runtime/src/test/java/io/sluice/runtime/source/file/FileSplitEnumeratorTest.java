package io.sluice.runtime.source.file;

import io.sluice.runtime.source.TestEnumeratorContext;

import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.enumerate.NonSplittingRecursiveEnumerator;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The continuous split enumerator on a real directory: each file is handed out exactly once, also
 * across a restore from its checkpointed state, and a directory of 100,000 files accumulated over
 * time leaves a state of a few kilobytes, not one entry per file ever read.
 */
class FileSplitEnumeratorTest {

    @TempDir
    java.nio.file.Path dir;

    @Test
    void everyNewFileOnceAcrossListingsAndRestore() throws Exception {
        TestEnumeratorContext<FileSourceSplit> context = new TestEnumeratorContext<>();
        FileSplitEnumerator enumerator = continuous(context, new SeenFiles(3_600_000), new ArrayList<>());
        enumerator.start();
        write("a.csv", 1_000_000);
        write("b.csv", 2_000_000);
        context.runPeriodic();
        context.runPeriodic(); // listing again finds nothing new
        enumerator.handleSplitRequest(0, null);
        enumerator.handleSplitRequest(0, null);
        enumerator.handleSplitRequest(0, null); // waits for more
        assertThat(names(context.assigned())).containsExactlyInAnyOrder("a.csv", "b.csv");

        EnumeratorStateSerializer serializer = new EnumeratorStateSerializer();
        byte[] checkpoint = serializer.serialize(enumerator.snapshotState(1));
        write("c.csv", 3_000_000);
        write(".c.csv.inprogress.x", 3_000_000);

        // restore: the files read before are not read again, the new one is
        TestEnumeratorContext<FileSourceSplit> restoredContext = new TestEnumeratorContext<>();
        EnumeratorState state = serializer.deserialize(serializer.getVersion(), checkpoint);
        FileSplitEnumerator restored = continuous(restoredContext, state.seen(), state.pendingSplits());
        restored.start();
        restoredContext.runPeriodic();
        restored.handleSplitRequest(1, null);
        restored.handleSplitRequest(1, null);
        assertThat(names(restoredContext.assigned())).containsExactly("c.csv");
    }

    @Test
    void stateStaysSmallForAHundredThousandFiles() throws Exception {
        int files = 100_000;
        long lookback = 60_000;
        // one file a second: the directory holds 100,000 s of files, the newest minute is remembered
        for (int i = 0; i < files; i++) {
            write("f" + i + ".csv", 1_000_000_000L + i * 1000L);
        }
        TestEnumeratorContext<FileSourceSplit> context = new TestEnumeratorContext<>();
        FileSplitEnumerator enumerator = continuous(context, new SeenFiles(lookback), new ArrayList<>());
        enumerator.start();
        context.runPeriodic();
        assertThat(enumerator.snapshotState(0).pendingSplits().size()).isEqualTo(files);

        byte[] state = new EnumeratorStateSerializer()
                .serialize(new EnumeratorState(
                        new ArrayList<>(), enumerator.snapshotState(1).seen()));
        assertThat(enumerator.rememberedPaths()).hasSizeLessThanOrEqualTo(61);
        assertThat(state.length).as("serialized seen-files state").isLessThan(10_000);

        // listing the same directory again yields nothing, though most paths are forgotten
        context.runPeriodic();
        assertThat(enumerator.snapshotState(0).pendingSplits().size()).isEqualTo(files);
    }

    private FileSplitEnumerator continuous(
            TestEnumeratorContext<FileSourceSplit> context, SeenFiles seen, List<FileSourceSplit> pending) {
        return new FileSplitEnumerator(
                context,
                new NonSplittingRecursiveEnumerator(),
                new Path[] {new Path(dir.toUri())},
                1000,
                seen,
                pending);
    }

    private void write(String name, long modificationTime) throws IOException {
        java.nio.file.Path file = dir.resolve(name);
        Files.write(file, new byte[] {'x'});
        Files.setLastModifiedTime(file, FileTime.fromMillis(modificationTime));
    }

    private static List<String> names(List<FileSourceSplit> splits) {
        return splits.stream().map(split -> split.path().getName()).collect(Collectors.toList());
    }
}
