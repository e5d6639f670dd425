package io.sluice.plugin.hive;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.util.List;

/**
 * The options of {@code CREATE CATALOG c WITH ('type' = 'sluice', 'target' = 'hive', ...)}: upstream
 * HiveCatalog's names for what upstream has, and two of the plugin's own for the embedded metastore.
 */
public final class HiveCatalogOptions {

    /** Upstream's: the directory of {@code hive-site.xml} (local path or a Hadoop URI). */
    public static final ConfigOption<String> HIVE_CONF_DIR = ConfigOptions.key("hive-conf-dir")
            .stringType()
            .noDefaultValue()
            .withDescription("Directory of hive-site.xml (the remote metastore's URIs and more)");

    /** Upstream's: the database of unqualified names; must exist. */
    public static final ConfigOption<String> DEFAULT_DATABASE = ConfigOptions.key("default-database")
            .stringType()
            .defaultValue("default")
            .withDescription("The catalog's current database; must exist");

    /** Upstream's: the Hive version of the metastore client shim. */
    public static final ConfigOption<String> HIVE_VERSION = ConfigOptions.key("hive-version")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "Hive version of the metastore; the plugin bundles the client of " + HiveCatalogs.BUNDLED_HIVE_LINE
                            + "x, so only that line is accepted (default: the bundled version)");

    /** Upstream's: the directory of Hadoop's {@code *-site.xml}. */
    public static final ConfigOption<String> HADOOP_CONF_DIR = ConfigOptions.key("hadoop-conf-dir")
            .stringType()
            .noDefaultValue()
            .withDescription("Directory of core-site.xml, hdfs-site.xml ...");

    /**
     * The plugin's: {@code remote} (default: the metastore {@code hive-site.xml} names, as upstream)
     * or {@code embedded} (a metastore inside the catalog's process on Derby, in {@link #METASTORE_DIR}).
     * Explicit, because upstream refuses an embedded metastore through {@code CREATE CATALOG}: a
     * missing {@code hive-conf-dir} must not quietly become a local metastore.
     */
    public static final ConfigOption<String> METASTORE = ConfigOptions.key("metastore")
            .stringType()
            .defaultValue(HiveCatalogs.REMOTE)
            .withDescription("'remote' (the metastore of hive-site.xml) or 'embedded' (Derby under 'metastore.dir')");

    /**
     * The plugin's: the local directory of an embedded metastore. It holds the Derby database
     * ({@code metastore_db}) and the default warehouse ({@code warehouse}), and is created when
     * missing; the same directory again finds the same databases and tables.
     */
    public static final ConfigOption<String> METASTORE_DIR = ConfigOptions.key("metastore.dir")
            .stringType()
            .noDefaultValue()
            .withDescription("Local directory of an embedded metastore (Derby database and warehouse)");

    static final List<ConfigOption<String>> ALL =
            List.of(HIVE_CONF_DIR, DEFAULT_DATABASE, HIVE_VERSION, HADOOP_CONF_DIR, METASTORE, METASTORE_DIR);

    private HiveCatalogOptions() {}
}
