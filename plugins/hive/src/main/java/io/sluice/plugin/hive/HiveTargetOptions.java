package io.sluice.plugin.hive;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.catalog.ObjectPath;

import java.util.Map;

/**
 * The hive target's own options, besides the catalog's ({@link HiveCatalogOptions}): which table.
 * A hive catalog's tables get all of them from the catalog ({@code TargetCatalogFactory#tableOptions}).
 */
final class HiveTargetOptions {

    static final ConfigOption<String> CATALOG_NAME = ConfigOptions.key("catalog-name")
            .stringType()
            .noDefaultValue()
            .withDescription("Name of the catalog, for messages");
    static final ConfigOption<String> CATALOG_DATABASE = ConfigOptions.key("catalog-database")
            .stringType()
            .noDefaultValue()
            .withDescription("The Hive table's database");
    static final ConfigOption<String> CATALOG_TABLE =
            ConfigOptions.key("catalog-table").stringType().noDefaultValue().withDescription("The Hive table");

    private HiveTargetOptions() {}

    static ObjectPath tablePath(Map<String, String> options) {
        String db = options.get(CATALOG_DATABASE.key());
        String table = options.get(CATALOG_TABLE.key());
        if (db == null || table == null) {
            throw new IllegalArgumentException("The hive target needs '" + CATALOG_DATABASE.key() + "' and '"
                    + CATALOG_TABLE.key() + "' (a hive catalog's tables have both)");
        }
        return new ObjectPath(db, table);
    }
}
