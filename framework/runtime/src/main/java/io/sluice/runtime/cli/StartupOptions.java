package io.sluice.runtime.cli;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code SET 'key' = 'value'} statements at the top of a script, applied before the table
 * environment exists. They must be: the runtime mode (streaming or batch) is fixed when the
 * environment is created, and cluster options such as {@code parallelism.default} configure the
 * embedded MiniCluster only if they are there from the start. SET statements further down are
 * ordinary statements that change the table configuration.
 */
final class StartupOptions {

    // SET 'key' = 'value', each side quoted ('' escapes a quote) or a bare word
    private static final Pattern SET = Pattern.compile(
            "SET\\s+('(?:[^']|'')*'|[^\\s=']+)\\s*=\\s*('(?:[^']|'')*'|[^\\s']+)", Pattern.CASE_INSENSITIVE);

    private final Configuration configuration = new Configuration();
    private int count;

    private StartupOptions() {}

    /** Reads the leading SET statements of a script. */
    static StartupOptions of(List<SqlStatement> statements) {
        StartupOptions options = new StartupOptions();
        for (SqlStatement statement : statements) {
            Matcher m = SET.matcher(statement.text());
            if (!m.matches()) {
                break;
            }
            options.configuration.setString(unquote(m.group(1)), unquote(m.group(2)));
            options.count++;
        }
        options.runtimeMode(); // fail early on a mode the table environment cannot run in
        return options;
    }

    /** How many statements at the top of the script these options came from. */
    int statementCount() {
        return count;
    }

    /** The configuration for the table environment and its MiniCluster. */
    Configuration configuration() {
        return configuration;
    }

    /** Streaming unless the script asks for batch. */
    RuntimeExecutionMode runtimeMode() {
        String mode = configuration.toMap().get(ExecutionOptions.RUNTIME_MODE.key());
        return parseMode(mode == null ? RuntimeExecutionMode.STREAMING.name() : mode);
    }

    /**
     * A runtime mode as a table environment accepts it.
     *
     * @throws CliException for anything but streaming or batch
     */
    static RuntimeExecutionMode parseMode(String value) {
        String normalized = value.trim().toUpperCase(Locale.ROOT);
        if (normalized.equals(RuntimeExecutionMode.BATCH.name())) {
            return RuntimeExecutionMode.BATCH;
        }
        if (normalized.equals(RuntimeExecutionMode.STREAMING.name())) {
            return RuntimeExecutionMode.STREAMING;
        }
        // AUTOMATIC is a DataStream notion: a table environment is either streaming or batch
        throw new CliException(
                CliException.USAGE,
                "'" + ExecutionOptions.RUNTIME_MODE.key() + "' must be 'streaming' or 'batch', not '" + value + "'");
    }

    private static String unquote(String s) {
        if (s.length() >= 2 && s.startsWith("'") && s.endsWith("'")) {
            return s.substring(1, s.length() - 1).replace("''", "'");
        }
        return s;
    }
}
