package io.sluice.plugin.hive;

import io.sluice.hadoopbridge.ObjectStores;
import io.sluice.spi.PathNames;

import org.apache.flink.table.catalog.hive.HiveCatalog;
import org.apache.flink.table.catalog.hive.client.HiveShimLoader;
import org.apache.hadoop.hive.conf.HiveConf;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Makes the Hive catalog of a {@code 'target' = 'hive'} catalog's options.
 *
 * <p>The object-store schemes ({@code s3a://}, {@code gs://}, {@code abfs://} ...; {@link
 * ObjectStores#SCHEMES}) go through Flink's file systems ({@code sluice-hadoop-bridge}): the plugin's
 * Hadoop has no S3, GCS or Azure client. The catalog's {@code HiveConf}, which the metastore, the
 * readers and the table infos derive theirs from, maps them over any site file; from the first
 * use of this class on, so does every configuration Hive's, Hadoop's and upstream's internals
 * create with {@code new Configuration()} or {@code new HiveConf()}.
 */
final class HiveCatalogs {

    static final String REMOTE = "remote";
    static final String EMBEDDED = "embedded";

    /** The metastore client line in the plugin's zip (hive-exec 3.1.3). */
    static final String BUNDLED_HIVE_LINE = "3.1.";

    static {
        ObjectStores.routeThroughFlinkByDefault();
    }

    private HiveCatalogs() {}

    static SluiceHiveCatalog create(String name, Map<String, String> options) {
        checkKnown(options);
        String mode = options.getOrDefault(HiveCatalogOptions.METASTORE.key(), REMOTE)
                .trim()
                .toLowerCase(java.util.Locale.ROOT);
        String version = hiveVersion(options.get(HiveCatalogOptions.HIVE_VERSION.key()));
        String database = options.getOrDefault(
                HiveCatalogOptions.DEFAULT_DATABASE.key(), HiveCatalogOptions.DEFAULT_DATABASE.defaultValue());
        checkConfDir(HiveCatalogOptions.HIVE_CONF_DIR.key(), options.get(HiveCatalogOptions.HIVE_CONF_DIR.key()));
        checkConfDir(HiveCatalogOptions.HADOOP_CONF_DIR.key(), options.get(HiveCatalogOptions.HADOOP_CONF_DIR.key()));
        HiveConf conf = HiveCatalog.createHiveConf(
                options.get(HiveCatalogOptions.HIVE_CONF_DIR.key()),
                options.get(HiveCatalogOptions.HADOOP_CONF_DIR.key()));
        ObjectStores.routeThroughFlink(conf);
        switch (mode) {
            case REMOTE:
                if (options.containsKey(HiveCatalogOptions.METASTORE_DIR.key())) {
                    throw new IllegalArgumentException(
                            "'" + HiveCatalogOptions.METASTORE_DIR.key() + "' is for an embedded"
                                    + " metastore only: add 'metastore' = 'embedded', or leave it out for the metastore of '"
                                    + HiveCatalogOptions.HIVE_CONF_DIR.key() + "'");
                }
                if (EmbeddedMetastore.isEmbedded(conf)) {
                    throw new IllegalArgumentException("No metastore URIs ('" + HiveConf.ConfVars.METASTOREURIS.varname
                            + "') in the hive-site.xml of '" + HiveCatalogOptions.HIVE_CONF_DIR.key() + "' ("
                            + options.get(HiveCatalogOptions.HIVE_CONF_DIR.key())
                            + "): name the remote metastore there,"
                            + " or set 'metastore' = 'embedded' and 'metastore.dir' for a local one");
                }
                return new SluiceHiveCatalog(name, database, conf, version, false);
            case EMBEDDED:
                String dir = options.get(HiveCatalogOptions.METASTORE_DIR.key());
                if (dir == null || dir.trim().isEmpty()) {
                    throw new IllegalArgumentException(
                            "'metastore' = 'embedded' needs '" + HiveCatalogOptions.METASTORE_DIR.key()
                                    + "', a local directory for the metastore's Derby database and warehouse");
                }
                Path metastoreDir = localDirectory(dir.trim());
                EmbeddedMetastore.checkNotInUseByAnotherProcess(metastoreDir, HiveCatalogOptions.METASTORE_DIR.key());
                EmbeddedMetastore.configure(conf, metastoreDir);
                return new SluiceHiveCatalog(name, database, conf, version, true);
            default:
                throw new IllegalArgumentException("Invalid '" + HiveCatalogOptions.METASTORE.key() + "' '"
                        + options.get(HiveCatalogOptions.METASTORE.key()) + "': '" + REMOTE + "' or '" + EMBEDDED
                        + "'");
        }
    }

    /** The catalog's options among a table's (which also hold the target's and the framework's). */
    static Map<String, String> catalogOptions(Map<String, String> options) {
        Map<String, String> catalog = new java.util.LinkedHashMap<>();
        for (org.apache.flink.configuration.ConfigOption<String> o : HiveCatalogOptions.ALL) {
            if (options.containsKey(o.key())) {
                catalog.put(o.key(), options.get(o.key()));
            }
        }
        return catalog;
    }

    /**
     * A local configuration directory must exist: upstream fails on a missing {@code hive-site.xml}
     * without naming the option, and ignores a missing Hadoop directory. Hadoop URIs ({@code
     * hdfs://...}) are left to upstream.
     */
    private static void checkConfDir(String option, String dir) {
        if (dir == null || dir.trim().isEmpty()) {
            return;
        }
        String d = dir.trim();
        java.net.URI uri;
        try {
            uri = new java.net.URI(d);
        } catch (java.net.URISyntaxException notAUri) {
            uri = null;
        }
        Path local;
        if (uri == null || uri.getScheme() == null) {
            local = new File(d).toPath();
        } else if (uri.getScheme().equals("file")) {
            local = Paths.get(uri.getPath());
        } else {
            return;
        }
        if (!Files.isDirectory(local)) {
            throw new IllegalArgumentException("Invalid '" + option + "' '" + dir + "': "
                    + (Files.exists(local) ? "not a directory" : "the directory does not exist")
                    + (option.equals(HiveCatalogOptions.HIVE_CONF_DIR.key())
                            ? " (it should hold the hive-site.xml that names the metastore)"
                            : " (it should hold core-site.xml, hdfs-site.xml ...)"));
        }
    }

    private static void checkKnown(Map<String, String> options) {
        Set<String> known =
                HiveCatalogOptions.ALL.stream().map(o -> o.key()).collect(Collectors.toCollection(TreeSet::new));
        Set<String> unknown = new TreeSet<>(options.keySet());
        unknown.removeAll(known);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(
                    "Unsupported options for a hive catalog: " + unknown + "; supported: " + known);
        }
    }

    private static String hiveVersion(String given) {
        String bundled = HiveShimLoader.getHiveVersion();
        if (given == null || given.trim().isEmpty()) {
            return bundled;
        }
        // the shim must match the client classes in the zip: another line's shim calls methods
        // Hive 3.1's client does not have
        if (!given.trim().startsWith(BUNDLED_HIVE_LINE)) {
            throw new IllegalArgumentException("Invalid '" + HiveCatalogOptions.HIVE_VERSION.key() + "' '" + given
                    + "': the hive plugin bundles the Hive " + bundled + " metastore client, so only "
                    + BUNDLED_HIVE_LINE
                    + "x versions work (a Hive 3.1 client also talks to Hive 2.3 and later metastores)");
        }
        return given.trim();
    }

    private static Path localDirectory(String dir) {
        // the one check of every base directory a user names ('path', 'warehouse', LOCATION)
        PathNames.checkBaseDirectory(HiveCatalogOptions.METASTORE_DIR.key(), dir);
        Path path = dir.startsWith("file:") ? Paths.get(java.net.URI.create(dir)) : new File(dir).toPath();
        if (!path.isAbsolute()) {
            throw new IllegalArgumentException("Invalid '" + HiveCatalogOptions.METASTORE_DIR.key() + "' '" + dir
                    + "': an absolute local path (each TaskManager and the client would resolve a relative one"
                    + " against its own working directory)");
        }
        try {
            Files.createDirectories(path);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(
                    "Invalid '" + HiveCatalogOptions.METASTORE_DIR.key() + "' '" + dir + "': cannot create it ("
                            + e.getMessage() + ")",
                    e);
        }
        return path;
    }
}
