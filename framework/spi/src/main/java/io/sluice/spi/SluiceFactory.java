package io.sluice.spi;

import org.apache.flink.configuration.ConfigOption;

import java.util.Collections;
import java.util.Set;

/**
 * Base of every extension a plugin offers: a factory found by its SPI type and its identifier.
 *
 * <p>A plugin exposes a factory as a PF4J extension (annotate the class with {@code
 * org.pf4j.Extension}); the framework finds it through the plugin's extension index, never by
 * scanning a classpath. Identifiers are unique per SPI type across all enabled plugins; a clash is
 * an error that names both plugins.
 *
 * <p>Factories are created once per plugin and JVM and must be stateless and thread-safe. Every
 * call into a factory or anything it returns runs with the plugin's class loader as the thread
 * context class loader.
 *
 * <p>The declared options let the framework reject unknown options and list the valid ones. Keys
 * are given as the user writes them.
 */
public interface SluiceFactory {

    /** The name users select this extension by, e.g. {@code filesystem}, {@code csv}. */
    String identifier();

    /** Options that must be present. */
    default Set<ConfigOption<?>> requiredOptions() {
        return Collections.emptySet();
    }

    /** Options that may be present. */
    default Set<ConfigOption<?>> optionalOptions() {
        return Collections.emptySet();
    }

    /**
     * Prefixes of option keys that the extension hands on, key and value as given, to a library
     * whose set of keys is open-ended (an Iceberg catalog's {@code header.*} properties, say). The
     * framework accepts every key that starts with one of them and leaves checking the values to
     * the extension. Empty by default.
     */
    default Set<String> optionPrefixes() {
        return Collections.emptySet();
    }
}
