package io.sluice.plugin.hive;

import io.sluice.spi.catalog.CatalogContext;
import io.sluice.spi.catalog.TargetCatalogFactory;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.catalog.Catalog;
import org.pf4j.Extension;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code CREATE CATALOG c WITH ('type' = 'sluice', 'target' = 'hive', ...)}: upstream's Hive
 * catalog inside the plugin, over the metastore of {@code hive-conf-dir} or, with {@code
 * 'metastore' = 'embedded'}, over a Derby metastore in {@code metastore.dir}. Its tables are Hive
 * tables (see {@link SluiceHiveCatalog}); databases, partitions, {@code SHOW} and {@code DESCRIBE}
 * are upstream's.
 */
@Extension
public final class HiveTargetCatalogFactory implements TargetCatalogFactory {

    @Override
    public String identifier() {
        return "hive";
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return new LinkedHashSet<>(HiveCatalogOptions.ALL);
    }

    @Override
    public Catalog createCatalog(CatalogContext context) {
        return HiveCatalogs.create(context.name(), context.options());
    }

    /**
     * The key families of Flink's connector options that a Hive table's properties ({@code
     * TBLPROPERTIES}, or {@code WITH} in the default dialect) may hold, as upstream reads them:
     * the partition commit, rolling, compaction, distribution and streaming-source options. The
     * table's other properties are Hive's own (statistics, {@code transient_lastDdlTime}, SerDe
     * and storage keys), which the target reads from the table itself.
     */
    static final List<String> CONNECTOR_OPTION_FAMILIES = List.of(
            "sink.", "partition.", "auto-compaction", "compaction.", "distribution", "streaming-source.", "lookup.");

    /**
     * The catalog's options, and the table's properties of {@link #CONNECTOR_OPTION_FAMILIES}: the
     * page's {@code TBLPROPERTIES ('sink.partition-commit.policy.kind' = 'metastore,success-file', ...)}
     * configure the sink as upstream's do. A hint's options override them, as Flink merges hints
     * over a table's options. The storage keys and the other table properties (under {@link
     * HiveTableDefinition#TABLE_PROPERTY_PREFIX}) come along so that SHOW CREATE TABLE prints a
     * statement that makes the same table; Hive's own bookkeeping (statistics, times) stays out.
     */
    @Override
    public Map<String, String> tableOptions(
            CatalogContext context, org.apache.flink.table.catalog.ObjectPath table, Map<String, String> properties) {
        Map<String, String> options = TargetCatalogFactory.super.tableOptions(context, table, properties);
        properties.forEach((key, value) -> {
            if (CONNECTOR_OPTION_FAMILIES.stream().anyMatch(key::startsWith) || HiveTableDefinition.isStorageKey(key)) {
                options.put(key, value);
            } else if (!HiveTableDefinition.isHiveOwn(key)) {
                // printed by SHOW CREATE TABLE; the target reads the table's properties from the table
                options.put(HiveTableDefinition.TABLE_PROPERTY_PREFIX + key, value);
            }
        });
        return options;
    }
}
