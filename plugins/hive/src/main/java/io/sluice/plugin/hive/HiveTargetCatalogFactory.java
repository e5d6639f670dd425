package io.sluice.plugin.hive;

import io.sluice.spi.catalog.CatalogContext;
import io.sluice.spi.catalog.TargetCatalogFactory;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.catalog.Catalog;
import org.pf4j.Extension;

import java.util.LinkedHashSet;
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
}
