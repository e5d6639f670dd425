package io.sluice.runtime.sink.commit;

import io.sluice.runtime.state.Committable;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;

/**
 * A commit request of the framework's own commit path (the {@link CommitAggregator}, and the
 * dynamic sink's per-table commits): the committer throws what fails, so the job fails over and
 * the restored aggregator commits again; there is no retry queue to signal to.
 */
public final class FailOverRequest implements Committer.CommitRequest<Committable> {

    private final Committable committable;

    public FailOverRequest(Committable committable) {
        this.committable = committable;
    }

    @Override
    public Committable getCommittable() {
        return committable;
    }

    @Override
    public int getNumberOfRetries() {
        return 0;
    }

    @Override
    public void signalFailedWithKnownReason(Throwable t) {
        throw new IllegalStateException(describe(committable.checkpointId()) + " failed", t);
    }

    @Override
    public void signalFailedWithUnknownReason(Throwable t) {
        throw new IllegalStateException(describe(committable.checkpointId()) + " failed", t);
    }

    /**
     * A commit for a message: "Commit of checkpoint 7", or at the end of bounded input (whose id is
     * {@code Long.MAX_VALUE}, Flink's {@code CommittableMessage.EOI}) "The final commit, at the end
     * of input", never the id itself.
     */
    public static String describe(long checkpointId) {
        return checkpointId == CommittableMessage.EOI
                ? "The final commit, at the end of input,"
                : "Commit of checkpoint " + checkpointId;
    }

    @Override
    public void retryLater() {
        throw new UnsupportedOperationException("The framework's commits fail over instead of retrying");
    }

    @Override
    public void updateAndRetryLater(Committable committable) {
        retryLater();
    }

    @Override
    public void signalAlreadyCommitted() {
        // nothing to do: the target found it done
    }
}
