package io.sluice.runtime.cli;

/**
 * A failure the CLI reports as a message and an exit code rather than a stack trace: the user can
 * act on it (a missing file, a bad argument, a failed statement).
 */
final class CliException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Exit code of a usage or configuration error. */
    public static final int USAGE = 2;
    /** Exit code of a failed command (a failed plugin, a failed statement). */
    public static final int FAILED = 1;

    private final int exitCode;

    public CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** The process exit code for this failure. */
    public int exitCode() {
        return exitCode;
    }
}
