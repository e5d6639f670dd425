package io.sluice.runtime.cli;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;

/**
 * Sends what libraries log through {@code java.util.logging} to the CLI's log (SLF4J, the log
 * file) instead of the JDK's default console handler on stderr. The embedded Hive metastore's
 * DataNucleus logs that way: a dozen lines on every Hive statement, and thousands of SEVERE lock
 * traces when a second process opens the same metastore directory, all on the console between
 * the statements' output and Sluice's short error.
 */
final class JulToLog extends Handler {

    /** Formats only the message (parameters, resource bundles); the log's layout adds the rest. */
    private final Formatter messages = new SimpleFormatter();

    private JulToLog() {}

    /** Replaces the handlers of the JDK's root logger (its stderr console handler) with this one. */
    static void install() {
        java.util.logging.Logger root = LogManager.getLogManager().getLogger("");
        for (Handler h : root.getHandlers()) {
            root.removeHandler(h);
        }
        root.addHandler(new JulToLog());
    }

    @Override
    public void publish(LogRecord record) {
        if (record == null) {
            return;
        }
        Logger log = LoggerFactory.getLogger(record.getLoggerName() == null ? "jul" : record.getLoggerName());
        int level = record.getLevel().intValue();
        String message = messages.formatMessage(record);
        Throwable thrown = record.getThrown();
        if (level >= Level.SEVERE.intValue()) {
            log.error(message, thrown);
        } else if (level >= Level.WARNING.intValue()) {
            log.warn(message, thrown);
        } else if (level >= Level.INFO.intValue()) {
            log.info(message, thrown);
        } else if (level >= Level.FINE.intValue()) {
            log.debug(message, thrown);
        } else {
            log.trace(message, thrown);
        }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
}
