package io.sluice.runtime.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * The main class of {@code bin/sluice}: checks an installation's plugins and runs SQL scripts on an
 * embedded Flink MiniCluster. Exit codes: 0 success, 1 a plugin or statement failed, 2 a usage or
 * configuration error.
 */
public final class SluiceCli {

    static final String USAGE = String.join(
            System.lineSeparator(),
            "Usage: sluice <command> [options]",
            "",
            "Commands:",
            "  plugins            list the plugins of the plugins directory with their status and",
            "                     extensions; exit code 1 if an enabled plugin failed to load",
            "  sql -f FILE [-D name=value]... [-v]",
            "                     run a Flink SQL script on an embedded MiniCluster; -D gives the",
            "                     script's ${name} (or ${name:-default}) a value; -v prints stack",
            "                     traces of failures and the log on the console",
            "  help               print this text",
            "",
            "Environment:",
            "  SLUICE_PLUGINS_DIR  plugins directory (default: <install dir>/sluice-plugins)",
            "  JAVA_HOME           the Java installation to run",
            "  SLUICE_JAVA_OPTS    extra JVM options, e.g. -Xmx4g",
            "  SLUICE_LOG_DIR      where sluice.log goes (default: <install dir>/log)",
            "  FLINK_PLUGINS_DIR   Flink's file-system plugins for s3://, gs:// ... paths, one folder",
            "                      each (default: <install dir>/flink-plugins; $FLINK_HOME/plugins works)",
            "",
            "Settings: <install dir>/conf/sluice.properties; storage keys (s3.*) in <install dir>/conf/config.yaml");

    private SluiceCli() {}

    /** Runs a command and exits with its code. */
    public static void main(String[] args) {
        // before anything logs: the distribution's log4j2.properties sends logs to the console only
        // with -v (otherwise only to the log file), so that a failure's short error comes first
        if (Arrays.asList(args).contains("-v") || Arrays.asList(args).contains("--verbose")) {
            System.setProperty("sluice.log.console.level", "WARN");
        }
        JulToLog.install();
        int code = run(args, System.out, System.err);
        System.out.flush();
        System.err.flush();
        // a MiniCluster may leave non-daemon threads behind; the command is over either way
        System.exit(code);
    }

    /** Runs a command; returns its exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.println(USAGE);
            return CliException.USAGE;
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        try {
            switch (args[0]) {
                case "plugins":
                    if (!rest.isEmpty()) {
                        throw new CliException(CliException.USAGE, "'plugins' takes no arguments\n\n" + USAGE);
                    }
                    return new PluginsCommand(SluiceConf.load(), out).run();
                case "sql":
                    return new SqlCommand(SluiceConf.load(), out, err).run(rest);
                case "help":
                case "-h":
                case "--help":
                    out.println(USAGE);
                    return 0;
                default:
                    throw new CliException(CliException.USAGE, "Unknown command '" + args[0] + "'\n\n" + USAGE);
            }
        } catch (CliException e) {
            out.flush();
            err.println("[ERROR] " + e.getMessage());
            return e.exitCode();
        }
    }
}
