package io.sluice.plugin.hive.it;

import io.sluice.runtime.plugin.wrap.PluginBound;

import org.apache.flink.table.catalog.Catalog;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;

/**
 * Hive's own metastore client ({@code HiveMetaStoreClient}) on the metastore of a Sluice hive
 * catalog, for the tests to read what the catalog wrote. The build keeps the plugin's Hive off the
 * test JVM's class path (which has an older hive-common only), so the client is the one in the
 * plugin's zip, loaded by the plugin's class loader and called reflectively; it is a second client, with its own connection to the
 * metastore's database, not the catalog's.
 */
final class MetastoreProbe implements AutoCloseable {

    private final ClassLoader loader;
    private final Object client;

    private MetastoreProbe(ClassLoader loader, Object client) {
        this.loader = loader;
        this.client = client;
    }

    /** A client with the configuration the catalog's Hive catalog was made with. */
    static MetastoreProbe of(Catalog sluiceCatalog) throws Exception {
        PluginBound bound = (PluginBound) sluiceCatalog;
        Object hiveCatalog = bound.unwrap();
        ClassLoader loader = bound.pluginClassLoader();
        return inPlugin(loader, () -> {
            Object conf = hiveCatalog.getClass().getMethod("getHiveConf").invoke(hiveCatalog);
            Class<?> configuration = Class.forName("org.apache.hadoop.conf.Configuration", false, loader);
            Class<?> clientClass = Class.forName("org.apache.hadoop.hive.metastore.HiveMetaStoreClient", true, loader);
            return new MetastoreProbe(
                    loader, clientClass.getConstructor(configuration).newInstance(conf));
        });
    }

    List<String> databases() throws Exception {
        return strings(call(client, "getAllDatabases"));
    }

    /** The metastore's {@code Table} of {@code db.table}. */
    HiveTable table(String db, String table) throws Exception {
        Object t = call(client, "getTable", new Class<?>[] {String.class, String.class}, db, table);
        Object sd = call(t, "getSd");
        List<String> keys = new ArrayList<>();
        for (Object field : (List<?>) call(t, "getPartitionKeys")) {
            keys.add(call(field, "getName") + " " + call(field, "getType"));
        }
        List<String> columns = new ArrayList<>();
        for (Object field : (List<?>) call(sd, "getCols")) {
            columns.add(call(field, "getName") + " " + call(field, "getType"));
        }
        return new HiveTable(
                (String) call(t, "getTableType"),
                (String) call(sd, "getLocation"),
                (String) call(sd, "getInputFormat"),
                (String) call(sd, "getOutputFormat"),
                (String) call(call(sd, "getSerdeInfo"), "getSerializationLib"),
                columns,
                keys);
    }

    List<String> partitionNames(String db, String table) throws Exception {
        return strings(call(
                client,
                "listPartitionNames",
                new Class<?>[] {String.class, String.class, short.class},
                db,
                table,
                (short) -1));
    }

    /** The location of partition {@code name} ({@code k=v/...}) of {@code db.table}. */
    String partitionLocation(String db, String table, String name) throws Exception {
        Object partition = call(
                client, "getPartition", new Class<?>[] {String.class, String.class, String.class}, db, table, name);
        return (String) call(call(partition, "getSd"), "getLocation");
    }

    @Override
    public void close() throws Exception {
        call(client, "close");
    }

    /** What the tests read of a metastore table. */
    record HiveTable(
            String type,
            String location,
            String inputFormat,
            String outputFormat,
            String serde,
            List<String> columns,
            List<String> partitionKeys) {}

    private Object call(Object target, String method) throws Exception {
        return call(target, method, new Class<?>[0]);
    }

    private Object call(Object target, String method, Class<?>[] types, Object... args) throws Exception {
        return inPlugin(loader, () -> {
            try {
                return target.getClass().getMethod(method, types).invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
            }
        });
    }

    private static List<String> strings(Object list) {
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) list) {
            out.add((String) o);
        }
        return out;
    }

    private interface Call<T> {
        T run() throws Exception;
    }

    /** Hive finds its classes and configuration through the thread's context class loader. */
    private static <T> T inPlugin(ClassLoader loader, Call<T> call) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return call.run();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
