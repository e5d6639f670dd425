package io.sluice.runtime.table;

import io.sluice.runtime.config.Secrets;
import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.FileOptions;
import io.sluice.spi.catalog.CatalogContext;
import io.sluice.spi.catalog.TargetCatalogFactory;

import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A target's catalog as Flink sees it: the plugin's catalog for the metadata, and Sluice's table
 * factory for its tables' sources and sinks. A table it hands out carries the Sluice options of
 * {@link TargetCatalogFactory#tableOptions} (the target's by default, unless the plugin names
 * another) and the catalog's plugin settings, so a job reads and writes it like a {@code
 * 'connector' = 'sluice'} table.
 *
 * <p>A proxy, as the plugin's catalog it stands in front of (the TCCL wrapper's, which runs every
 * call under the plugin's loader), so that one binary serves every Flink line; it is {@link
 * PluginBound} as that one is, with the same loader and plugin catalog.
 */
public final class SluiceCatalog implements InvocationHandler {

    private static final Method PLUGIN_CLASS_LOADER = method(PluginBound.class, "pluginClassLoader");
    private static final Method UNWRAP = method(PluginBound.class, "unwrap");

    /** The plugin's catalog, TCCL-wrapped: a {@link Catalog} that is {@link PluginBound}. */
    private final Catalog plugin;

    private final String target;
    private final TargetCatalogFactory factory;
    private final CatalogContext context;
    private final Map<String, String> pluginSettings;
    /** The catalog's secret table options, by key: its tables carry them masked. */
    private final Map<String, String> hidden = new java.util.concurrent.ConcurrentHashMap<>();

    private SluiceCatalog(
            Catalog plugin,
            String target,
            TargetCatalogFactory factory,
            CatalogContext context,
            Map<String, String> pluginSettings) {
        this.plugin = plugin;
        this.target = target;
        this.factory = factory;
        this.context = context;
        this.pluginSettings = pluginSettings;
    }

    /**
     * The catalog Flink gets for a target's plugin catalog {@code plugin}, as the plugin's {@link
     * TargetCatalogFactory} handed it out (TCCL-wrapped).
     *
     * @throws IllegalStateException if {@code plugin} is not a plugin's catalog
     */
    static Catalog create(
            Catalog plugin,
            String target,
            TargetCatalogFactory factory,
            CatalogContext context,
            Map<String, String> pluginSettings) {
        if (!(plugin instanceof PluginBound)) {
            throw new IllegalStateException("not a plugin's catalog: " + plugin);
        }
        // the framework's loader: it sees Catalog and PluginBound, the proxy class is the framework's
        return (Catalog) Proxy.newProxyInstance(
                SluiceCatalog.class.getClassLoader(),
                new Class<?>[] {Catalog.class, PluginBound.class},
                new SluiceCatalog(plugin, target, factory, context, pluginSettings));
    }

    /** The Sluice catalog behind {@code catalog}, if it is one. */
    public static Optional<SluiceCatalog> of(Object catalog) {
        if (catalog != null
                && Proxy.isProxyClass(catalog.getClass())
                && Proxy.getInvocationHandler(catalog) instanceof SluiceCatalog) {
            return Optional.of((SluiceCatalog) Proxy.getInvocationHandler(catalog));
        }
        return Optional.empty();
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
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            switch (method.getName()) {
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                default:
                    return "SluiceCatalog(" + ((PluginBound) plugin).unwrap() + ")";
            }
        }
        if (method.equals(PLUGIN_CLASS_LOADER) || method.equals(UNWRAP)) {
            return method.invoke(plugin);
        }
        if (is(method, "getFactory")) {
            return Optional.of(new SluiceDynamicTableFactory(hidden, target));
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

    /** {@code method} of the plugin's catalog (under the plugin's loader, by its wrapper). */
    private Object callPlugin(Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(plugin, args);
        } catch (InvocationTargetException e) {
            throw e.getCause(); // the plugin's exceptions reach the caller as they are
        }
    }

    /** Whether {@code method} is {@code name} with these parameter types (by name: some are not on every line). */
    private static boolean is(Method method, String name, Class<?>... parameters) {
        return method.getName().equals(name) && Arrays.equals(method.getParameterTypes(), parameters);
    }

    private static Method method(Class<?> type, String name) {
        try {
            return type.getMethod(name);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Where the plugin's catalog keeps a table's files, if it says ({@code path} among the table's
     * properties, as a hive catalog's tables report their location): for {@code bin/sluice}'s
     * report of what an INSERT committed, which tables with a {@code path} option get anyway.
     */
    public Optional<String> filesLocation(ObjectPath objectPath) {
        try {
            return Optional.ofNullable(plugin.getTable(objectPath).getOptions().get(FileOptions.PATH.key()))
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
