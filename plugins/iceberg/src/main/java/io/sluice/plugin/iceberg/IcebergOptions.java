package io.sluice.plugin.iceberg;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.flink.FlinkWriteOptions;

import java.util.Map;

/**
 * Options of the iceberg target, with the names and defaults of Iceberg's own Flink connector
 * ({@code 'connector' = 'iceberg'}): the catalog and table to write, and the write options that
 * override the table's properties. The write options are Iceberg's own constants, so their names
 * and defaults cannot drift from upstream.
 */
public final class IcebergOptions {

    public static final ConfigOption<String> CATALOG_NAME = ConfigOptions.key("catalog-name")
            .stringType()
            .defaultValue("default_catalog")
            .withDescription("Name of the Iceberg catalog; part of the table's name in Iceberg's logs and metrics.");

    public static final ConfigOption<String> CATALOG_TYPE = ConfigOptions.key("catalog-type")
            .stringType()
            .noDefaultValue()
            .withDescription("'hadoop', 'hive' or 'rest' ('hive' when neither this nor 'catalog-impl' is set).");

    public static final ConfigOption<String> CATALOG_IMPL = ConfigOptions.key("catalog-impl")
            .stringType()
            .noDefaultValue()
            .withDescription("Class name of a custom org.apache.iceberg.catalog.Catalog; excludes 'catalog-type'.");

    public static final ConfigOption<String> WAREHOUSE = ConfigOptions.key("warehouse")
            .stringType()
            .noDefaultValue()
            .withDescription("Root location of the catalog's tables; required by the hadoop catalog.");

    public static final ConfigOption<String> URI = ConfigOptions.key("uri")
            .stringType()
            .noDefaultValue()
            .withDescription("URI of the catalog service: the Hive metastore's thrift URI(s) (comma-separated),"
                    + " the REST catalog's http(s) endpoint.");

    public static final ConfigOption<Integer> CLIENTS = ConfigOptions.key("clients")
            .intType()
            .noDefaultValue()
            .withDescription("Size of the Hive metastore client pool (Iceberg's default 2).");

    public static final ConfigOption<String> HIVE_CONF_DIR = ConfigOptions.key("hive-conf-dir")
            .stringType()
            .noDefaultValue()
            .withDescription("Directory with a hive-site.xml for the hive catalog; 'uri' and 'warehouse' override it.");

    public static final ConfigOption<String> HADOOP_CONF_DIR = ConfigOptions.key("hadoop-conf-dir")
            .stringType()
            .noDefaultValue()
            .withDescription("Directory with core-site.xml and/or hdfs-site.xml for the catalog and its file IO.");

    public static final ConfigOption<Integer> PROPERTY_VERSION = ConfigOptions.key("property-version")
            .intType()
            .defaultValue(1)
            .withDescription("Version of the catalog properties; only 1 exists.");

    public static final ConfigOption<Boolean> CACHE_ENABLED = ConfigOptions.key("cache-enabled")
            .booleanType()
            .defaultValue(true)
            .withDescription(
                    "Whether a Flink catalog caches loaded tables. A sink loads its table once per"
                            + " writer and committer, as upstream's connector tables do, so for a sink only the value is checked.");

    public static final ConfigOption<Long> CACHE_EXPIRATION_INTERVAL_MS = ConfigOptions.key(
                    "cache.expiration-interval-ms")
            .longType()
            .defaultValue(-1L)
            .withDescription("How long a cached table stays cached (-1: until evicted otherwise; 0 is invalid).");

    public static final ConfigOption<String> IO_IMPL = ConfigOptions.key("io-impl")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "Class name of the catalog's org.apache.iceberg.io.FileIO; the catalog's default otherwise.");

    public static final ConfigOption<String> CREDENTIAL = ConfigOptions.key("credential")
            .stringType()
            .noDefaultValue()
            .withDescription("REST catalog: OAuth2 client credential, '<client-id>:<secret>' or '<secret>'.");

    public static final ConfigOption<String> TOKEN = ConfigOptions.key("token")
            .stringType()
            .noDefaultValue()
            .withDescription("REST catalog: bearer token sent with every request.");

    public static final ConfigOption<String> OAUTH2_SERVER_URI = ConfigOptions.key("oauth2-server-uri")
            .stringType()
            .noDefaultValue()
            .withDescription("REST catalog: OAuth2 token endpoint; the catalog's own endpoint otherwise.");

    public static final ConfigOption<String> SCOPE = ConfigOptions.key("scope")
            .stringType()
            .noDefaultValue()
            .withDescription("REST catalog: OAuth2 scope asked for with 'credential'.");

    public static final ConfigOption<String> CATALOG_DATABASE = ConfigOptions.key("catalog-database")
            .stringType()
            .defaultValue("default")
            .withDescription("Database (namespace) of the table in the catalog; created if missing.");

    public static final ConfigOption<String> BASE_NAMESPACE = ConfigOptions.key("base-namespace")
            .stringType()
            .noDefaultValue()
            .withDescription("Namespace levels, separated by '.', above the database: a Sluice catalog's"
                    + " 'base-namespace', handed to its tables so that they are where the catalog keeps them.");

    public static final ConfigOption<String> CATALOG_TABLE = ConfigOptions.key("catalog-table")
            .stringType()
            .noDefaultValue()
            .withDescription("Name of the table in the catalog; created from the Flink schema if missing.");

    public static final ConfigOption<Integer> FORMAT_VERSION = ConfigOptions.key("format-version")
            .intType()
            .noDefaultValue()
            .withDescription("Iceberg format version of a table this sink creates; Iceberg's default otherwise.");

    /** File format of new data files; the table's {@code write.format.default} otherwise. */
    public static final ConfigOption<String> WRITE_FORMAT = FlinkWriteOptions.WRITE_FORMAT;

    /** Size at which a data file rolls; the table's {@code write.target-file-size-bytes} otherwise. */
    public static final ConfigOption<Long> TARGET_FILE_SIZE_BYTES = FlinkWriteOptions.TARGET_FILE_SIZE_BYTES;

    /** Compression codec of the write format; the table's {@code write.<format>.compression-codec} otherwise. */
    public static final ConfigOption<String> COMPRESSION_CODEC = FlinkWriteOptions.COMPRESSION_CODEC;

    /** Compression level of the write format, where it has one. */
    public static final ConfigOption<String> COMPRESSION_LEVEL = FlinkWriteOptions.COMPRESSION_LEVEL;

    /** ORC compression strategy. */
    public static final ConfigOption<String> COMPRESSION_STRATEGY = FlinkWriteOptions.COMPRESSION_STRATEGY;

    /** Branch the snapshots are committed to, {@code main} by default. */
    public static final ConfigOption<String> BRANCH = FlinkWriteOptions.BRANCH;

    /**
     * Upsert mode (write option, also as SQL hint): rows are upserts and deletes by the equality
     * fields; beats the table property {@code write.upsert.enabled}.
     */
    public static final ConfigOption<Boolean> UPSERT_ENABLED = FlinkWriteOptions.WRITE_UPSERT_ENABLED;

    /**
     * The table property {@code write.upsert.enabled} as a sink option: set on a table this sink
     * creates, and read like the table's own property (below {@code upsert-enabled}) otherwise.
     */
    public static final ConfigOption<Boolean> TABLE_UPSERT_ENABLED = ConfigOptions.key(TableProperties.UPSERT_ENABLED)
            .booleanType()
            .noDefaultValue()
            .withDescription("Iceberg table property 'write.upsert.enabled' of a table this sink creates;"
                    + " for an existing table it counts like the table's property, below 'upsert-enabled'.");

    /**
     * Overwrite mode of the DataStream API (each commit replaces the partitions it writes); SQL
     * {@code INSERT OVERWRITE} sets it too.
     */
    public static final ConfigOption<Boolean> OVERWRITE_ENABLED = FlinkWriteOptions.OVERWRITE_MODE;

    /**
     * Properties added to the summary of every snapshot the sink commits, as {@code
     * 'k1:v1,k2:v2'} (the {@code snapshotProperties} of Iceberg's sink builder). Keys {@code
     * flink.*} are the sink's own and cannot be set.
     */
    public static final ConfigOption<Map<String, String>> SNAPSHOT_PROPERTIES = ConfigOptions.key("snapshot-properties")
            .mapType()
            .noDefaultValue()
            .withDescription("Properties added to every committed snapshot's summary, as 'k1:v1,k2:v2';"
                    + " keys 'flink.*' are reserved for the sink.");

    private IcebergOptions() {}

    /** The options that choose and open the catalog. */
    static ConfigOption<?>[] catalogOptions() {
        return new ConfigOption<?>[] {
            CATALOG_NAME, CATALOG_TYPE, CATALOG_IMPL, WAREHOUSE, URI, CLIENTS, HIVE_CONF_DIR, HADOOP_CONF_DIR,
            PROPERTY_VERSION, CACHE_ENABLED, CACHE_EXPIRATION_INTERVAL_MS, IO_IMPL, CREDENTIAL, TOKEN,
                    OAUTH2_SERVER_URI, SCOPE
        };
    }

    /**
     * The catalog options that are Iceberg catalog properties, handed to the catalog under their own
     * key as upstream's {@code FlinkCatalogFactory} hands over every property: the allow-list of
     * what a sink passes through.
     */
    static ConfigOption<?>[] catalogProperties() {
        return new ConfigOption<?>[] {
            WAREHOUSE,
            URI,
            CLIENTS,
            IO_IMPL,
            CACHE_ENABLED,
            CACHE_EXPIRATION_INTERVAL_MS,
            CREDENTIAL,
            TOKEN,
            OAUTH2_SERVER_URI,
            SCOPE
        };
    }

    /**
     * Prefixes of Iceberg catalog property families whose keys are open-ended, passed through to
     * the catalog as given (upstream's {@code FlinkCatalogFactory} passes every property): REST
     * request headers and REST client settings, catalog-level table defaults and overrides, and
     * the file IO's cloud client settings ({@code s3.*}, {@code client.*} and {@code
     * http-client.*} of Iceberg's {@code S3FileIO}).
     */
    static final java.util.Set<String> CATALOG_PROPERTY_PREFIXES = java.util.Set.of(
            "header.", "rest.", "table-default.", "table-override.", "s3.", "gcs.", "adls.", "client.", "http-client.");

    /** The write options, passed to Iceberg's {@code FlinkWriteConf} under their own keys. */
    static ConfigOption<?>[] writeOptions() {
        return new ConfigOption<?>[] {
            WRITE_FORMAT,
            TARGET_FILE_SIZE_BYTES,
            COMPRESSION_CODEC,
            COMPRESSION_LEVEL,
            COMPRESSION_STRATEGY,
            BRANCH,
            UPSERT_ENABLED,
            TABLE_UPSERT_ENABLED,
            OVERWRITE_ENABLED,
            SNAPSHOT_PROPERTIES
        };
    }
}
