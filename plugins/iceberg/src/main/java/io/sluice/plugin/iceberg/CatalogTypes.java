package io.sluice.plugin.iceberg;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.iceberg.CatalogUtil;

import java.util.Locale;
import java.util.Optional;

/**
 * Maps {@code catalog-type} / {@code catalog-impl} to the Iceberg catalog class, as upstream's
 * {@code FlinkCatalogFactory} does, and checks the options each built-in type cannot do without
 * before the catalog fails on them with a less telling message.
 */
final class CatalogTypes {

    /** Upstream's default when neither {@code catalog-type} nor {@code catalog-impl} is set. */
    static final String DEFAULT = "hive";

    private CatalogTypes() {}

    /**
     * The catalog class the options choose.
     *
     * @throws IllegalArgumentException naming the option and value at fault
     */
    static String implementation(ReadableConfig options) {
        Optional<String> impl = options.getOptional(IcebergOptions.CATALOG_IMPL);
        Optional<String> type = options.getOptional(IcebergOptions.CATALOG_TYPE);
        if (impl.isPresent()) {
            if (type.isPresent()) {
                throw new IllegalArgumentException("Options '" + IcebergOptions.CATALOG_TYPE.key() + "' ('" + type.get()
                        + "') and '" + IcebergOptions.CATALOG_IMPL.key() + "' ('" + impl.get()
                        + "') exclude each other: set one");
            }
            return impl.get();
        }
        String kind = type.orElse(DEFAULT).toLowerCase(Locale.ROOT);
        String defaulted =
                type.isPresent() ? "" : " (the default when neither 'catalog-type' nor 'catalog-impl' is set)";
        switch (kind) {
            case CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP:
                if (!options.getOptional(IcebergOptions.WAREHOUSE).isPresent()) {
                    throw new IllegalArgumentException("Option '" + IcebergOptions.WAREHOUSE.key()
                            + "' is required with '" + IcebergOptions.CATALOG_TYPE.key() + "' = 'hadoop'");
                }
                return CatalogUtil.ICEBERG_CATALOG_HADOOP;
            case CatalogUtil.ICEBERG_CATALOG_TYPE_HIVE:
                checkHive(options, defaulted);
                return CatalogUtil.ICEBERG_CATALOG_HIVE;
            case CatalogUtil.ICEBERG_CATALOG_TYPE_REST:
                checkRest(options);
                return CatalogUtil.ICEBERG_CATALOG_REST;
            default:
                throw new IllegalArgumentException("Invalid '" + IcebergOptions.CATALOG_TYPE.key() + "' '" + type.get()
                        + "': must be 'hadoop', 'hive' or 'rest', or set 'catalog-impl' to a catalog class instead");
        }
    }

    private static void checkHive(ReadableConfig options, String defaulted) {
        Optional<String> uri = options.getOptional(IcebergOptions.URI);
        if (uri.isEmpty() && options.getOptional(IcebergOptions.HIVE_CONF_DIR).isEmpty()) {
            // without either, Hive would start an embedded metastore inside the client: never what a sink wants
            throw new IllegalArgumentException("'" + IcebergOptions.CATALOG_TYPE.key() + "' = 'hive'" + defaulted
                    + " needs option '" + IcebergOptions.URI.key() + "' (thrift://host:port of the Hive metastore) or '"
                    + IcebergOptions.HIVE_CONF_DIR.key()
                    + "' (a directory whose hive-site.xml sets hive.metastore.uris)");
        }
        uri.ifPresent(value -> {
            for (String one : value.split(",")) {
                if (!one.trim().startsWith("thrift://")) {
                    throw new IllegalArgumentException(
                            "Invalid '" + IcebergOptions.URI.key() + "' '" + value
                                    + "' for 'catalog-type' = 'hive': expected thrift://host:port (comma-separated for several metastores)");
                }
            }
        });
    }

    private static void checkRest(ReadableConfig options) {
        String uri = options.getOptional(IcebergOptions.URI)
                .orElseThrow(() -> new IllegalArgumentException("Option '" + IcebergOptions.URI.key()
                        + "' is required with '" + IcebergOptions.CATALOG_TYPE.key()
                        + "' = 'rest' (the REST catalog's http(s) endpoint)"));
        if (!uri.startsWith("http://") && !uri.startsWith("https://")) {
            throw new IllegalArgumentException("Invalid '" + IcebergOptions.URI.key() + "' '" + uri
                    + "' for 'catalog-type' = 'rest': expected an http:// or https:// endpoint");
        }
    }
}
