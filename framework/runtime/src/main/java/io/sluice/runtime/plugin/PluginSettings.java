package io.sluice.runtime.plugin;

import java.io.Serializable;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where plugins are and which of them are enabled. Part of every sink and source descriptor, so
 * that a task can find the registry of its own JVM.
 *
 * <p>The plugins directory, in order of precedence:
 * <ul>
 *   <li>on the client: the table option or builder call, the system property {@code
 *       sluice.plugins.dir}, the environment variable {@code SLUICE_PLUGINS_DIR}, the key {@code
 *       sluice.plugins.dir} in the client's Flink configuration ({@link FlinkProcessConfiguration});
 *   <li>on a task (TaskManager, or the JobManager for a source's enumerator): the process's own
 *       setting, the same three in the same order, wins over the directory carried from the
 *       client, because the client's path need not exist on the task's machine.
 * </ul>
 * The Flink configuration is what an operator edits anyway ({@code config.yaml}); the system
 * property would have to go into {@code env.java.opts.all}, which Flink 1.20's default {@code
 * config.yaml} already sets to the JDK 17 flags.
 */
public final class PluginSettings implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Option / system property naming the plugins directory. */
    public static final String PLUGINS_DIR = "sluice.plugins.dir";
    /** Environment variable naming the plugins directory. */
    public static final String PLUGINS_DIR_ENV = "SLUICE_PLUGINS_DIR";
    /** Option / system property: comma-separated ids of the plugins to load; all when absent. */
    public static final String PLUGINS_ENABLED = "sluice.plugins.enabled";
    /** Option / system property: extra {@code ;}-separated prefixes plugins share with the framework ({@link ClassLoadingRule}). */
    public static final String PARENT_FIRST_ADDITIONAL = "sluice.classloader.parent-first-patterns.additional";
    /** Option / system property: extra {@code ;}-separated prefixes under the shared ones that a plugin's own copy wins for. */
    public static final String PLUGIN_FIRST_ADDITIONAL = "sluice.classloader.plugin-first-patterns.additional";

    private final String pluginsDir;
    private final TreeSet<String> enabled; // empty: all
    private final String additionalParentFirst;
    private final String additionalPluginFirst;

    private PluginSettings(
            String pluginsDir, Set<String> enabled, String additionalParentFirst, String additionalPluginFirst) {
        this.pluginsDir = pluginsDir;
        this.enabled = new TreeSet<>(enabled);
        this.additionalParentFirst = additionalParentFirst == null ? "" : additionalParentFirst;
        this.additionalPluginFirst = additionalPluginFirst == null ? "" : additionalPluginFirst;
    }

    /** Settings with an explicit directory, all plugins enabled. */
    public static PluginSettings of(Path pluginsDir) {
        return new PluginSettings(
                pluginsDir.toAbsolutePath().normalize().toString(), Collections.emptySet(), null, null);
    }

    /**
     * Settings from options (table options, a configuration map), falling back to system
     * properties and the environment.
     *
     * @throws IllegalArgumentException if no plugins directory is configured anywhere, or a
     *     plugin-first prefix is not under a shared one
     */
    public static PluginSettings fromOptions(Map<String, String> options) {
        String dir = firstNonEmpty(options.get(PLUGINS_DIR), processSetting());
        if (dir == null) {
            throw new IllegalArgumentException(
                    "No plugins directory: set the option '" + PLUGINS_DIR + "', the system property '"
                            + PLUGINS_DIR + "', the environment variable " + PLUGINS_DIR_ENV + " or the key '"
                            + PLUGINS_DIR + "' in Flink's config.yaml");
        }
        String enabled = firstNonEmpty(
                options.get(PLUGINS_ENABLED),
                System.getProperty(PLUGINS_ENABLED),
                FlinkProcessConfiguration.get(PLUGINS_ENABLED).orElse(null));
        String additional =
                firstNonEmpty(options.get(PARENT_FIRST_ADDITIONAL), System.getProperty(PARENT_FIRST_ADDITIONAL));
        String pluginFirst =
                firstNonEmpty(options.get(PLUGIN_FIRST_ADDITIONAL), System.getProperty(PLUGIN_FIRST_ADDITIONAL));
        // here, where the client validates its options, rather than when a task first loads the plugins
        ClassLoadingRule.withAdditional(additional, pluginFirst);
        return new PluginSettings(
                Paths.get(dir).toAbsolutePath().normalize().toString(), parseList(enabled), additional, pluginFirst);
    }

    /** These settings as seen from a task's JVM: its own directory setting wins. */
    public PluginSettings onTask() {
        String own = processSetting();
        return own == null
                ? this
                : new PluginSettings(
                        Paths.get(own).toAbsolutePath().normalize().toString(),
                        enabled,
                        additionalParentFirst,
                        additionalPluginFirst);
    }

    /**
     * This JVM's own plugins directory: the system property, else the environment variable, else
     * the key in the process's Flink configuration; {@code null} if none is set.
     */
    static String processSetting() {
        String explicit = firstNonEmpty(System.getProperty(PLUGINS_DIR), System.getenv(PLUGINS_DIR_ENV));
        return explicit != null
                ? explicit
                : FlinkProcessConfiguration.get(PLUGINS_DIR).orElse(null);
    }

    /** With only the given plugin ids enabled. */
    public PluginSettings withEnabled(String... ids) {
        return new PluginSettings(
                pluginsDir, new TreeSet<>(Arrays.asList(ids)), additionalParentFirst, additionalPluginFirst);
    }

    public Path pluginsDir() {
        return Paths.get(pluginsDir);
    }

    /** Enabled plugin ids; empty means all. */
    public Set<String> enabled() {
        return Collections.unmodifiableSet(enabled);
    }

    /** The class-loading rule of the plugin class loaders, with the configured extra prefixes. */
    public ClassLoadingRule classLoadingRule() {
        return ClassLoadingRule.withAdditional(additionalParentFirst, additionalPluginFirst);
    }

    private static Set<String> parseList(String value) {
        Set<String> ids = new TreeSet<>();
        if (value != null) {
            for (String id : value.split(",")) {
                if (!id.trim().isEmpty()) {
                    ids.add(id.trim());
                }
            }
        }
        return ids;
    }

    private static String firstNonEmpty(String... values) {
        for (String v : values) {
            if (v != null && !v.trim().isEmpty()) {
                return v.trim();
            }
        }
        return null;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PluginSettings)) {
            return false;
        }
        PluginSettings that = (PluginSettings) o;
        return pluginsDir.equals(that.pluginsDir)
                && enabled.equals(that.enabled)
                && additionalParentFirst.equals(that.additionalParentFirst)
                && additionalPluginFirst.equals(that.additionalPluginFirst);
    }

    @Override
    public int hashCode() {
        return Objects.hash(pluginsDir, enabled, additionalParentFirst, additionalPluginFirst);
    }

    @Override
    public String toString() {
        return "PluginSettings{dir=" + pluginsDir + ", enabled=" + (enabled.isEmpty() ? "all" : enabled) + "}";
    }
}
