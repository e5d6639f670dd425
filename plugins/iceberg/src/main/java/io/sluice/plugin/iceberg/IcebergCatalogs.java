package io.sluice.plugin.iceberg;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.hadoop.HadoopCatalog;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Opens the Iceberg catalog that the sink's options describe, the way Iceberg's Flink connector
 * reads the same options: {@code catalog-impl} names a catalog class, otherwise {@code
 * catalog-type} picks a built-in one ({@code hive} when neither is set).
 */
final class IcebergCatalogs {

    private IcebergCatalogs() {}

    /**
     * @throws IllegalArgumentException naming the option and value that do not describe a catalog
     *     this version can open, or the catalog's own complaint about its properties
     */
    static Catalog open(ReadableConfig options) {
        String name = options.get(IcebergOptions.CATALOG_NAME);
        Map<String, String> properties = new HashMap<>();
        options.getOptional(IcebergOptions.WAREHOUSE).ifPresent(v -> properties.put(CatalogProperties.WAREHOUSE_LOCATION, v));
        options.getOptional(IcebergOptions.URI).ifPresent(v -> properties.put(CatalogProperties.URI, v));
        String implementation = implementation(options);
        try {
            return CatalogUtil.loadCatalog(implementation, name, properties, HadoopConfigurations.create());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Cannot open Iceberg catalog '" + name + "' (" + implementation + "): "
                    + e.getMessage(), e);
        }
    }

    /** The catalog class the options choose. */
    private static String implementation(ReadableConfig options) {
        Optional<String> impl = options.getOptional(IcebergOptions.CATALOG_IMPL);
        Optional<String> type = options.getOptional(IcebergOptions.CATALOG_TYPE);
        if (impl.isPresent()) {
            if (type.isPresent()) {
                throw new IllegalArgumentException("Options '" + IcebergOptions.CATALOG_TYPE.key() + "' ('" + type.get()
                        + "') and '" + IcebergOptions.CATALOG_IMPL.key() + "' ('" + impl.get() + "') exclude each other: set one");
            }
            return impl.get();
        }
        String kind = type.orElse(IcebergOptions.DEFAULT_CATALOG_TYPE).toLowerCase(Locale.ROOT);
        switch (kind) {
            case "hadoop":
                if (!options.getOptional(IcebergOptions.WAREHOUSE).isPresent()) {
                    throw new IllegalArgumentException("Option '" + IcebergOptions.WAREHOUSE.key()
                            + "' is required with '" + IcebergOptions.CATALOG_TYPE.key() + "' = 'hadoop'");
                }
                return HadoopCatalog.class.getName();
            case "hive":
            case "rest":
                throw new IllegalArgumentException("'" + IcebergOptions.CATALOG_TYPE.key() + "' = '" + kind + "'"
                        + (type.isPresent() ? "" : " (the default when neither 'catalog-type' nor 'catalog-impl' is set)")
                        + " is not supported by this version of the iceberg target yet: use 'catalog-type' = 'hadoop',"
                        + " or a catalog class in 'catalog-impl'");
            default:
                throw new IllegalArgumentException("Invalid '" + IcebergOptions.CATALOG_TYPE.key() + "' '" + type.get()
                        + "': must be 'hadoop', 'hive' or 'rest'");
        }
    }
}
