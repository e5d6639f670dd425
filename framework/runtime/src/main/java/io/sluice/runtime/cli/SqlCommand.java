package io.sluice.runtime.cli;

import io.sluice.runtime.config.Secrets;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * {@code sluice sql -f FILE [-D name=value]... [-v]}: runs a Flink SQL script in this JVM, each job on an embedded
 * MiniCluster, and stops at the first failing statement.
 */
final class SqlCommand {

    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(2);

    private final SluiceConf conf;
    private final PrintStream out;
    private final PrintStream err;

    SqlCommand(SluiceConf conf, PrintStream out, PrintStream err) {
        this.conf = conf;
        this.out = out;
        this.err = err;
    }

    int run(List<String> args) {
        Arguments arguments = Arguments.parse(args);
        List<SqlStatement> statements = SqlScriptSplitter.split(arguments.variables.substitute(read(arguments.file)));
        StartupOptions startup = StartupOptions.of(statements);
        RuntimeExecutionMode mode = startup.runtimeMode();
        // the table factory finds the plugins through system properties (see SluiceConf)
        conf.exportAsSystemProperties();
        // storage (s3://, hdfs:// ...) as a Flink cluster has it: conf/config.yaml and Flink's file-system plugins
        FlinkStorage.initialize(System.getProperty(SluiceConf.CONF_DIR));
        out.println("Running " + arguments.file + ": " + statements.size() + " statement(s), "
                + mode.name().toLowerCase(Locale.ROOT) + " mode");

        long started = System.nanoTime();
        TableEnvironmentInternal env;
        try {
            env = createEnvironment(startup);
        } catch (Exception | LinkageError e) {
            // a LinkageError here is an incomplete opt/embedded: worth a message, not a stack trace
            ErrorReport.print(err, "Cannot create the Flink table environment", e, arguments.verbose);
            return CliException.FAILED;
        }
        ScriptRunner runner = new ScriptRunner(env, startup, new JobWatcher(out, PROGRESS_INTERVAL), out);
        for (SqlStatement statement : statements) {
            out.println();
            out.println("[" + statement.number() + "] " + Secrets.maskSql(statement.firstLine()));
            if (statement.number() <= startup.statementCount()) {
                out.println("[OK] applied when the environment was created");
                continue;
            }
            try {
                runner.run(statement);
            } catch (Exception | LinkageError e) {
                out.flush();
                ErrorReport.print(
                        err,
                        "Statement " + statement.number() + " (line " + statement.line() + ") failed: "
                                + Secrets.maskSql(statement.firstLine()),
                        e,
                        arguments.verbose);
                return CliException.FAILED;
            }
        }
        try {
            runner.finish();
        } catch (CliException e) {
            ErrorReport.print(err, "The script is incomplete", e, arguments.verbose);
            return CliException.FAILED;
        }
        out.println();
        out.println("Done: " + statements.size() + " statement(s) in " + JobWatcher.seconds(started));
        return 0;
    }

    private static TableEnvironmentInternal createEnvironment(StartupOptions startup) {
        EnvironmentSettings.Builder settings = EnvironmentSettings.newInstance();
        if (startup.runtimeMode() == RuntimeExecutionMode.BATCH) {
            settings.inBatchMode();
        } else {
            settings.inStreamingMode();
        }
        // with no cluster address configured, each job runs on a MiniCluster in this JVM
        TableEnvironment env = TableEnvironment.create(
                settings.withConfiguration(startup.configuration()).build());
        return (TableEnvironmentInternal) env;
    }

    private static String read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new CliException(CliException.USAGE, "SQL script " + file + " does not exist or is not a file");
        }
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CliException(CliException.USAGE, "Cannot read SQL script " + file + ": " + e.getMessage(), e);
        }
    }

    /** The command line of {@code sluice sql}. */
    private static final class Arguments {
        Path file;
        boolean verbose;
        final ScriptVariables variables = new ScriptVariables();

        static Arguments parse(List<String> args) {
            Arguments parsed = new Arguments();
            for (int i = 0; i < args.size(); i++) {
                String arg = args.get(i);
                if (arg.equals("-f") || arg.equals("--file")) {
                    if (i + 1 >= args.size()) {
                        throw new CliException(CliException.USAGE, arg + " needs a file\n\n" + SluiceCli.USAGE);
                    }
                    parsed.file = Paths.get(args.get(++i));
                } else if (arg.startsWith("--file=")) {
                    parsed.file = Paths.get(arg.substring("--file=".length()));
                } else if (arg.equals("-D") || arg.equals("--define")) {
                    if (i + 1 >= args.size()) {
                        throw new CliException(CliException.USAGE, arg + " needs name=value\n\n" + SluiceCli.USAGE);
                    }
                    parsed.variables.define(args.get(++i));
                } else if (arg.startsWith("-D") || arg.startsWith("--define=")) {
                    parsed.variables.define(arg.substring(arg.startsWith("-D") ? 2 : "--define=".length()));
                } else if (arg.equals("-v") || arg.equals("--verbose")) {
                    parsed.verbose = true;
                } else {
                    throw new CliException(
                            CliException.USAGE, "Unknown argument '" + arg + "' of 'sql'\n\n" + SluiceCli.USAGE);
                }
            }
            if (parsed.file == null) {
                throw new CliException(
                        CliException.USAGE, "'sql' needs a script: sluice sql -f FILE\n\n" + SluiceCli.USAGE);
            }
            return parsed;
        }
    }
}
