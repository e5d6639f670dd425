package io.sluice.plugin.hive.it;

import io.sluice.runtime.plugin.PluginBound;

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

    /**
     * Deserializes records of {@code db.table} the way Hive's readers do: the table's own SerDe
     * (from the plugin's hive-exec), initialized with the properties Hive derives from the
     * metastore's table ({@code MetaStoreUtils.getTableMetadata}), each record handed over as the
     * {@code Text} a text or SequenceFile reader produces; the result is Hive's standard Java
     * objects of the row's columns ({@code Integer}, {@code String}, {@code List} ...).
     */
    List<List<Object>> deserialize(String db, String table, List<byte[]> records) throws Exception {
        Object t = call(client, "getTable", new Class<?>[] {String.class, String.class}, db, table);
        return inPlugin(loader, () -> {
            try {
                Class<?> tableClass = Class.forName("org.apache.hadoop.hive.metastore.api.Table", false, loader);
                Object properties = Class.forName("org.apache.hadoop.hive.metastore.utils.MetaStoreUtils", true, loader)
                        .getMethod("getTableMetadata", tableClass)
                        .invoke(null, t);
                Class<?> configuration = Class.forName("org.apache.hadoop.conf.Configuration", true, loader);
                Object conf = configuration.getConstructor().newInstance();
                String lib = (String) call(call(call(t, "getSd"), "getSerdeInfo"), "getSerializationLib");
                Object serde = Class.forName(lib, true, loader).getConstructor().newInstance();
                serde.getClass()
                        .getMethod("initialize", configuration, java.util.Properties.class)
                        .invoke(serde, conf, properties);
                Object inspector =
                        serde.getClass().getMethod("getObjectInspector").invoke(serde);
                Class<?> writable = Class.forName("org.apache.hadoop.io.Writable", false, loader);
                Class<?> text = Class.forName("org.apache.hadoop.io.Text", true, loader);
                Class<?> oiClass =
                        Class.forName("org.apache.hadoop.hive.serde2.objectinspector.ObjectInspector", false, loader);
                java.lang.reflect.Method copy = Class.forName(
                                "org.apache.hadoop.hive.serde2.objectinspector.ObjectInspectorUtils", true, loader)
                        .getMethod("copyToStandardJavaObject", Object.class, oiClass);
                List<List<Object>> rows = new ArrayList<>();
                for (byte[] record : records) {
                    Object value = text.getConstructor(byte[].class).newInstance((Object) record);
                    Object row =
                            serde.getClass().getMethod("deserialize", writable).invoke(serde, value);
                    @SuppressWarnings("unchecked")
                    List<Object> columns = (List<Object>) copy.invoke(null, row, inspector);
                    rows.add(columns);
                }
                return rows;
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
            }
        });
    }

    /** The parameters of the metastore's table {@code db.table}. */
    @SuppressWarnings("unchecked")
    java.util.Map<String, String> tableParameters(String db, String table) throws Exception {
        Object t = call(client, "getTable", new Class<?>[] {String.class, String.class}, db, table);
        return new java.util.HashMap<>((java.util.Map<String, String>) call(t, "getParameters"));
    }

    /** The SerDe parameters of the metastore's table {@code db.table}. */
    @SuppressWarnings("unchecked")
    java.util.Map<String, String> serdeParameters(String db, String table) throws Exception {
        Object t = call(client, "getTable", new Class<?>[] {String.class, String.class}, db, table);
        return new java.util.HashMap<>(
                (java.util.Map<String, String>) call(call(call(t, "getSd"), "getSerdeInfo"), "getParameters"));
    }

    /** The parameters of partition {@code name} ({@code k=v/...}) of {@code db.table}. */
    @SuppressWarnings("unchecked")
    java.util.Map<String, String> partitionParameters(String db, String table, String name) throws Exception {
        Object partition = call(
                client, "getPartition", new Class<?>[] {String.class, String.class, String.class}, db, table, name);
        return new java.util.HashMap<>((java.util.Map<String, String>) call(partition, "getParameters"));
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
