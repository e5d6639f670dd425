package io.sluice.runtime.sink.distribution.range;

import org.apache.flink.runtime.operators.coordination.OperatorEvent;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Statistics between the shuffle subtasks and their coordinator: a subtask's counts of one cycle
 * (to the coordinator) or the global statistics (to the subtasks). Flink Java-serializes events;
 * the statistics travel as the bytes of {@link KeyStatisticsSerializer}, with its version.
 */
final class StatisticsEvent implements OperatorEvent {

    private static final long serialVersionUID = 1L;

    private final boolean global;
    private final int version;
    private final byte[] statistics;

    private StatisticsEvent(boolean global, int version, byte[] statistics) {
        this.global = global;
        this.version = version;
        this.statistics = statistics;
    }

    /** A subtask's statistics of the cycle that ends at their checkpoint. */
    static StatisticsEvent local(KeyStatistics statistics) {
        return of(false, statistics);
    }

    /** The coordinator's aggregate. */
    static StatisticsEvent global(KeyStatistics statistics) {
        return of(true, statistics);
    }

    private static StatisticsEvent of(boolean global, KeyStatistics statistics) {
        try {
            return new StatisticsEvent(
                    global,
                    KeyStatisticsSerializer.INSTANCE.getVersion(),
                    KeyStatisticsSerializer.INSTANCE.serialize(statistics));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    boolean isGlobal() {
        return global;
    }

    KeyStatistics statistics() throws IOException {
        return KeyStatisticsSerializer.INSTANCE.deserialize(version, statistics);
    }

    @Override
    public String toString() {
        return (global ? "global" : "local") + " range statistics (" + statistics.length + " bytes)";
    }
}
