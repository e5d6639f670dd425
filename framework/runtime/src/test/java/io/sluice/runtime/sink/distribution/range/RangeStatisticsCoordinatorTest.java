package io.sluice.runtime.sink.distribution.range;

import io.sluice.runtime.sink.distribution.StatisticsType;

import org.apache.flink.runtime.executiongraph.ExecutionAttemptID;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.messages.Acknowledge;
import org.apache.flink.runtime.operators.coordination.MockOperatorCoordinatorContext;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The coordinator of the range shuffle: it aggregates a checkpoint's statistics once every subtask
 * sent its part and broadcasts them; its checkpoint restores into a coordinator of another
 * parallelism, which sends the statistics to each subtask as it becomes ready; a failing
 * aggregation fails the job.
 */
class RangeStatisticsCoordinatorTest {

    @Test
    void aggregatesOnceEverySubtaskSentItsPartAndBroadcasts() throws Exception {
        MockOperatorCoordinatorContext context = new MockOperatorCoordinatorContext(new OperatorID(), 2);
        RangeStatisticsCoordinator coordinator =
                new RangeStatisticsCoordinator("t", context, StatisticsType.MAP, RangeShuffleHooks.NONE);
        coordinator.start();
        RecordingGateway g0 = new RecordingGateway(0);
        RecordingGateway g1 = new RecordingGateway(1);
        coordinator.executionAttemptReady(0, 0, g0);
        coordinator.executionAttemptReady(1, 0, g1);

        coordinator.handleEventFromOperator(0, 0, StatisticsEvent.local(KeyStatistics.ofCounts(1, Map.of("a", 3L))));
        assertThat(g0.received).as("one part of two").isEmpty();
        coordinator.handleEventFromOperator(
                1, 0, StatisticsEvent.local(KeyStatistics.ofCounts(1, Map.of("a", 1L, "b", 2L))));

        KeyStatistics expected = KeyStatistics.ofCounts(1, Map.of("a", 4L, "b", 2L));
        assertThat(g0.received).containsExactly(expected);
        assertThat(g1.received).containsExactly(expected);

        // a late part of checkpoint 1 changes nothing; a cycle without rows keeps the statistics
        coordinator.handleEventFromOperator(0, 0, StatisticsEvent.local(KeyStatistics.ofCounts(1, Map.of("z", 9L))));
        coordinator.handleEventFromOperator(0, 0, StatisticsEvent.local(KeyStatistics.ofCounts(2, Map.of())));
        coordinator.handleEventFromOperator(1, 0, StatisticsEvent.local(KeyStatistics.ofCounts(2, Map.of())));
        assertThat(g0.received).hasSize(1);

        // the next cycle's counts, with the statistics before them at half weight
        coordinator.handleEventFromOperator(0, 0, StatisticsEvent.local(KeyStatistics.ofCounts(3, Map.of("b", 9L))));
        coordinator.handleEventFromOperator(1, 0, StatisticsEvent.local(KeyStatistics.ofCounts(3, Map.of("c", 1L))));
        expected = KeyStatistics.ofCounts(3, Map.of("a", 2L, "b", 10L, "c", 1L));
        assertThat(g1.received).hasSize(2).last().isEqualTo(expected);

        // restored with parallelism 3: the statistics go to every subtask when it is ready
        CompletableFuture<byte[]> checkpoint = new CompletableFuture<>();
        coordinator.checkpointCoordinator(4, checkpoint);
        RangeStatisticsCoordinator restored = new RangeStatisticsCoordinator(
                "t",
                new MockOperatorCoordinatorContext(new OperatorID(), 3),
                StatisticsType.MAP,
                RangeShuffleHooks.NONE);
        restored.resetToCheckpoint(4, checkpoint.get());
        for (int s = 0; s < 3; s++) {
            RecordingGateway gateway = new RecordingGateway(s);
            restored.executionAttemptReady(s, 1, gateway);
            assertThat(gateway.received).containsExactly(expected);
        }
    }

    @Test
    void aFailingAggregationFailsTheJob() throws Exception {
        MockOperatorCoordinatorContext context = new MockOperatorCoordinatorContext(new OperatorID(), 1);
        RangeShuffleHooks failing = new RangeShuffleHooks() {
            @Override
            public void onAggregation() {
                throw new IllegalStateException("injected");
            }
        };
        RangeStatisticsCoordinator coordinator =
                new RangeStatisticsCoordinator("t", context, StatisticsType.AUTO, failing);
        coordinator.handleEventFromOperator(0, 0, StatisticsEvent.local(KeyStatistics.ofCounts(4, Map.of("a", 1L))));
        assertThat(context.isJobFailed()).isTrue();
        assertThat(context.getJobFailureReason())
                .hasMessageContaining("could not be aggregated at checkpoint 4")
                .hasRootCauseMessage("injected");
    }

    @Test
    void anEmptyCheckpointRestoresToNoStatistics() throws Exception {
        RangeStatisticsCoordinator coordinator = new RangeStatisticsCoordinator(
                "t",
                new MockOperatorCoordinatorContext(new OperatorID(), 1),
                StatisticsType.MAP,
                RangeShuffleHooks.NONE);
        CompletableFuture<byte[]> checkpoint = new CompletableFuture<>();
        coordinator.checkpointCoordinator(1, checkpoint);
        coordinator.resetToCheckpoint(1, checkpoint.get());
        RecordingGateway gateway = new RecordingGateway(0);
        coordinator.executionAttemptReady(0, 0, gateway);
        assertThat(gateway.received).isEmpty();
    }

    /** The statistics a subtask was sent. */
    private static final class RecordingGateway implements OperatorCoordinator.SubtaskGateway {
        final List<KeyStatistics> received = new ArrayList<>();
        private final int subtask;

        RecordingGateway(int subtask) {
            this.subtask = subtask;
        }

        @Override
        public CompletableFuture<Acknowledge> sendEvent(OperatorEvent event) {
            try {
                assertThat(((StatisticsEvent) event).isGlobal()).isTrue();
                received.add(((StatisticsEvent) event).statistics());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return CompletableFuture.completedFuture(Acknowledge.get());
        }

        @Override
        public ExecutionAttemptID getExecution() {
            return ExecutionAttemptID.randomId();
        }

        @Override
        public int getSubtask() {
            return subtask;
        }
    }
}
