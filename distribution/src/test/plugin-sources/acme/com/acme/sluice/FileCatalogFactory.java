package com.acme.sluice;

import io.sluice.spi.catalog.CatalogContext;
import io.sluice.spi.catalog.TargetCatalogFactory;

import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.GenericInMemoryCatalog;
import org.apache.flink.table.catalog.ObjectPath;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A third party's catalog: table metadata in memory, and each table's data in files under the
 * catalog's {@code warehouse}, {@code <warehouse>/<database>/<table>}, written and read by the
 * {@code filesystem} target in the format the table's {@code format} property names (csv by
 * default). Shows that a catalog's tables can be served by another plugin's target.
 */
@org.pf4j.Extension
public class FileCatalogFactory implements TargetCatalogFactory {

    @Override
    public String identifier() {
        return "acme-files";
    }

    @Override
    public Catalog createCatalog(CatalogContext context) {
        String warehouse = context.options().get("warehouse");
        if (warehouse == null) {
            throw new IllegalArgumentException("Missing option 'warehouse' of catalog '" + context.name() + "'");
        }
        return new GenericInMemoryCatalog(context.name(), "default");
    }

    @Override
    public Map<String, String> tableOptions(CatalogContext context, ObjectPath table, Map<String, String> properties) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("target", "filesystem");
        options.put(
                "path",
                context.options().get("warehouse") + "/" + table.getDatabaseName() + "/" + table.getObjectName());
        options.put("format", properties.getOrDefault("format", "csv"));
        return options;
    }
}
