package io.sluice.runtime.cli;

import io.sluice.runtime.config.Secrets;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Prints a failure: first, on the line of {@code [ERROR]}, the one message that says what is wrong
 * (the innermost one Sluice raised, which names the option and value, else the root cause), then
 * what failed, then the chain of messages, outermost first and root cause last. Flink wraps a
 * connector's error in several layers whose messages say little ("Job execution failed"); the user
 * needs the innermost message first, every layer's message after it, but not pages of stack frames
 * (those go to the log file, and to the console with {@code -v}).
 */
final class ErrorReport {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ErrorReport.class);

    private ErrorReport() {}

    /** Prints the chain; with {@code stackTrace} also the full stack trace. */
    static void print(PrintStream err, String headline, Throwable failure, boolean stackTrace) {
        List<Throwable> chain = chain(failure);
        Throwable shortError = shortError(chain);
        err.println("[ERROR] " + withoutStackTrace(describe(shortError), stackTrace));
        err.println("  " + headline);
        // the messages on the console so far: a layer that only repeats one (a wrapper quoting its
        // cause, the root cause of the first line) is not printed again; a list of supported
        // options said three times was 160 lines
        List<String> printed = new ArrayList<>();
        if (shortError.getMessage() != null) {
            printed.add(shortError.getMessage());
        }
        int last = chain.size() - 1;
        String previous = null;
        for (int i = 0; i <= last; i++) {
            Throwable t = chain.get(i);
            String message = t.getMessage();
            if (i > 0 && i < last && saysNothingNew(t, message, previous)) {
                continue;
            }
            String prefix = i == 0 ? "  " : i == last ? "  root cause: " : "  caused by: ";
            if (message != null && printed.stream().anyMatch(p -> p.contains(message))) {
                if (i == last && !(t instanceof CliException)) {
                    err.println(prefix + t.getClass().getName() + " (its message is above)");
                }
                previous = message;
                continue;
            }
            String shown = message;
            for (String p : printed) {
                if (shown != null && p.contains("\n") && shown.contains(p)) {
                    shown = shown.replace(p, "(the error above)"); // a wrapper around a long message
                }
            }
            // the CLI's own exceptions are sentences for the user; a class name adds nothing
            // a masked copy's message already starts with the original class name
            String what = t instanceof CliException || t instanceof Secrets.MaskedException
                    ? ""
                    : t.getClass().getName() + (message == null ? "" : ": ");
            err.println(prefix + what + (shown == null ? "" : withoutStackTrace(shown, stackTrace)));
            if (message != null) {
                printed.add(message);
            }
            previous = message;
        }
        if (stackTrace) {
            failure.printStackTrace(err);
        } else {
            // the console got the messages; the log file gets the trace the message points to
            LOG.error(headline, failure);
            String logFile = System.getProperty("sluice.log.file");
            err.println(
                    "  (run with -v for the stack trace" + (logFile == null ? "" : "; the log is " + logFile) + ")");
        }
    }

    /** The first line of a stack trace inside a message: an {@code at} frame. */
    private static final java.util.regex.Pattern FRAME = java.util.regex.Pattern.compile("(?m)^\\s*at [\\w.$<>/]+\\(");

    /**
     * A message without the stack trace some libraries put into it (Hive's metastore client puts
     * its thrift failure's whole trace, 268 lines, into a MetaException's message): cut before the
     * first frame. The trace is in the log, and -v prints it.
     */
    static String withoutStackTrace(String message, boolean stackTrace) {
        java.util.regex.Matcher frame = FRAME.matcher(message);
        if (stackTrace || !frame.find()) {
            return message;
        }
        return message.substring(0, frame.start()).stripTrailing() + " (stack trace cut: -v or the log has it)";
    }

    /**
     * The innermost failure Sluice raised (a frame of {@code io.sluice.} threw it), or widened to the
     * outermost Sluice failure that quotes its message (the table factory's "Invalid options of
     * table t: ..." around a plugin's complaint); the root cause when Sluice raised none.
     */
    static Throwable shortError(List<Throwable> chain) {
        int innermost = -1;
        for (int i = chain.size() - 1; i >= 0 && innermost < 0; i--) {
            if (raisedBySluice(chain.get(i))) {
                innermost = i;
            }
        }
        if (innermost < 0) {
            return chain.get(chain.size() - 1);
        }
        String inner = chain.get(innermost).getMessage();
        for (int i = 0; i < innermost; i++) {
            Throwable outer = chain.get(i);
            if (raisedBySluice(outer) && outer.getMessage().contains(inner)) {
                return outer;
            }
        }
        return chain.get(innermost);
    }

    private static boolean raisedBySluice(Throwable t) {
        StackTraceElement[] frames = t.getStackTrace();
        // the CLI's own wrappers ("Job ... failed after ...") are context, not the error
        return !(t instanceof CliException)
                && t.getMessage() != null
                && frames.length > 0
                && frames[0].getClassName().startsWith("io.sluice.")
                && !frames[0].getClassName().startsWith("io.sluice.runtime.cli.");
    }

    /** A message Sluice wrote is a sentence for the user; anything else reads best with its class. */
    private static String describe(Throwable t) {
        if (t instanceof CliException && t.getMessage() != null) {
            return t.getMessage(); // the CLI's own: a sentence for the user
        }
        if (t instanceof Secrets.MaskedException || t.getMessage() == null) {
            return t instanceof Secrets.MaskedException
                    ? t.getMessage()
                    : t.getClass().getName();
        }
        return raisedBySluice(t) ? t.getMessage() : t.getClass().getName() + ": " + t.getMessage();
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
