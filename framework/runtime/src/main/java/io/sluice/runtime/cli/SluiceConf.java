package io.sluice.runtime.cli;

import io.sluice.runtime.plugin.PluginSettings;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The Sluice settings of one CLI run: {@code conf/sluice.properties} of the installation (found
 * through the system property {@code sluice.conf.dir} that {@code bin/sluice} sets), overridden by
 * JVM system properties, because a value given on the command line is more specific than the
 * installation's file.
 */
final class SluiceConf {

    /** System property naming the directory of {@code sluice.properties}. */
    public static final String CONF_DIR = "sluice.conf.dir";
    /** The settings file inside the configuration directory. */
    public static final String FILE_NAME = "sluice.properties";

    /** Keys a system property may set even when the file does not mention them. */
    private static final List<String> KNOWN_KEYS = Arrays.asList(
            PluginSettings.PLUGINS_DIR, PluginSettings.PLUGINS_ENABLED, PluginSettings.PARENT_FIRST_ADDITIONAL);

    private final Map<String, String> values;

    private SluiceConf(Map<String, String> values) {
        this.values = values;
    }

    /**
     * Reads the file of the configured directory, if any, and applies system properties on top.
     *
     * @throws CliException if the directory is configured but its file cannot be read
     */
    public static SluiceConf load() {
        Map<String, String> values = new TreeMap<>();
        String dir = System.getProperty(CONF_DIR);
        if (dir != null && !dir.trim().isEmpty()) {
            Path file = Paths.get(dir.trim()).resolve(FILE_NAME);
            // a missing file is fine: every key has a default; an unreadable one is not
            if (Files.exists(file)) {
                values.putAll(read(file));
            }
        }
        for (String key : KNOWN_KEYS) {
            putIfNotBlank(values, key, System.getProperty(key));
        }
        for (String key : values.keySet().toArray(new String[0])) {
            putIfNotBlank(values, key, System.getProperty(key));
        }
        return new SluiceConf(values);
    }

    private static Map<String, String> read(Path file) {
        Properties props = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(reader);
        } catch (IOException e) {
            throw new CliException(CliException.USAGE, "Cannot read " + file + ": " + e.getMessage(), e);
        }
        Map<String, String> values = new TreeMap<>();
        for (String key : props.stringPropertyNames()) {
            // an empty value in the shipped file means "use the default", not "set to empty"
            putIfNotBlank(values, key, props.getProperty(key));
        }
        return values;
    }

    private static void putIfNotBlank(Map<String, String> values, String key, String value) {
        if (value != null && !value.trim().isEmpty()) {
            values.put(key, value.trim());
        }
    }

    /** The effective settings, as options for {@link PluginSettings#fromOptions}. */
    public Map<String, String> options() {
        return Collections.unmodifiableMap(values);
    }

    /**
     * Publishes the settings as system properties. A SQL job resolves its plugins through the
     * table factory, which sees only table options and system properties, not this file.
     */
    public void exportAsSystemProperties() {
        values.forEach(System::setProperty);
    }
}
