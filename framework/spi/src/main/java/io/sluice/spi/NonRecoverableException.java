package io.sluice.spi;

import java.io.IOException;

/**
 * An error that will recur on every attempt of the job (a directory it may not write to, a
 * value the schema cannot hold): the framework fails the job at once, whatever its restart
 * strategy, instead of restarting it forever while half-written files pile up. Throw it, or
 * any exception with it in its cause chain, from a sink's parts on the task side: the writer (its
 * creation, {@code write}, {@code prepareCommit}, {@code snapshotState}, its timer), the
 * committer and the commit policies. Sources do not convert it yet: there it fails the attempt
 * like any other exception.
 *
 * <p>Only for errors that are known to be deterministic: a failure that a retry can cure (a
 * network timeout, a busy metastore) must stay a plain exception.
 */
public class NonRecoverableException extends IOException {

    private static final long serialVersionUID = 1L;

    public NonRecoverableException(String message) {
        super(message);
    }

    public NonRecoverableException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether {@code t} or one of its causes is a {@link NonRecoverableException}. */
    public static boolean isIn(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof NonRecoverableException) {
                return true;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return false;
    }
}
