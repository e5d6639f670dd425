package io.sluice.partfiles;

import io.sluice.partfiles.testing.ClassLoaderProbeFileSystem;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.util.TemporaryClassLoaderContext;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.net.URLClassLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A plugin's call (its class loader as the thread's context loader) opens Flink's file systems
 * under Flink's class loader: Flink's Hadoop fallback hands that loader to Hadoop, which must see
 * the cluster's Hadoop, not the plugin's copy (found on {@code hdfs://} by the hive plugin).
 */
class FileSystemsTest {

    @Test
    void opensFlinksFileSystemsUnderFlinksClassLoaderWhateverTheThreadsIs() throws Exception {
        try (URLClassLoader plugin = new URLClassLoader(new URL[0], null);
                TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(plugin)) {
            FileSystem fs = FileSystems.of(new Path(ClassLoaderProbeFileSystem.SCHEME + ":///tmp/table"));
            assertThat(fs).isInstanceOf(ClassLoaderProbeFileSystem.class);
            assertThat(ClassLoaderProbeFileSystem.builtUnder()).isSameAs(FileSystem.class.getClassLoader());
            assertThat(Thread.currentThread().getContextClassLoader())
                    .as("restored")
                    .isSameAs(plugin);
        }
    }
}
