package io.sluice.runtime.sink.commit;

import io.sluice.runtime.state.Committable;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A failed commit names its checkpoint; the commit at the end of bounded input (a BATCH job's
 * only one) has Flink's end-of-input id, {@code Long.MAX_VALUE}, which a message must not print
 * as "checkpoint 9223372036854775807" (issue 31).
 */
class FailOverRequestTest {

    private static FailOverRequest request(long checkpointId) {
        return new FailOverRequest(new Committable(checkpointId, "job", "op", "e", List.of(), List.of(), List.of()));
    }

    @Test
    void theCommitAtTheEndOfInputIsNamedSo() {
        IOException cause = new IOException("rename failed");
        assertThatThrownBy(() -> request(Long.MAX_VALUE).signalFailedWithUnknownReason(cause))
                .hasMessage("The final commit, at the end of input, failed")
                .hasMessageNotContaining(String.valueOf(Long.MAX_VALUE))
                .hasCause(cause);
        assertThatThrownBy(() -> request(Long.MAX_VALUE).signalFailedWithKnownReason(cause))
                .hasMessageNotContaining(String.valueOf(Long.MAX_VALUE));
    }

    @Test
    void aCheckpointsCommitIsNamedByItsId() {
        assertThatThrownBy(() -> request(7).signalFailedWithUnknownReason(new IOException("x")))
                .hasMessage("Commit of checkpoint 7 failed");
    }
}
