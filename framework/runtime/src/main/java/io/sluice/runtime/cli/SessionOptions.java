package io.sluice.runtime.cli;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.operations.command.ResetOperation;
import org.apache.flink.table.operations.command.SetOperation;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code SET} and {@code RESET} in the middle of a script. A table environment does not execute
 * them itself (in Flink that is the SQL client's job), so they are applied to its table
 * configuration here. RESET goes back to the value the script started with, not to Flink's
 * default, so that a RESET cannot contradict the runtime mode the environment was created in.
 */
final class SessionOptions {

    private final TableConfig config;
    private final Configuration startup;
    private final RuntimeExecutionMode mode;
    private final PrintStream out;

    SessionOptions(TableConfig config, StartupOptions startup, PrintStream out) {
        this.config = config;
        this.startup = startup.configuration();
        this.mode = startup.runtimeMode();
        this.out = out;
    }

    /** {@code SET 'key' = 'value'}, or {@code SET} alone to list what the script has set. */
    void set(SetOperation set) {
        if (!set.getKey().isPresent()) {
            Map<String, String> options =
                    new TreeMap<>(config.getConfiguration().toMap());
            options.forEach((k, v) -> out.println("'" + k + "' = '" + v + "'"));
            out.println("[OK] " + options.size() + " option(s) set");
            return;
        }
        String key = set.getKey().get();
        String value = set.getValue().orElse("");
        checkRuntimeMode(key, value);
        config.set(key, value);
        out.println("[OK]");
    }

    /** {@code RESET 'key'}, or {@code RESET} alone for all keys. */
    void reset(ResetOperation reset) {
        if (!reset.getKey().isPresent()) {
            for (String key : config.getConfiguration().toMap().keySet()) {
                config.getConfiguration().removeKey(key);
            }
            config.getConfiguration().addAll(startup);
        } else {
            String key = reset.getKey().get();
            String initial = startup.toMap().get(key);
            if (initial == null) {
                config.getConfiguration().removeKey(key);
            } else {
                config.set(key, initial);
            }
        }
        out.println("[OK]");
    }

    /** The environment was created in one mode; a later SET cannot switch it. */
    private void checkRuntimeMode(String key, String value) {
        if (key.equals(ExecutionOptions.RUNTIME_MODE.key()) && StartupOptions.parseMode(value) != mode) {
            throw new CliException(
                    CliException.FAILED,
                    "'" + key + "' can only be set at the top of the script,"
                            + " before any other statement; this run is in "
                            + mode.name().toLowerCase(Locale.ROOT) + " mode");
        }
    }
}
