package io.sluice.runtime.sink;

import io.sluice.spi.NonRecoverableException;

import org.apache.flink.runtime.execution.SuppressRestartsException;

/**
 * An error the target knows will recur on every attempt (from the writer, its creation, its
 * timers, the committer or a commit policy) becomes Flink's {@link SuppressRestartsException}: the
 * scheduler then fails the job at once instead of restarting it under its restart strategy
 * (forever, with a fixed delay of many attempts), each attempt leaving its in-progress files behind.
 * Public for the committer in {@code sink.commit}.
 */
public final class FailFast {

    private FailFast() {}

    /** Throws {@link SuppressRestartsException} when {@code e} holds a {@link NonRecoverableException}; else returns. */
    public static void ifNonRecoverable(Exception e) {
        if (NonRecoverableException.isIn(e)) {
            throw new SuppressRestartsException(e);
        }
    }
}
