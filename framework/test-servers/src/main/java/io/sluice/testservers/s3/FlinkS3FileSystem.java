package io.sluice.testservers.s3;

import io.sluice.testservers.ServerProcess;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.PluginDescriptor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Flink's own S3 file systems, as an operator installs them: each jar in a folder of its own under
 * Flink's plugins directory, loaded by Flink's plugin manager in a class loader of its own, and
 * configured with Flink's {@code s3.*} keys. The jars come from Maven (class-path resources of this
 * module), never from the test's class path.
 */
public enum FlinkS3FileSystem {
    /** {@code flink-s3-fs-hadoop}: S3A, for {@code s3://} and {@code s3a://}. */
    HADOOP("s3-fs-hadoop", "flink-s3-fs-hadoop.classpath", "s3a"),
    /** {@code flink-s3-fs-presto}: Presto's S3 client, for {@code s3://} and {@code s3p://}. */
    PRESTO("s3-fs-presto", "flink-s3-fs-presto.classpath", "s3p");

    private final String pluginFolder;
    private final String resource;
    private final String ownScheme;

    FlinkS3FileSystem(String pluginFolder, String resource, String ownScheme) {
        this.pluginFolder = pluginFolder;
        this.resource = resource;
        this.ownScheme = ownScheme;
    }

    /** The scheme only this file system serves ({@code s3a}, {@code s3p}); both serve {@code s3}. */
    public String scheme() {
        return ownScheme;
    }

    /** The plugin's jar in the local Maven repository. */
    public Path jar() {
        return Paths.get(ServerProcess.classPathResource(FlinkS3FileSystem.class, resource));
    }

    /**
     * A Flink plugins directory under {@code root} holding these file systems, one folder each, as
     * {@code $FLINK_HOME/plugins} does: for a standalone cluster or {@code FLINK_PLUGINS_DIR}.
     */
    public static Path pluginsDirectory(Path root, FlinkS3FileSystem... which) {
        try {
            for (FlinkS3FileSystem fs : which) {
                Path folder = Files.createDirectories(root.resolve(fs.pluginFolder));
                Files.copy(fs.jar(), folder.resolve(fs.jar().getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Initializes Flink's file systems of this JVM with these S3 plugins and settings, as a Flink
     * process does at its start: for tests on a MiniCluster, which initializes none. Call it before
     * the first use of Flink's file systems; it replaces whatever was initialized before.
     */
    public static void initialize(Map<String, String> settings, FlinkS3FileSystem... which) {
        Configuration conf = new Configuration();
        settings.forEach(conf::setString);
        List<PluginDescriptor> plugins = new ArrayList<>();
        for (FlinkS3FileSystem fs : which) {
            try {
                plugins.add(new PluginDescriptor(
                        fs.pluginFolder, new URL[] {fs.jar().toUri().toURL()}, new String[0]));
            } catch (MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        }
        FileSystem.initialize(
                conf, new DefaultPluginManager(plugins, CoreOptions.getPluginParentFirstLoaderPatterns(conf)));
    }
}
