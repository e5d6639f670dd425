package io.sluice.runtime.table;

import io.sluice.runtime.config.Secrets;

import org.apache.flink.table.api.ValidationException;

import java.util.Map;

/**
 * The error of a Sluice table that cannot be the temporal table of a join, raised when the planner
 * asks the table source for its lookup: it names the table, and neither its message nor its causes
 * show a secret (the planner does not wrap it, so it reaches the user as it is).
 */
final class LookupErrors {

    private LookupErrors() {}

    static ValidationException invalid(String table, Map<String, String> options, RuntimeException e) {
        String message = "Table " + table + " ('connector' = 'sluice') cannot be the temporal table of a join: "
                + e.getMessage();
        return new ValidationException(Secrets.scrub(message, options), Secrets.scrub(e, options));
    }
}
