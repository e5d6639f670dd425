package io.sluice.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Iceberg's own library and Hive's metastore client, for a test to read a table without Sluice:
 * the third-party jars of the distribution's iceberg plugin (iceberg-core, -data, -parquet,
 * hive-metastore 2.3, Hadoop's client), not the plugin's own classes, in a class loader of their
 * own beside the test's class path (which has another Avro, on purpose, and no Iceberg), called
 * reflectively.
 */
final class IcebergClients implements AutoCloseable {

    private final URLClassLoader loader;

    private IcebergClients(URLClassLoader loader) {
        this.loader = loader;
    }

    /** The libraries in {@code <pluginsDir>/iceberg/lib}, Sluice's and Flink's jars left out. */
    static IcebergClients fromPlugin(Path pluginsDir) throws IOException {
        List<URL> jars = new ArrayList<>();
        try (Stream<Path> files = Files.list(pluginsDir.resolve("iceberg").resolve("lib"))) {
            for (Path jar : files.sorted().collect(Collectors.toList())) {
                String name = jar.getFileName().toString();
                if (name.endsWith(".jar") && !name.startsWith("sluice-") && !name.contains("-flink-")) {
                    jars.add(jar.toUri().toURL());
                }
            }
        }
        ClassLoader test = IcebergClients.class.getClassLoader();
        // the JDK's classes, and the logging API the libraries log through, which they do not bundle
        ClassLoader parent = new ClassLoader(ClassLoader.getPlatformClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.startsWith("org.slf4j.")) {
                    return test.loadClass(name);
                }
                return super.loadClass(name, resolve);
            }
        };
        return new IcebergClients(new URLClassLoader(jars.toArray(new URL[0]), parent));
    }

    /** The parameter {@code metadata_location} of {@code database.table} in the metastore at {@code uri}. */
    String metadataLocation(String uri, String database, String table) throws Exception {
        Object t = withClient(
                uri,
                (client, c) ->
                        c.getMethod("getTable", String.class, String.class).invoke(client, database, table));
        @SuppressWarnings("unchecked")
        Map<String, String> parameters =
                (Map<String, String>) t.getClass().getMethod("getParameters").invoke(t);
        return parameters.get("metadata_location");
    }

    /** The partition names ({@code k=v}) of {@code database.table} in the metastore at {@code uri}. */
    List<String> partitionNames(String uri, String database, String table) throws Exception {
        List<?> names = (List<?>) withClient(
                uri,
                (client, c) -> c.getMethod("listPartitionNames", String.class, String.class, short.class)
                        .invoke(client, database, table, (short) -1));
        return names.stream().map(String::valueOf).sorted().collect(Collectors.toList());
    }

    private interface ClientCall {
        Object apply(Object client, Class<?> clientClass) throws Exception;
    }

    private Object withClient(String uri, ClientCall call) throws Exception {
        return inLoader(() -> {
            Class<?> hiveConf = load("org.apache.hadoop.hive.conf.HiveConf");
            Object conf = hiveConf.getConstructor().newInstance();
            hiveConf.getMethod("set", String.class, String.class).invoke(conf, "hive.metastore.uris", uri);
            Class<?> clientClass = load("org.apache.hadoop.hive.metastore.HiveMetaStoreClient");
            Object client = clientClass.getConstructor(hiveConf).newInstance(conf);
            try {
                return call.apply(client, clientClass);
            } finally {
                clientClass.getMethod("close").invoke(client);
            }
        });
    }

    /**
     * The table whose metadata is {@code metadataLocation}, every file it names read where {@code
     * local} maps the file's location (e.g. to a copy of the bucket on the local disk).
     */
    Table table(String metadataLocation, UnaryOperator<String> local) throws Exception {
        return inLoader(() -> {
            Class<?> configuration = load("org.apache.hadoop.conf.Configuration");
            Class<?> fileIo = load("org.apache.iceberg.io.FileIO");
            Object hadoopIo = load("org.apache.iceberg.hadoop.HadoopFileIO")
                    .getConstructor(configuration)
                    .newInstance(configuration.getConstructor().newInstance());
            InvocationHandler mapped = (proxy, method, args) -> {
                if (args != null && args.length > 0 && args[0] instanceof String) {
                    Object[] moved = args.clone();
                    moved[0] = local.apply((String) args[0]);
                    return invoke(method, hadoopIo, moved);
                }
                if (method.isDefault() && method.getName().equals("newInputFile")) {
                    // newInputFile(DataFile), newInputFile(ManifestFile) ...: FileIO's own default,
                    // on the proxy, which comes back here with the file's location
                    Class<?> declaring = method.getDeclaringClass();
                    return MethodHandles.privateLookupIn(declaring, MethodHandles.lookup())
                            .unreflectSpecial(method, declaring)
                            .bindTo(proxy)
                            .invokeWithArguments(args);
                }
                return invoke(method, hadoopIo, args);
            };
            Object io = Proxy.newProxyInstance(loader, new Class<?>[] {fileIo}, mapped);
            Object operations = load("org.apache.iceberg.StaticTableOperations")
                    .getConstructor(String.class, fileIo)
                    .newInstance(metadataLocation, io);
            Object table = load("org.apache.iceberg.BaseTable")
                    .getConstructor(load("org.apache.iceberg.TableOperations"), String.class)
                    .newInstance(operations, metadataLocation);
            return new Table(table);
        });
    }

    /** An Iceberg table of {@link #table}. */
    final class Table {
        private final Object table;

        private Table(Object table) {
            this.table = table;
        }

        /** The long column {@code column} of every row of the current snapshot, by Iceberg's generic reader. */
        List<Long> longs(String column) throws Exception {
            return inLoader(() -> {
                Object builder = load("org.apache.iceberg.data.IcebergGenerics")
                        .getMethod("read", load("org.apache.iceberg.Table"))
                        .invoke(null, table);
                Object rows = load("org.apache.iceberg.data.IcebergGenerics$ScanBuilder")
                        .getMethod("build")
                        .invoke(builder);
                Method field = load("org.apache.iceberg.data.Record").getMethod("getField", String.class);
                List<Long> values = new ArrayList<>();
                try (AutoCloseable closing = (AutoCloseable) rows) {
                    for (Object row : (Iterable<?>) rows) {
                        values.add((Long) field.invoke(row, column));
                    }
                }
                return values;
            });
        }

        /**
         * The locations of the data files the current snapshot references: for a table only ever
         * appended to, every data file any of its snapshots added.
         */
        Set<String> dataFiles() throws Exception {
            return inLoader(() -> {
                Object scan =
                        load("org.apache.iceberg.Table").getMethod("newScan").invoke(table);
                Object tasks =
                        load("org.apache.iceberg.Scan").getMethod("planFiles").invoke(scan);
                Method file = load("org.apache.iceberg.FileScanTask").getMethod("file");
                Method location = load("org.apache.iceberg.ContentFile").getMethod("location");
                Set<String> files = new TreeSet<>();
                try (AutoCloseable closing = (AutoCloseable) tasks) {
                    for (Object task : (Iterable<?>) tasks) {
                        files.add((String) location.invoke(file.invoke(task)));
                    }
                }
                return files;
            });
        }

        /** How many snapshots the table has. */
        int snapshots() throws Exception {
            return inLoader(() -> {
                int n = 0;
                for (Object ignored : (Iterable<?>)
                        load("org.apache.iceberg.Table").getMethod("snapshots").invoke(table)) {
                    n++;
                }
                return n;
            });
        }
    }

    private Class<?> load(String name) throws ClassNotFoundException {
        return Class.forName(name, true, loader);
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Runs {@code call} with the libraries' class loader as the thread's context class loader (Hadoop's and Hive's configuration look there). */
    private <T> T inLoader(Callable<T> call) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return call.call();
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception) {
                throw (Exception) cause;
            }
            throw e;
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    @Override
    public void close() {
        try {
            loader.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
