package io.sluice.runtime.plugin;

import org.apache.flink.configuration.ConfigConstants;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Optional;

/**
 * The Flink configuration ({@code config.yaml}, or a legacy {@code flink-conf.yaml}) of the
 * Flink process this JVM is: a JobManager, a TaskManager or a client such as the SQL client. A
 * Sink V2 writer gets no handle on its TaskManager's configuration, so it is read from the
 * configuration directory again, the one the process was started with: {@code FLINK_CONF_DIR},
 * which Flink's scripts export to every process they start, else the {@code --configDir} (or
 * {@code -c}) argument of the JVM's main class, which every Flink entry point takes.
 *
 * <p>Read once per JVM, on first use: Flink reads its configuration once at start too, so a
 * later edit of the file needs a restart of the process either way. Dynamic properties ({@code -D
 * key=value} on the command line) are not part of it.
 */
final class FlinkProcessConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(FlinkProcessConfiguration.class);
    /**
     * Flink 1.x's old configuration file, which {@link GlobalConfiguration} reads when there is no
     * {@code config.yaml}. Flink 2 dropped the constant and reads only {@code config.yaml}, so
     * there a directory with only this file yields no settings, as for Flink itself.
     */
    static final String LEGACY_FLINK_CONF_FILENAME = "flink-conf.yaml";

    private static volatile Map<String, String> loaded;

    private FlinkProcessConfiguration() {}

    /** The value of {@code key} in this process's Flink configuration, if it has one. */
    static Optional<String> get(String key) {
        Map<String, String> conf = loaded;
        if (conf == null) {
            synchronized (FlinkProcessConfiguration.class) {
                if (loaded == null) {
                    loaded = load(
                            System.getenv(ConfigConstants.ENV_FLINK_CONF_DIR), System.getProperty("sun.java.command"));
                }
                conf = loaded;
            }
        }
        String value = conf.get(key);
        return value == null || value.trim().isEmpty() ? Optional.empty() : Optional.of(value.trim());
    }

    /** The configuration in {@code confDirEnv}, else in the {@code --configDir} of {@code javaCommand}; empty if neither. */
    static Map<String, String> load(String confDirEnv, String javaCommand) {
        Path dir = confDirEnv != null && !confDirEnv.trim().isEmpty()
                ? Paths.get(confDirEnv.trim())
                : configDirArgument(javaCommand);
        if (dir == null || !Files.isDirectory(dir)) {
            return Map.of();
        }
        if (!Files.isRegularFile(dir.resolve(GlobalConfiguration.FLINK_CONF_FILENAME))
                && !Files.isRegularFile(dir.resolve(LEGACY_FLINK_CONF_FILENAME))) {
            return Map.of();
        }
        try {
            Configuration conf = GlobalConfiguration.loadConfiguration(dir.toString());
            return Map.copyOf(conf.toMap());
        } catch (RuntimeException e) {
            // Flink itself would not have started with a configuration it cannot read; a client
            // may have a stale FLINK_CONF_DIR, which must not fail its jobs
            LOG.warn("Cannot read the Flink configuration in {} for Sluice's settings: {}", dir, e.toString());
            return Map.of();
        }
    }

    private static Path configDirArgument(String javaCommand) {
        if (javaCommand == null) {
            return null;
        }
        String[] args = javaCommand.trim().split("\\s+");
        for (int i = 1; i < args.length - 1; i++) {
            if (args[i].equals("--configDir") || args[i].equals("-c")) {
                return Paths.get(args[i + 1]);
            }
        }
        return null;
    }
}
