package io.sluice.plugin.iceberg;

import io.sluice.spi.catalog.CatalogContext;
import io.sluice.spi.catalog.TargetCatalogFactory;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkCatalog;
import org.pf4j.Extension;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code CREATE CATALOG c WITH ('type' = 'sluice', 'target' = 'iceberg', 'catalog-type' = ...)}:
 * Iceberg's own Flink catalog over the Iceberg catalog the options describe (opened as the target
 * opens it), with upstream's catalog options ({@code default-database}, {@code base-namespace},
 * {@code cache-enabled}, {@code cache.expiration-interval-ms}, {@code property-version}). Its
 * tables are written by the {@code iceberg} target with the catalog's options, so {@code INSERT
 * INTO c.db.t} needs no connector options.
 */
@Extension
public final class IcebergCatalogFactory implements TargetCatalogFactory {

    static final String DEFAULT_DATABASE = "default-database";
    static final String BASE_NAMESPACE = "base-namespace";
    static final String PROPERTY_VERSION = "property-version";

    /** Options of the catalog itself, which its tables do not take. */
    private static final List<String> CATALOG_ONLY = Arrays.asList(
            DEFAULT_DATABASE,
            BASE_NAMESPACE,
            PROPERTY_VERSION,
            CatalogProperties.CACHE_ENABLED,
            CatalogProperties.CACHE_EXPIRATION_INTERVAL_MS);

    /** The options the iceberg target declares: a catalog's table takes these of the catalog's. */
    private static final Set<String> TABLE_KEYS = tableKeys();

    @Override
    public String identifier() {
        return "iceberg";
    }

    @Override
    public Catalog createCatalog(CatalogContext context) {
        Map<String, String> options = new LinkedHashMap<>(context.options());
        Set<String> unknown = new TreeSet<>(options.keySet());
        unknown.removeIf(IcebergCatalogFactory::forTables);
        unknown.removeAll(CATALOG_ONLY);
        if (!unknown.isEmpty()) {
            Set<String> known = new TreeSet<>(TABLE_KEYS);
            known.addAll(CATALOG_ONLY);
            known.remove(IcebergOptions.CATALOG_TABLE.key());
            known.remove(IcebergOptions.CATALOG_DATABASE.key());
            throw new IllegalArgumentException("Unsupported options for an iceberg catalog: " + unknown
                    + "; supported: " + known + " and keys starting with " + IcebergOptions.CATALOG_PROPERTY_PREFIXES);
        }
        boolean cacheEnabled = Boolean.parseBoolean(options.getOrDefault(
                CatalogProperties.CACHE_ENABLED, String.valueOf(CatalogProperties.CACHE_ENABLED_DEFAULT)));
        long expiration = parseLong(
                options,
                CatalogProperties.CACHE_EXPIRATION_INTERVAL_MS,
                CatalogProperties.CACHE_EXPIRATION_INTERVAL_MS_OFF);
        if (expiration == 0) {
            throw new IllegalArgumentException("Invalid '" + CatalogProperties.CACHE_EXPIRATION_INTERVAL_MS
                    + "' 0: a positive interval, or negative for no expiration");
        }
        String base = options.get(BASE_NAMESPACE);
        Namespace namespace = base == null ? Namespace.empty() : Namespace.of(base.split("\\."));
        OptionsCatalogLoader loader = new OptionsCatalogLoader(withName(context.name(), options));
        closeQuietly(loader.loadCatalog()); // bad catalog options fail here, naming the option
        return new FlinkCatalog(
                context.name(),
                options.getOrDefault(DEFAULT_DATABASE, "default"),
                namespace,
                loader,
                options,
                cacheEnabled,
                expiration);
    }

    /** The catalog's options the target takes, and the table's coordinates. */
    @Override
    public Map<String, String> tableOptions(CatalogContext context, ObjectPath table, Map<String, String> properties) {
        Map<String, String> options = new LinkedHashMap<>();
        withName(context.name(), context.options()).forEach((k, v) -> {
            if (forTables(k)) {
                options.put(k, v);
            }
        });
        options.put(IcebergOptions.CATALOG_DATABASE.key(), table.getDatabaseName());
        options.put(IcebergOptions.CATALOG_TABLE.key(), table.getObjectName());
        return options;
    }

    private static Map<String, String> withName(String name, Map<String, String> options) {
        Map<String, String> named = new LinkedHashMap<>(options);
        named.put(IcebergOptions.CATALOG_NAME.key(), name);
        return named;
    }

    /** Whether the target takes the option: declared, or under one of its passthrough prefixes. */
    private static boolean forTables(String key) {
        return TABLE_KEYS.contains(key)
                || IcebergOptions.CATALOG_PROPERTY_PREFIXES.stream().anyMatch(key::startsWith);
    }

    private static Set<String> tableKeys() {
        Set<String> keys = new TreeSet<>();
        IcebergTargetFactory target = new IcebergTargetFactory();
        for (ConfigOption<?> o : target.requiredOptions()) {
            keys.add(o.key());
        }
        for (ConfigOption<?> o : target.optionalOptions()) {
            keys.add(o.key());
        }
        return keys;
    }

    private static void closeQuietly(org.apache.iceberg.catalog.Catalog catalog) {
        if (catalog instanceof java.io.Closeable) {
            try {
                ((java.io.Closeable) catalog).close();
            } catch (java.io.IOException ignored) {
                // only opened to check the options
            }
        }
    }

    private static long parseLong(Map<String, String> options, String key, long defaultValue) {
        String value = options.get(key);
        try {
            return value == null ? defaultValue : Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Invalid '" + key + "' '" + value + "': not a number", e);
        }
    }

    /** Opens the Iceberg catalog from options, as the target does; serializable, as Flink wants loaders. */
    static final class OptionsCatalogLoader implements CatalogLoader {
        private static final long serialVersionUID = 1L;

        private final HashMap<String, String> options;

        OptionsCatalogLoader(Map<String, String> options) {
            this.options = new HashMap<>(options);
        }

        @Override
        public org.apache.iceberg.catalog.Catalog loadCatalog() {
            return IcebergCatalogs.open(Configuration.fromMap(options));
        }

        @Override
        @SuppressWarnings({"MethodDoesntCallSuperMethod", "checkstyle:NoClone"})
        public CatalogLoader clone() {
            return new OptionsCatalogLoader(options);
        }
    }
}
