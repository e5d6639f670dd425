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

    private final String[] prefixes;

    private ParentFirstPatterns(List<String> prefixes) {
        this.prefixes = prefixes.toArray(new String[0]);
    }

    /** The defaults only. */
    public static ParentFirstPatterns defaults() {
        return new ParentFirstPatterns(DEFAULTS);
    }

    /** The defaults plus the {@code ;}-separated prefixes in {@code additional} (may be null). */
    public static ParentFirstPatterns withAdditional(String additional) {
        List<String> all = new ArrayList<>(DEFAULTS);
        if (additional != null) {
            for (String p : additional.split(";")) {
                if (!p.trim().isEmpty()) {
                    all.add(p.trim());
                }
            }
        }
        return new ParentFirstPatterns(all);
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
