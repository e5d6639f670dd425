package io.sluice.runtime.state;

import java.util.Collections;
import java.util.List;

/** The checkpointed state of one sink writer subtask: the target writer's payloads, enveloped. */
public final class WriterState {

    private final List<Envelope> envelopes;

    public WriterState(List<Envelope> envelopes) {
        this.envelopes = Collections.unmodifiableList(envelopes);
    }

    public List<Envelope> envelopes() {
        return envelopes;
    }
}
