package io.sluice.hadoopbridge;

import org.apache.hadoop.conf.Configuration;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The one place that says which URI schemes a plugin's Hadoop reaches through Flink's file systems
 * ({@link FlinkBackedFileSystem}), and the calls that make a plugin's Hadoop do so.
 *
 * <p>The schemes are the object stores a plugin has no Hadoop client for ({@code s3a}, {@code gs},
 * {@code abfs} ...): a plugin bundles {@code hadoop-client-api}/{@code -runtime}, which hold no S3A,
 * GCS or Azure connector, and bundling one into each plugin would copy an S3 client (and its
 * configuration keys) into every zip. Flink's file-system plugins ({@code flink-s3-fs-hadoop},
 * {@code flink-s3-fs-presto}, {@code flink-gs-fs-hadoop}, {@code flink-azure-fs-hadoop}, {@code
 * flink-oss-fs-hadoop}) already reach them, configured once with Flink's keys ({@code
 * s3.endpoint}, {@code s3.access-key} ... in {@code config.yaml}). {@code hdfs}, {@code file} and
 * {@code viewfs} are not here: the plugin's own Hadoop serves them natively (and HDFS's atomic
 * rename, which an Iceberg Hadoop catalog needs, is the reason to keep them native).
 *
 * <p>How the mapping reaches every Hadoop {@link Configuration} of a plugin, including the ones
 * Iceberg's and Hive's internals create with {@code new Configuration()}:
 *
 * <ul>
 *   <li>{@link #routeThroughFlinkByDefault()} adds {@value #DEFAULT_RESOURCE} (in this jar) to
 *       Hadoop's default resources: every configuration that loads defaults reads it after {@code
 *       core-default.xml} and {@code core-site.xml}, so its {@code fs.<scheme>.impl} wins over
 *       {@code core-default.xml}'s {@code S3AFileSystem}, {@code AzureBlobFileSystem} ... (a later
 *       default resource overrides an earlier one). Hadoop's {@code Configuration} class is the
 *       plugin's own (rule 4 of ARCHITECTURE.md: each plugin bundles its Hadoop), so the static
 *       list of default resources is the plugin's alone: no other plugin and no job sees it.
 *   <li>{@link #routeThroughFlink(Configuration)} sets the same keys on one configuration: for
 *       configurations that load no defaults ({@code new Configuration(false)}), and over site
 *       files ({@code hadoop-conf-dir}) that name the S3A or Azure classes the plugin does not
 *       have.
 * </ul>
 *
 * <p>A default resource is found through the configuration's class loader (the thread's context
 * class loader when it was created): under a plugin call that is the plugin's (rule 5), which sees
 * this jar; {@code core-default.xml} is found the same way.
 *
 * <p>Hadoop's file system cache stays on: it keeps one bridge per scheme, bucket and user, and the
 * bridge reads nothing from the configuration that could differ between two callers (Flink's file
 * system holds the storage settings, once per process).
 *
 * <p>{@code fs.AbstractFileSystem.<scheme>.impl} ({@code FileContext}) maps to {@link
 * FlinkBackedFs} for the same schemes.
 */
public final class ObjectStores {

    /** The object-store schemes Hadoop reaches through Flink's file systems. */
    public static final Set<String> SCHEMES =
            Set.of("s3", "s3a", "s3n", "s3p", "gs", "oss", "abfs", "abfss", "wasb", "wasbs");

    /** The Hadoop default resource in this jar that maps {@link #SCHEMES} to the bridge. */
    static final String DEFAULT_RESOURCE = "sluice-object-stores.xml";

    private static volatile boolean defaultsAdded;

    private ObjectStores() {}

    /**
     * Whether a location (a URI such as {@code s3a://bucket/warehouse}) is on one of the {@link
     * #SCHEMES}; a plain path or an unparsable string is not.
     */
    public static boolean isObjectStore(String location) {
        if (location == null) {
            return false;
        }
        String scheme;
        try {
            scheme = new URI(location.trim()).getScheme();
        } catch (URISyntaxException e) {
            int colon = location.indexOf(':');
            scheme = colon > 0 ? location.substring(0, colon).trim() : null;
        }
        return scheme != null && SCHEMES.contains(scheme.toLowerCase(Locale.ROOT));
    }

    /**
     * Sets {@code fs.<scheme>.impl} (and {@code fs.AbstractFileSystem.<scheme>.impl}) of every
     * object-store scheme on {@code conf} to the bridge, over whatever its resources say.
     *
     * @return {@code conf}
     */
    public static Configuration routeThroughFlink(Configuration conf) {
        for (String scheme : new TreeSet<>(SCHEMES)) {
            conf.set(fileSystemKey(scheme), FlinkBackedFileSystem.class.getName(), "Sluice: through Flink");
            conf.set(abstractFileSystemKey(scheme), FlinkBackedFs.class.getName(), "Sluice: through Flink");
        }
        return conf;
    }

    /**
     * Adds {@value #DEFAULT_RESOURCE} to Hadoop's default resources (once per class loader of this
     * class, that is once per plugin): every configuration created afterwards with defaults maps the
     * object-store schemes to the bridge, and Hadoop reloads the ones that exist already.
     */
    public static void routeThroughFlinkByDefault() {
        if (defaultsAdded) {
            return;
        }
        synchronized (ObjectStores.class) {
            if (!defaultsAdded) {
                Configuration.addDefaultResource(DEFAULT_RESOURCE);
                defaultsAdded = true;
            }
        }
    }

    /**
     * A configuration with Hadoop's defaults and the object-store schemes mapped to the bridge,
     * which loads classes through the plugin (the class loader of the plugin's Hadoop), whatever
     * the thread's context class loader is: for code of a plugin that would otherwise write {@code
     * new Configuration()}.
     */
    public static Configuration newConfiguration() {
        routeThroughFlinkByDefault();
        Configuration conf = new Configuration();
        conf.setClassLoader(Configuration.class.getClassLoader());
        return routeThroughFlink(conf);
    }

    static String fileSystemKey(String scheme) {
        return "fs." + scheme + ".impl";
    }

    static String abstractFileSystemKey(String scheme) {
        return "fs.AbstractFileSystem." + scheme + ".impl";
    }
}
