package io.sluice.runtime.sink.dynamic;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cancelled task's begun table commits end on their own: interrupted inside Iceberg's Hive
 * metastore lock, a commit left the lock taken and the restored attempt waited for it until the
 * test's timeout (IcebergDynamicSinkIT, Hive catalog, a router failure while t10 was committing).
 */
class DynamicCommitterCancelTest {

    @Test
    void aBegunCommitEndsUninterruptedAndTheInterruptIsKeptForTheCaller() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch begun = new CountDownLatch(1);
            AtomicBoolean ended = new AtomicBoolean();
            AtomicBoolean interruptedInside = new AtomicBoolean();
            Future<Void> commit = pool.submit(() -> {
                begun.countDown();
                try {
                    Thread.sleep(300);
                    ended.set(true);
                } catch (InterruptedException e) {
                    interruptedInside.set(true);
                }
                return null;
            });
            assertThat(begun.await(10, TimeUnit.SECONDS)).isTrue();

            Thread.currentThread().interrupt(); // Flink cancelling the task, again and again
            DynamicCommitter.awaitBegun(List.of(commit));

            assertThat(Thread.interrupted())
                    .as("the interrupt is kept for the caller")
                    .isTrue();
            assertThat(ended).as("the commit ended").isTrue();
            assertThat(interruptedInside).as("the commit was not interrupted").isFalse();
        } finally {
            pool.shutdownNow();
        }
    }
}
