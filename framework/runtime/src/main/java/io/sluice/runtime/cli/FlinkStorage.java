package io.sluice.runtime.cli;

import org.apache.flink.configuration.ConfigConstants;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginManager;
import org.apache.flink.core.plugin.PluginUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Sets up Flink's file systems for {@code bin/sluice} as a Flink process does at its start: the
 * storage settings of {@code conf/config.yaml} ({@code s3.*}, {@code fs.*}, {@code gs.*} ...: the
 * same keys and file a cluster reads) and Flink's file-system plugins from {@code FLINK_PLUGINS_DIR}
 * (each plugin in a folder of its own, as under {@code $FLINK_HOME/plugins}: {@code flink-s3-fs-hadoop},
 * {@code -presto}, gs, azure, oss). Without it an embedded MiniCluster knows only the file systems of
 * its class path, and {@code s3://} paths fail with "Could not find a file system implementation".
 */
final class FlinkStorage {

    private static final Logger LOG = LoggerFactory.getLogger(FlinkStorage.class);

    /** Flink's configuration file in the configuration directory (Flink 1.19+). */
    static final String CONFIG_FILE = "config.yaml";

    private FlinkStorage() {}

    /**
     * Initializes this JVM's Flink file systems from {@code confDir}'s {@value #CONFIG_FILE} (none
     * when the directory or the file is missing) and the plugins of {@code FLINK_PLUGINS_DIR}.
     *
     * @return the configuration read, for the table environment to start from
     * @throws CliException naming the file when it cannot be read
     */
    static Configuration initialize(String confDir) {
        Configuration conf = new Configuration();
        if (confDir != null && !confDir.isBlank() && Files.isRegularFile(Paths.get(confDir, CONFIG_FILE))) {
            try {
                conf = GlobalConfiguration.loadConfiguration(confDir);
            } catch (RuntimeException e) {
                throw new CliException(
                        CliException.USAGE,
                        "Cannot read " + Paths.get(confDir, CONFIG_FILE) + ": " + e.getMessage(),
                        e);
            }
        }
        PluginManager plugins = PluginUtils.createPluginManagerFromRootFolder(conf);
        FileSystem.initialize(conf, plugins);
        String pluginsDir = System.getenv(ConfigConstants.ENV_FLINK_PLUGINS_DIR);
        LOG.info(
                "Flink file systems from {} and the plugins of {}",
                confDir == null ? "(no configuration directory)" : Paths.get(confDir, CONFIG_FILE),
                pluginsDir == null ? "(FLINK_PLUGINS_DIR not set)" : Path.of(pluginsDir));
        return conf;
    }
}
