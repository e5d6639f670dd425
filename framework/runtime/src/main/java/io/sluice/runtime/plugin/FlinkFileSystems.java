package io.sluice.runtime.plugin;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.util.TemporaryClassLoaderContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.util.Map;

/**
 * Makes the first use of Flink's file systems in this JVM under the framework's class loader,
 * before any plugin call. Flink loads its file system factories once per JVM, lazily, through the
 * thread's context class loader ({@code ServiceLoader.load(FileSystemFactory.class)}). A Flink
 * process initializes them at its start, but a MiniCluster (the embedded {@code bin/sluice}, tests,
 * a job run from an IDE) does not: there the first use could come from inside a plugin call, whose
 * context loader is the plugin's, and the file systems of the class path (and Hadoop's own file
 * system registry, which Flink's Hadoop fallback loads the same way) would be missing for the life
 * of the JVM.
 *
 * <p>Hadoop's registry is a second such cache: where the cluster's Hadoop is visible to the framework
 * (Flink's fallback for {@code hdfs://} and other Hadoop schemes), Hadoop finds its file systems
 * once per JVM through the context class loader ({@code ServiceLoader.load(FileSystem.class)}), and a
 * plugin's loader, which never hands out the cluster's Hadoop, would leave it empty: every
 * {@code hdfs://} path then fails with "no Hadoop file system to support this scheme". It is loaded
 * here too, by reflection, as the framework does not link against Hadoop.
 */
public final class FlinkFileSystems {

    private static final Logger LOG = LoggerFactory.getLogger(FlinkFileSystems.class);

    /** The option of the file targets and the file source that names their directory (Flink's {@code path}). */
    private static final String PATH_OPTION = "path";

    private static volatile boolean loaded;

    private FlinkFileSystems() {}

    public static void loadBeforePlugins() {
        if (loaded) {
            return;
        }
        synchronized (FlinkFileSystems.class) {
            if (loaded) {
                return;
            }
            try (TemporaryClassLoaderContext ignored =
                    TemporaryClassLoaderContext.of(FlinkFileSystems.class.getClassLoader())) {
                // a no-op where the process has initialized them already
                FileSystem.get(URI.create("file:///"));
            } catch (IOException | RuntimeException e) {
                LOG.warn("Could not load Flink's file systems before the plugins", e);
            }
            loadHadoopRegistry();
            loaded = true;
        }
    }

    /**
     * Opens the Flink file systems of a table's {@code path} option (a comma-separated list for a
     * file source) under the framework's class loader, before a plugin does. Flink keeps one file
     * system per scheme and authority for the life of the JVM and builds it under the thread's
     * context class loader: for Flink's Hadoop fallback ({@code hdfs://}, ...) that loader's view of
     * Hadoop becomes the file system's, and a plugin's loader has none of the cluster's Hadoop
     * ("Cannot instantiate file system"). A path that does not open is left for the plugin to report.
     */
    public static void openTablePaths(Map<String, String> options) {
        String paths = options.get(PATH_OPTION);
        if (paths == null || paths.isBlank()) {
            return;
        }
        loadBeforePlugins();
        try (TemporaryClassLoaderContext ignored =
                TemporaryClassLoaderContext.of(FlinkFileSystems.class.getClassLoader())) {
            for (String path : paths.split(",")) {
                try {
                    new Path(path.trim()).getFileSystem();
                } catch (IOException | RuntimeException e) {
                    LOG.debug("Path {} does not open (yet); the plugin reports it", path, e);
                }
            }
        }
    }

    private static void loadHadoopRegistry() {
        ClassLoader framework = FlinkFileSystems.class.getClassLoader();
        Class<?> hadoopFileSystem;
        Class<?> hadoopConfiguration;
        try {
            hadoopFileSystem = Class.forName("org.apache.hadoop.fs.FileSystem", false, framework);
            hadoopConfiguration = Class.forName("org.apache.hadoop.conf.Configuration", false, framework);
        } catch (ClassNotFoundException | LinkageError noHadoop) {
            return; // no Hadoop beside the framework: nothing to load
        }
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(framework)) {
            Object conf = hadoopConfiguration.getConstructor().newInstance();
            // the first lookup of a scheme loads the registry of every file system Hadoop can find
            hadoopFileSystem
                    .getMethod("getFileSystemClass", String.class, hadoopConfiguration)
                    .invoke(null, "file", conf);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.warn("Could not load Hadoop's file systems before the plugins", e);
        }
    }
}
