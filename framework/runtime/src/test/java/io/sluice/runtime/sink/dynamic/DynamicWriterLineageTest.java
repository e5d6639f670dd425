package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.sink.WriterLineages;
import io.sluice.spi.sink.WriterLineage;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dynamic sink's table writer has an id that the attempts after it compute from what they know:
 * the operator, the table, and the start of the attempt that the restored state records, also when
 * the restore is from a later checkpoint than the one that attempt began from.
 */
class DynamicWriterLineageTest {

    private static final String JOB = "6b0f1c1d2e3f40516273849505a6b7c8";
    private static final String ORDERS = "00000000000000000000000000000b0b\ndb.orders";
    private static final String USERS = "00000000000000000000000000000b0b\ndb.users";

    private static WriterLineage lineage(
            String sinkId,
            OptionalLong restored,
            int attempt,
            List<DynamicWriterState.Start> inherited,
            int opening,
            boolean reopened) {
        return DynamicWriterOperator.lineage(sinkId, JOB, restored, 2, attempt, inherited, opening, reopened);
    }

    @Test
    void theWritersOfATableInOneAttemptShareAnIdAndAreToldApartByTheirOpening() {
        WriterLineage first = lineage(ORDERS, OptionalLong.empty(), 0, List.of(), 0, false);
        WriterLineage users = lineage(USERS, OptionalLong.empty(), 0, List.of(), 1, false);
        WriterLineage again = lineage(ORDERS, OptionalLong.empty(), 0, List.of(), 2, true);

        assertThat(again.writerId()).isEqualTo(first.writerId());
        assertThat(again.opening()).isEqualTo(2);
        assertThat(again.reopened()).isTrue();
        assertThat(first.reopened()).isFalse();
        assertThat(users.writerId()).as("another table").isNotEqualTo(first.writerId());
        assertThat(first.predecessorIds()).isEmpty();
        assertThat(first.laterOpenings()).isEmpty();
    }

    @Test
    void aRestoreFromALaterCheckpointKnowsTheWritersTheFailedAttemptOpenedAfterIt() {
        // attempt 1 began fresh (attempt 0 died before any checkpoint), took checkpoint 4 with
        // three table writers opened, then died; attempt 2 restores checkpoint 4
        WriterLineage failedFirst = lineage(ORDERS, OptionalLong.empty(), 1, List.of(), 0, false);
        WriterLineage diedEarly = lineage(ORDERS, OptionalLong.empty(), 0, List.of(), 0, false);
        DynamicWriterState.Start start = new DynamicWriterState.Start(2, OptionalLong.empty(), 1, 3);

        WriterLineage restored = lineage(ORDERS, OptionalLong.of(4), 2, List.of(start), 0, false);

        assertThat(restored.laterOpenings())
                .as("the failed attempt's writers of the table opened after checkpoint 4")
                .isEqualTo(Map.of(failedFirst.writerId(), 3));
        assertThat(restored.predecessorIds())
                .as("all writers of the attempt before it, and of attempts 0 and 1 from checkpoint 4")
                .containsExactlyInAnyOrder(
                        diedEarly.writerId(),
                        WriterLineages.of(ORDERS, JOB, OptionalLong.of(4), 2, 0).writerId(),
                        WriterLineages.of(ORDERS, JOB, OptionalLong.of(4), 2, 1).writerId());
        assertThat(restored.writerId())
                .isNotEqualTo(failedFirst.writerId())
                .isEqualTo(
                        WriterLineages.of(ORDERS, JOB, OptionalLong.of(4), 2, 2).writerId());
        // what a restore without the start could compute misses the failed attempt's writers
        assertThat(WriterLineages.of(ORDERS, JOB, OptionalLong.of(4), 2, 2).predecessorIds())
                .doesNotContain(failedFirst.writerId());
    }

    @Test
    void noOtherTableOrOperatorOrJobMatches() {
        DynamicWriterState.Start start = new DynamicWriterState.Start(2, OptionalLong.empty(), 0, 1);
        WriterLineage orders = lineage(ORDERS, OptionalLong.of(4), 1, List.of(start), 0, false);
        WriterLineage users = lineage(USERS, OptionalLong.of(4), 1, List.of(start), 0, false);
        WriterLineage otherOperator =
                lineage("00000000000000000000000000000c0c\ndb.orders", OptionalLong.of(4), 1, List.of(start), 0, false);
        WriterLineage otherJob = DynamicWriterOperator.lineage(
                ORDERS, "0000000000000000000000000000000b", OptionalLong.of(4), 2, 1, List.of(start), 0, false);
        for (WriterLineage other : List.of(users, otherOperator, otherJob)) {
            assertThat(other.writerId()).isNotEqualTo(orders.writerId());
            assertThat(other.predecessorIds()).doesNotContainAnyElementsOf(orders.predecessorIds());
            assertThat(other.laterOpenings().keySet())
                    .doesNotContainAnyElementsOf(orders.laterOpenings().keySet());
        }
    }

    @Test
    void aTargetThatCannotTellOpeningsApartGetsNoLineage() {
        // its writers of one table would share an id and name files alike
        assertThat(lineage(ORDERS, OptionalLong.of(4), 1, List.of(), -1, false)).isNull();
        assertThat(lineage(ORDERS, OptionalLong.of(4), 1, List.of(), -1, true)).isNull();
    }
}
