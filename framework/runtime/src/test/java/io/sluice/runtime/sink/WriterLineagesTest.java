package io.sluice.runtime.sink;

import io.sluice.spi.sink.WriterLineage;

import org.junit.jupiter.api.Test;

import java.util.OptionalLong;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A writer's id is computable by the attempts after it, and by nobody else's writer. */
class WriterLineagesTest {

    private static final String SINK = "8d2b8f2e-0d0e-4a59-9a59-6f0f3a2c1b11";
    private static final String JOB = "6b0f1c1d2e3f40516273849505a6b7c8";

    @Test
    void eachAttemptKnowsTheIdsOfTheAttemptsBeforeItThatBeganFromTheSameCheckpoint() {
        WriterLineage first = WriterLineages.of(SINK, JOB, OptionalLong.of(7), 2, 0);
        WriterLineage second = WriterLineages.of(SINK, JOB, OptionalLong.of(7), 2, 1);
        WriterLineage third = WriterLineages.of(SINK, JOB, OptionalLong.of(7), 2, 2);

        assertThat(first.predecessorIds()).isEmpty();
        assertThat(second.predecessorIds()).containsExactly(first.writerId());
        assertThat(third.predecessorIds()).containsExactly(first.writerId(), second.writerId());
        assertThat(WriterLineages.of(SINK, JOB, OptionalLong.of(7), 2, 1))
                .as("the same on every computation")
                .isEqualTo(second);
    }

    @Test
    void noOtherWriterHasTheId() {
        String id = WriterLineages.of(SINK, JOB, OptionalLong.empty(), 0, 3).writerId();
        assertThat(id).hasSize(36);
        assertThat(UUID.fromString(id).toString()).isEqualTo(id);
        assertThat(WriterLineages.of(SINK, JOB, OptionalLong.of(1), 0, 3).writerId())
                .as("began from a checkpoint")
                .isNotEqualTo(id);
        assertThat(WriterLineages.of(SINK, JOB, OptionalLong.empty(), 1, 3).writerId())
                .as("another subtask")
                .isNotEqualTo(id);
        assertThat(WriterLineages.of("another sink", JOB, OptionalLong.empty(), 0, 3)
                        .writerId())
                .as("another sink of the job")
                .isNotEqualTo(id);
        assertThat(WriterLineages.of(SINK, "another job", OptionalLong.empty(), 0, 3)
                        .writerId())
                .as("another job")
                .isNotEqualTo(id);
        assertThat(WriterLineages.of(SINK, JOB, OptionalLong.empty(), 0, 4).predecessorIds())
                .as("the next attempt's predecessors")
                .contains(id);
    }

    @Test
    void aWriterLooksBackAtABoundedNumberOfAttempts() {
        WriterLineage late = WriterLineages.of(SINK, JOB, OptionalLong.of(3), 0, 50_000);
        assertThat(late.predecessorIds()).hasSize(WriterLineages.MAX_PREDECESSORS);
        assertThat(late.predecessorIds())
                .last()
                .isEqualTo(WriterLineages.of(SINK, JOB, OptionalLong.of(3), 0, 49_999)
                        .writerId());
    }
}
