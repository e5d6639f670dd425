package io.sluice.plugin.formats.hadoop;

import org.apache.hadoop.conf.Configuration;

/**
 * The Hadoop configurations the formats hand to Parquet, ORC and Hadoop's SequenceFile.
 *
 * <p>They load no resources ({@code core-default.xml}, {@code core-site.xml}): the formats need
 * nothing from them, and whatever Hadoop setup a cluster has belongs to its file systems, not to
 * the bytes of a file. They resolve classes (compression codecs, file systems) through this
 * plugin's class loader, whatever the thread's context class loader is when they are used.
 */
public final class HadoopConfigurations {

    private HadoopConfigurations() {}

    /** An empty configuration that loads classes through the plugin. */
    public static Configuration create() {
        Configuration conf = new Configuration(false);
        conf.setClassLoader(pluginClassLoader());
        return conf;
    }

    /** The plugin's class loader: it sees Parquet, ORC, Hadoop and the codecs. */
    public static ClassLoader pluginClassLoader() {
        return HadoopConfigurations.class.getClassLoader();
    }
}
