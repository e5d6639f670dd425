package io.sluice.runtime.plugin;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.util.TemporaryClassLoaderContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;

/**
 * Makes the first use of Flink's file systems in this JVM under the framework's class loader,
 * before any plugin call. Flink loads its file system factories once per JVM, lazily, through the
 * thread's context class loader ({@code ServiceLoader.load(FileSystemFactory.class)}). A Flink
 * process initializes them at its start, but a MiniCluster (the embedded {@code bin/sluice}, tests,
 * a job run from an IDE) does not: there the first use could come from inside a plugin call, whose
 * context loader is the plugin's, and the file systems of the class path (and Hadoop's own file
 * system registry, which Flink's Hadoop fallback loads the same way) would be missing for the life
 * of the JVM.
 */
final class FlinkFileSystems {

    private static final Logger LOG = LoggerFactory.getLogger(FlinkFileSystems.class);

    private static volatile boolean loaded;

    private FlinkFileSystems() {}

    static void loadBeforePlugins() {
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
            loaded = true;
        }
    }
}
