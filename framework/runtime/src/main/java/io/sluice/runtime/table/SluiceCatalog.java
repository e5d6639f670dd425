package io.sluice.runtime.table;

import io.sluice.runtime.config.Secrets;
import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.wrap.TcclCatalog;
import io.sluice.spi.FileOptions;
import io.sluice.spi.catalog.CatalogContext;
import io.sluice.spi.catalog.TargetCatalogFactory;

import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.util.TemporaryClassLoaderContext;

import java.lang.reflect.Method;
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
public final class SluiceCatalog extends TcclCatalog {

    private final String target;
    private final TargetCatalogFactory factory;
    private final CatalogContext context;
    private final Map<String, String> pluginSettings;
    /** The catalog's secret table options, by key: its tables carry them masked. */
    private final Map<String, String> hidden = new java.util.concurrent.ConcurrentHashMap<>();

    private SluiceCatalog(
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

    /** The catalog Flink gets for a target's plugin catalog {@code plugin}. */
    static Catalog create(
            TcclCatalog plugin,
            String target,
            TargetCatalogFactory factory,
            CatalogContext context,
            Map<String, String> pluginSettings) {
        return new SluiceCatalog(plugin, target, factory, context, pluginSettings).proxy();
    }

    /** The Sluice catalog behind {@code catalog}, if it is one. */
    public static Optional<SluiceCatalog> of(Object catalog) {
        return handlerOf(catalog).filter(SluiceCatalog.class::isInstance).map(SluiceCatalog.class::cast);
    }

    /**
     * What this catalog answers itself; every other method is the plugin's catalog's.
     *
     * <ul>
     *   <li>{@code getFactory}: Sluice's table factory, for its tables' sources and sinks.
     *   <li>{@code getTableFactory} (Flink 1.x only, the legacy factory stack Sluice does not use):
     *       none.
     *   <li>{@code getFunctionDefinitionFactory}: none. The planner then instantiates a catalog
     *       function's class from the job's class loader, as for any catalog without one. A
     *       plugin's own factory (upstream's Hive catalog has one) would hand Flink plugin objects,
     *       and for a Hive UDF wrap it in plugin classes that end up in the job graph, where the
     *       tasks cannot load them (ARCHITECTURE.md, rule 1).
     *   <li>{@code supportsManagedTable} (Flink 1.x only): false, its tables are Sluice's, never
     *       Flink-managed ones, whatever the plugin's catalog supports.
     *   <li>{@code getTable}: the plugin's table with Sluice's options.
     * </ul>
     *
     * Matched by name: some of these methods exist on one Flink line only.
     */
    @Override
    protected Object call(Method method, Object[] args) throws Throwable {
        if (is(method, "getFactory")) {
            return Optional.of(new SluiceDynamicTableFactory(hidden));
        }
        if (is(method, "getTableFactory") || is(method, "getFunctionDefinitionFactory")) {
            return Optional.empty();
        }
        if (is(method, "supportsManagedTable")) {
            return false;
        }
        if (is(method, "getTable", ObjectPath.class) || is(method, "getTable", ObjectPath.class, long.class)) {
            return asSluiceTable((ObjectPath) args[0], (CatalogBaseTable) callPlugin(method, args));
        }
        return callPlugin(method, args);
    }

    /**
     * Where the plugin's catalog keeps a table's files, if it says ({@code path} among the table's
     * properties, as a hive catalog's tables report their location): for {@code bin/sluice}'s
     * report of what an INSERT committed, which tables with a {@code path} option get anyway.
     */
    public Optional<String> filesLocation(ObjectPath objectPath) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return Optional.ofNullable(
                            delegate.getTable(objectPath).getOptions().get(FileOptions.PATH.key()))
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
