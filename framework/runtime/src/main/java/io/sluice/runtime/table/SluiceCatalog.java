package io.sluice.runtime.table;

import io.sluice.runtime.config.Secrets;
import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.wrap.TcclCatalog;
import io.sluice.spi.FileOptions;
import io.sluice.spi.catalog.CatalogContext;
import io.sluice.spi.catalog.TargetCatalogFactory;

import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.factories.TableFactory;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A target's catalog as Flink sees it: the plugin's catalog for the metadata, and Sluice's table
 * factory for its tables' sources and sinks. A table it hands out carries the Sluice options of
 * {@link TargetCatalogFactory#tableOptions} (the target's by default, unless the plugin names
 * another) and the catalog's plugin settings, so a job reads and writes it like a {@code
 * 'connector' = 'sluice'} table.
 */
@SuppressWarnings("deprecation") // Catalog#getTableFactory: Flink's legacy stack, which Sluice does not use
public final class SluiceCatalog extends TcclCatalog {

    private final String target;
    private final TargetCatalogFactory factory;
    private final CatalogContext context;
    private final Map<String, String> pluginSettings;
    /** The catalog's secret table options, by key: its tables carry them masked. */
    private final Map<String, String> hidden = new java.util.concurrent.ConcurrentHashMap<>();

    SluiceCatalog(
            TcclCatalog plugin,
            String target,
            TargetCatalogFactory factory,
            CatalogContext context,
            Map<String, String> pluginSettings) {
        super(plugin);
        this.target = target;
        this.factory = factory;
        this.context = context;
        this.pluginSettings = pluginSettings;
    }

    @Override
    public Optional<Factory> getFactory() {
        return Optional.of(new SluiceDynamicTableFactory(hidden));
    }

    @Override
    public Optional<TableFactory> getTableFactory() {
        return Optional.empty();
    }

    /**
     * None: the planner then instantiates a catalog function's class from the job's class loader,
     * as for any catalog without one. A plugin's own factory (upstream's Hive catalog has one) would
     * hand Flink plugin objects, and for a Hive UDF wrap it in plugin classes that end up in the job
     * graph, where the tasks cannot load them (ARCHITECTURE.md, rule 1).
     */
    @Override
    public Optional<org.apache.flink.table.factories.FunctionDefinitionFactory> getFunctionDefinitionFactory() {
        return Optional.empty();
    }

    /** Its tables are Sluice's, never Flink-managed ones, whatever the plugin's catalog supports. */
    @Override
    public boolean supportsManagedTable() {
        return false;
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath objectPath) throws TableNotExistException, CatalogException {
        return asSluiceTable(objectPath, super.getTable(objectPath));
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath objectPath, long timestamp)
            throws TableNotExistException, CatalogException {
        return asSluiceTable(objectPath, super.getTable(objectPath, timestamp));
    }

    /**
     * Where the plugin's catalog keeps a table's files, if it says ({@code path} among the table's
     * properties, as a hive catalog's tables report their location): for {@code bin/sluice}'s
     * report of what an INSERT committed, which tables with a {@code path} option get anyway.
     */
    public Optional<String> filesLocation(ObjectPath objectPath) {
        try {
            return Optional.ofNullable(super.getTable(objectPath).getOptions().get(FileOptions.PATH.key()))
                    .map(String::trim)
                    .filter(location -> !location.isEmpty());
        } catch (TableNotExistException | RuntimeException e) {
            return Optional.empty(); // the report is a courtesy
        }
    }

    private CatalogBaseTable asSluiceTable(ObjectPath path, CatalogBaseTable table) {
        if (!(table instanceof CatalogTable)) {
            return table; // views are the planner's
        }
        Map<String, String> options = new LinkedHashMap<>();
        options.put(SluiceOptions.TARGET.key(), target);
        options.putAll(pluginSettings);
        options.putAll(factory.tableOptions(context, path, table.getOptions()));
        // SHOW CREATE TABLE and Flink's "Table options are" dumps print a catalog table's options
        // as they are: secrets stay here and the factory of getFactory() puts them back
        Map<String, String> shown = new LinkedHashMap<>();
        options.forEach((key, value) -> {
            String masked = Secrets.mask(key, value);
            if (!masked.equals(value)) {
                hidden.put(key, value);
            }
            shown.put(key, masked);
        });
        return ((CatalogTable) table).copy(shown);
    }
}
