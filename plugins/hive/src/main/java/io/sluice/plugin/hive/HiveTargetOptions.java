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

    /**
     * The framework's partition commit option (the framework's {@code SluiceOptions}, which a plugin
     * does not see), read by the target for its defaults and by the dynamic sink's tables.
     */
    static final String POLICY_KIND = "sink.partition-commit.policy.kind";

    /**
     * Job configuration, as upstream: in BATCH the planner sorts the rows by the dynamic partition
     * columns before the writers, which then have one partition's file open at a time; with
     * {@code false} a writer keeps a file open for every partition it has rows for until the end.
     */
    static final ConfigOption<Boolean> SORT_BY_DYNAMIC_PARTITION = ConfigOptions.key(
                    "table.exec.hive.sink.sort-by-dynamic-partition.enable")
            .booleanType()
            .defaultValue(true)
            .withDescription("BATCH: sort the rows by the dynamic partition columns before the writers");

    private HiveTargetOptions() {}

    /** {@link #SORT_BY_DYNAMIC_PARTITION}, named in the error if it is no boolean. */
    static boolean sortByDynamicPartition(io.sluice.spi.sink.SinkContext context) {
        try {
            return context.jobConfiguration().get(SORT_BY_DYNAMIC_PARTITION);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Invalid '" + SORT_BY_DYNAMIC_PARTITION.key() + "': " + e.getMessage() + " (true or false)", e);
        }
    }

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
