package io.sluice.runtime.plugin;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The class-name prefixes a plugin class loader asks the framework's class loader for first. This
 * is the whole of the sharing between the framework and a plugin: the JDK, Scala, Flink, the Sluice
 * SPI, PF4J and the logging APIs. Everything else (Avro, Hadoop, Parquet, Iceberg, Hive, Jackson,
 * Guava ...) comes from the plugin's own jars only.
 *
 * <p>One exception inside Flink's namespace: Flink's format and connector modules that a plugin
 * bundles ({@code flink-parquet}, {@code flink-orc}, {@code flink-connector-hive} ...) are linked
 * against the plugin's own Parquet, ORC, Hadoop or Hive. If a cluster also has such a module in its
 * {@code lib/}, taking it from there would link it to the cluster's libraries while the plugin
 * passes its own: a {@link LinkageError}. So these packages are plugin-first: the plugin's copy
 * when it has one, the framework's otherwise.
 */
public final class ParentFirstPatterns {

    /** Configuration key (Flink configuration, system property) for extra prefixes, {@code ;}-separated. */
    public static final String ADDITIONAL_KEY = "sluice.classloader.parent-first-patterns.additional";

    /** The prefixes always shared with the framework. */
    public static final List<String> DEFAULTS =
            Collections.unmodifiableList(
                    Arrays.asList(
                            "java.",
                            "javax.",
                            "jdk.",
                            "sun.",
                            "scala.",
                            "org.apache.flink.",
                            "io.sluice.spi.",
                            "org.pf4j.",
                            "org.slf4j.",
                            "org.apache.logging.log4j.",
                            "org.apache.log4j.",
                            "org.apache.commons.logging."));

    /** Configuration key for extra plugin-first prefixes, {@code ;}-separated. */
    public static final String PLUGIN_FIRST_ADDITIONAL_KEY = "sluice.classloader.plugin-first-patterns.additional";

    /** Prefixes under a shared prefix that a plugin's own copy wins for (Flink modules bundled with their libraries). */
    public static final List<String> PLUGIN_FIRST_DEFAULTS =
            Collections.unmodifiableList(
                    Arrays.asList(
                            "org.apache.flink.formats.",
                            "org.apache.flink.orc.",
                            "org.apache.flink.connectors.hive.",
                            "org.apache.flink.table.catalog.hive.",
                            "org.apache.flink.table.functions.hive.",
                            "org.apache.flink.table.module.hive.",
                            "org.apache.flink.table.planner.delegation.hive.",
                            "org.apache.iceberg."));

    private final String[] prefixes;
    private final String[] pluginFirst;

    private ParentFirstPatterns(List<String> prefixes, List<String> pluginFirst) {
        this.prefixes = prefixes.toArray(new String[0]);
        this.pluginFirst = pluginFirst.toArray(new String[0]);
    }

    /** The defaults only. */
    public static ParentFirstPatterns defaults() {
        return new ParentFirstPatterns(DEFAULTS, PLUGIN_FIRST_DEFAULTS);
    }

    /** The defaults plus the {@code ;}-separated prefixes in {@code additional} (may be null). */
    public static ParentFirstPatterns withAdditional(String additional) {
        return withAdditional(additional, null);
    }

    /** The defaults plus extra parent-first and extra plugin-first prefixes ({@code ;}-separated, may be null). */
    public static ParentFirstPatterns withAdditional(String additionalParentFirst, String additionalPluginFirst) {
        return new ParentFirstPatterns(concat(DEFAULTS, additionalParentFirst), concat(PLUGIN_FIRST_DEFAULTS, additionalPluginFirst));
    }

    private static List<String> concat(List<String> defaults, String additional) {
        List<String> all = new ArrayList<>(defaults);
        if (additional != null) {
            for (String p : additional.split(";")) {
                if (!p.trim().isEmpty()) {
                    all.add(p.trim());
                }
            }
        }
        return all;
    }

    /**
     * Whether a shared class should still be taken from the plugin's own jars first: a Flink format
     * or connector module the plugin bundles.
     */
    public boolean isPluginFirst(String className) {
        for (String prefix : pluginFirst) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code className} (or a resource path with {@code /}) is shared with the framework. */
    public boolean isParentFirst(String className) {
        for (String prefix : prefixes) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** The prefixes, in order. */
    public List<String> prefixes() {
        return Collections.unmodifiableList(Arrays.asList(prefixes));
    }
}
