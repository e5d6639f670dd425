package io.sluice.runtime.table;

import io.sluice.runtime.config.Secrets;

import org.apache.flink.table.api.ValidationException;

import java.util.Map;

/**
 * The error of a Sluice table that cannot be the temporal table of a join, raised when the planner
 * asks the table source for its lookup: it names the table, and neither its message nor its causes
 * show a secret.
 */
final class LookupErrors {

    private LookupErrors() {}

    static ValidationException invalid(String table, Map<String, String> options, RuntimeException e) {
        String message = "Table " + table + " ('connector' = 'sluice') cannot be the temporal table of a join: "
                + e.getMessage();
        // no cause: the planner wraps the error in its rule's, and Flink's SQL client prints only the
        // innermost cause, which must name the table; the target's failure stays attached as suppressed
        ValidationException error = new ValidationException(Secrets.scrub(message, options));
        error.addSuppressed(Secrets.scrub(e, options));
        return error;
    }
}
