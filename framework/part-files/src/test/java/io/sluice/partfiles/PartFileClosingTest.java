package io.sluice.partfiles;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Part files closed for commit on other threads, handed back in order, durable once awaited. */
class PartFileClosingTest {

    @TempDir
    java.nio.file.Path dir;

    @Test
    void everyFileIsClosedOnAnotherThreadAndHandedBackInTheOrderItCame() throws Exception {
        RecoverableWriter writer = FileSystem.getLocalFileSystem().createRecoverableWriter();
        PartFileClosing closing = new PartFileClosing(dir.toString());
        int files = PartFileClosing.MAX_IN_FLIGHT + 36; // more than may be in flight at once
        List<RecoverableWriter.CommitRecoverable> closed = new ArrayList<>();
        List<Integer> order = new ArrayList<>();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < files; i++) {
            int file = i;
            RecoverableFsDataOutputStream out =
                    writer.open(new Path(dir.resolve("part-" + i).toUri()));
            out.write(("rows of file " + i).getBytes(StandardCharsets.UTF_8));
            closing.close(
                    () -> {
                        threads.add(Thread.currentThread().getName());
                        return out.closeForCommit().getRecoverable();
                    },
                    recoverable -> {
                        order.add(file);
                        closed.add(recoverable);
                    });
        }
        closing.awaitAll();

        assertThat(closing.isBusy()).isFalse();
        assertThat(threads).allMatch(t -> t.startsWith("sluice-part-file-close-"));
        assertThat(order).hasSize(files).isSorted();
        for (RecoverableWriter.CommitRecoverable recoverable : closed) {
            writer.recoverForCommit(recoverable).commit();
        }
        for (int i = 0; i < files; i++) {
            assertThat(Files.readString(dir.resolve("part-" + i))).isEqualTo("rows of file " + i);
        }
    }

    @Test
    void aFileThatCannotBeClosedFailsTheWaitAndTheOthersAreStillHandedBack() throws Exception {
        PartFileClosing closing = new PartFileClosing(dir.toString());
        List<String> handedBack = new ArrayList<>();
        java.util.concurrent.CountDownLatch thirdHandedOver = new java.util.concurrent.CountDownLatch(1);
        closing.close(() -> null, r -> handedBack.add("first"));
        closing.close(
                () -> {
                    try {
                        thirdHandedOver.await(); // else the failure may come with the third close
                    } catch (InterruptedException e) {
                        throw new java.io.InterruptedIOException();
                    }
                    throw new IOException("the disk is full");
                },
                r -> handedBack.add("second"));
        closing.close(() -> null, r -> handedBack.add("third"));
        thirdHandedOver.countDown();

        assertThatThrownBy(closing::awaitAll).isInstanceOf(IOException.class).hasMessage("the disk is full");
        assertThat(handedBack).containsExactly("first");
        // the rest are still awaited (the writer fails; close abandons them)
        closing.awaitAll();
        assertThat(handedBack).containsExactly("first", "third");
    }

    @Test
    void anAbandonedWriterWaitsForItsClosesAndIgnoresTheirFailures() throws Exception {
        PartFileClosing closing = new PartFileClosing(dir.toString());
        List<String> handedBack = new ArrayList<>();
        // held until close() returned: a close that fails at once would otherwise be finished,
        // and its failure thrown, by close() itself, before the writer is abandoned
        java.util.concurrent.CountDownLatch handedOver = new java.util.concurrent.CountDownLatch(1);
        closing.close(
                () -> {
                    try {
                        handedOver.await();
                    } catch (InterruptedException e) {
                        throw new java.io.InterruptedIOException();
                    }
                    throw new IOException("lost");
                },
                r -> handedBack.add("lost"));
        handedOver.countDown();
        closing.abandon();

        assertThat(closing.isBusy()).isFalse();
        assertThat(handedBack).isEmpty();
        closing.awaitAll(); // nothing left
    }
}
