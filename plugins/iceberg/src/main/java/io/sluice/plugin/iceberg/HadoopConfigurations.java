package io.sluice.plugin.iceberg;

import org.apache.hadoop.conf.Configuration;

/**
 * The Hadoop configuration the Iceberg catalog and its file IO run with.
 *
 * <p>It loads Hadoop's defaults ({@code core-default.xml} and any {@code core-site.xml}) and
 * resolves classes (file systems, codecs) through this plugin's class loader, whatever the
 * thread's context class loader is when Hadoop gets to it: the plugin bundles its own Hadoop, and a
 * class of the job's or the cluster's Hadoop would not link with it.
 */
final class HadoopConfigurations {

    private HadoopConfigurations() {}

    /** A configuration with Hadoop's defaults that loads classes through the plugin. */
    static Configuration create() {
        Configuration conf = new Configuration(false);
        conf.setClassLoader(HadoopConfigurations.class.getClassLoader());
        conf.addResource("core-default.xml");
        conf.addResource("core-site.xml");
        return conf;
    }
}
