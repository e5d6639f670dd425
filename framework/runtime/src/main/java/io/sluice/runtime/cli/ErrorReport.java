package io.sluice.runtime.cli;

import io.sluice.runtime.config.Secrets;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Prints a failure as the chain of its messages, outermost first and root cause last. Flink wraps
 * a connector's error in several layers whose messages say little ("Job execution failed"); the
 * user needs every layer's message, the root cause above all, but not pages of stack frames.
 */
final class ErrorReport {

    private ErrorReport() {}

    /** Prints the chain; with {@code stackTrace} also the full stack trace. */
    static void print(PrintStream err, String headline, Throwable failure, boolean stackTrace) {
        err.println("[ERROR] " + headline);
        List<Throwable> chain = chain(failure);
        int last = chain.size() - 1;
        String previous = null;
        for (int i = 0; i <= last; i++) {
            Throwable t = chain.get(i);
            String message = t.getMessage();
            if (i > 0 && i < last && saysNothingNew(t, message, previous)) {
                continue;
            }
            String prefix = i == 0 ? "  " : i == last ? "  root cause: " : "  caused by: ";
            // the CLI's own exceptions are sentences for the user; a class name adds nothing
            // a masked copy's message already starts with the original class name
            String what = t instanceof CliException || t instanceof Secrets.MaskedException ? ""
                    : t.getClass().getName() + (message == null ? "" : ": ");
            err.println(prefix + what + (message == null ? "" : message));
            previous = message;
        }
        if (stackTrace) {
            failure.printStackTrace(err);
        } else {
            err.println("  (run with -v for the stack trace)");
        }
    }

    /**
     * A wrapper in the middle of the chain that adds no words: no message, its cause's message
     * again, or just its cause's toString (what {@code new RuntimeException(cause)} gives).
     */
    private static boolean saysNothingNew(Throwable t, String message, String previous) {
        Throwable cause = t.getCause();
        return message == null
                || message.equals(previous)
                || (cause != null && (message.equals(cause.toString()) || message.equals(cause.getMessage())));
    }

    private static List<Throwable> chain(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }
}
