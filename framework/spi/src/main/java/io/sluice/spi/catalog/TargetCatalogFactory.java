package io.sluice.spi.catalog;

import io.sluice.spi.SluiceFactory;

import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.ObjectPath;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Flink catalog of a target: {@code CREATE CATALOG c WITH ('type' = 'sluice', 'target' =
 * '<identifier>', ...)} creates it, and every table of it reads and writes through the framework's
 * pipeline with that target. The identifier is the target's.
 *
 * <p>The plugin's catalog does the metadata (databases, tables, partitions); the framework wraps it
 * so that Flink only meets framework classes, every call runs under the plugin's class loader, and
 * the planner builds the tables' sources and sinks with Sluice's table factory, from {@link
 * #tableOptions}.
 */
public interface TargetCatalogFactory extends SluiceFactory {

    /**
     * Creates the catalog.
     *
     * @throws IllegalArgumentException naming the option and value for invalid options
     */
    Catalog createCatalog(CatalogContext context);

    /**
     * The Sluice table options of a table of the catalog, which the target's writer and reader get
     * (besides {@code target} and the plugin settings, which the framework adds). The default is
     * the catalog's options plus {@code catalog-name}, {@code catalog-database} and {@code
     * catalog-table}; the table's own properties (those the catalog reports) are left out, as the
     * target reads them from the table itself.
     */
    default Map<String, String> tableOptions(
            CatalogContext context, ObjectPath table, Map<String, String> tableProperties) {
        Map<String, String> options = new LinkedHashMap<>(context.options());
        options.put("catalog-name", context.name());
        options.put("catalog-database", table.getDatabaseName());
        options.put("catalog-table", table.getObjectName());
        return options;
    }
}
