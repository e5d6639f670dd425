package io.sluice.plugin.iceberg;

import io.sluice.hadoopbridge.ObjectStores;

import org.apache.hadoop.conf.Configuration;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * The Hadoop configuration the Iceberg catalog and its file IO run with.
 *
 * <p>It loads Hadoop's defaults ({@code core-default.xml} and any {@code core-site.xml}) and
 * resolves classes (file systems, codecs) through this plugin's class loader, whatever the
 * thread's context class loader is when Hadoop gets to it: the plugin bundles its own Hadoop, and a
 * class of the job's or the cluster's Hadoop would not link with it. Site files from the
 * {@code hadoop-conf-dir} and {@code hive-conf-dir} options come on top, as upstream's
 * {@code FlinkCatalogFactory} adds them.
 *
 * <p>The object-store schemes ({@code s3a://}, {@code gs://}, {@code abfs://} ...; {@link
 * ObjectStores#SCHEMES}) go through Flink's file systems ({@code sluice-hadoop-bridge}): the plugin
 * bundles no S3, GCS or Azure client. Set on every configuration made here, over site files that
 * name such a client, and, from the first use of this class on, on every configuration Iceberg's
 * and Hadoop's internals create with {@code new Configuration()} ({@link
 * ObjectStores#routeThroughFlinkByDefault()}).
 */
final class HadoopConfigurations {

    private static final List<String> HADOOP_SITE_FILES = List.of("core-site.xml", "hdfs-site.xml");

    static {
        ObjectStores.routeThroughFlinkByDefault();
    }

    private HadoopConfigurations() {}

    /** A configuration with Hadoop's defaults that loads classes through the plugin. */
    static Configuration create() {
        Configuration conf = new Configuration(false);
        conf.setClassLoader(HadoopConfigurations.class.getClassLoader());
        conf.addResource("core-default.xml");
        conf.addResource("core-site.xml");
        return ObjectStores.routeThroughFlink(conf);
    }

    /**
     * {@link #create()} plus the site files of a Hadoop configuration directory and of a Hive
     * configuration directory (either may be null).
     *
     * @throws IllegalArgumentException naming the option and directory when the directory is
     *     missing or holds none of the files it is given for
     */
    static Configuration create(String hadoopConfDir, String hiveConfDir) {
        Configuration conf = create();
        if (hadoopConfDir != null) {
            Path dir = directory(IcebergOptions.HADOOP_CONF_DIR.key(), hadoopConfDir);
            boolean found = false;
            for (String name : HADOOP_SITE_FILES) {
                Path file = dir.resolve(name);
                if (Files.isRegularFile(file)) {
                    conf.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
                    found = true;
                }
            }
            if (!found) {
                throw new IllegalArgumentException("Option '" + IcebergOptions.HADOOP_CONF_DIR.key() + "' = '"
                        + hadoopConfDir + "': the directory has none of " + HADOOP_SITE_FILES);
            }
        }
        if (hiveConfDir != null) {
            Path file =
                    directory(IcebergOptions.HIVE_CONF_DIR.key(), hiveConfDir).resolve("hive-site.xml");
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("Option '" + IcebergOptions.HIVE_CONF_DIR.key() + "' = '"
                        + hiveConfDir + "': the directory has no hive-site.xml");
            }
            conf.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
        }
        return conf;
    }

    private static Path directory(String option, String value) {
        Path dir = value.startsWith("file:") ? Paths.get(java.net.URI.create(value)) : Paths.get(value);
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("Option '" + option + "' = '" + value + "': no such local directory");
        }
        return dir;
    }
}
