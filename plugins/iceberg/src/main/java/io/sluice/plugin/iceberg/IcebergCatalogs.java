package io.sluice.plugin.iceberg;

import io.sluice.hadoopbridge.ObjectStores;
import io.sluice.spi.PathNames;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;

import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Opens the Iceberg catalog that the sink's options describe, the way Iceberg's Flink connector
 * reads the same options: {@code catalog-impl} names a catalog class, otherwise {@code
 * catalog-type} picks a built-in one ({@code hive} when neither is set; see {@link CatalogTypes}).
 *
 * <p>The catalog gets the allow-listed catalog properties ({@link
 * IcebergOptions#catalogProperties()}) under their own keys, and a Hadoop configuration with the
 * site files of {@code hadoop-conf-dir} and {@code hive-conf-dir}.
 */
final class IcebergCatalogs {

    private IcebergCatalogs() {}

    /**
     * @throws IllegalArgumentException naming the option and value that do not describe a catalog
     *     this version can open, or the catalog's own complaint about its properties
     */
    static Catalog open(ReadableConfig options) {
        String name = options.get(IcebergOptions.CATALOG_NAME);
        checkGeneralOptions(options);
        String implementation = CatalogTypes.implementation(options);
        checkWarehouse(options, implementation);
        Map<String, String> properties = properties(options);
        Configuration conf = HadoopConfigurations.create(
                options.getOptional(IcebergOptions.HADOOP_CONF_DIR).orElse(null),
                options.getOptional(IcebergOptions.HIVE_CONF_DIR).orElse(null));
        Catalog catalog;
        try {
            catalog = CatalogUtil.loadCatalog(implementation, name, properties, conf);
        } catch (RuntimeException | LinkageError e) {
            throw new IllegalArgumentException(
                    "Cannot open Iceberg catalog '" + name + "' (" + implementation + where(options) + "): " + e, e);
        }
        if (CatalogUtil.ICEBERG_CATALOG_HIVE.equals(implementation)) {
            probe(catalog, name, options, conf);
        }
        return catalog;
    }

    /**
     * Asks a Hive catalog for its databases once: it connects lazily, and the first use deep in a
     * table load would fail without naming the metastore it tried.
     */
    private static void probe(Catalog catalog, String name, ReadableConfig options, Configuration conf) {
        try {
            ((SupportsNamespaces) catalog).listNamespaces(Namespace.empty());
        } catch (RuntimeException e) {
            try {
                ((Closeable) catalog).close();
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            String uris = options.getOptional(IcebergOptions.URI).orElseGet(() -> conf.get("hive.metastore.uris", ""));
            throw new IllegalArgumentException(
                    "Cannot reach the Hive metastore of Iceberg catalog '" + name + "'" + where(options)
                            + " (hive.metastore.uris '" + uris + "'): " + e.getMessage() + " (" + root + ")",
                    e);
        }
    }

    /** Where the catalog lives, as the options say, for messages. */
    private static String where(ReadableConfig options) {
        return options.getOptional(IcebergOptions.URI)
                .map(uri -> " at '" + IcebergOptions.URI.key() + "' = '" + uri + "'")
                .orElseGet(() -> options.getOptional(IcebergOptions.HIVE_CONF_DIR)
                        .map(dir -> " configured by '" + IcebergOptions.HIVE_CONF_DIR.key() + "' = '" + dir + "'")
                        .orElse(""));
    }

    /**
     * The allow-listed catalog properties that are set, and every option under one of {@link
     * IcebergOptions#CATALOG_PROPERTY_PREFIXES}, as strings under their own keys.
     */
    static Map<String, String> properties(ReadableConfig options) {
        Map<String, String> properties = new HashMap<>();
        for (ConfigOption<?> option : IcebergOptions.catalogProperties()) {
            options.getOptional(option).ifPresent(v -> properties.put(option.key(), String.valueOf(v)));
        }
        // a ReadableConfig cannot list its keys; the framework's (and Flink's) Configuration can
        if (options instanceof org.apache.flink.configuration.Configuration) {
            ((org.apache.flink.configuration.Configuration) options).toMap().forEach((key, value) -> {
                if (IcebergOptions.CATALOG_PROPERTY_PREFIXES.stream().anyMatch(key::startsWith)) {
                    properties.put(key, value);
                }
            });
        }
        fileIoDefaults(options, properties);
        return properties;
    }

    /**
     * Which file IO reaches the store when the options do not say, and the HTTP client of the AWS
     * SDK when they choose Iceberg's {@code S3FileIO}.
     *
     * <p>Without {@code io-impl} every catalog reaches its files through Hadoop's file systems
     * ({@code HadoopFileIO}: HDFS, and the object stores through Flink's, configured once in
     * Flink): the Hive and Hadoop catalogs' default, set here for the REST catalog too, whose
     * default ({@code ResolvingFileIO}) would take Iceberg's {@code S3FileIO} for {@code s3://}
     * now that the plugin bundles it, and with it a second S3 configuration. {@code 'io-impl' =
     * 'org.apache.iceberg.aws.s3.S3FileIO'} (or {@code ResolvingFileIO}, or a REST server's
     * {@code io-impl} override) chooses Iceberg's own S3 client, which takes the {@code s3.*}
     * catalog properties, the AWS default credential chain, and a REST server's vended
     * credentials.
     *
     * <p>The plugin bundles one HTTP client of the AWS SDK, {@code url-connection-client};
     * Iceberg's default, the Apache one, is not there. {@code http-client.type} defaults to it,
     * and any other value is refused here, naming the option. And it bundles the SDK's S3 and STS
     * modules only: {@code s3.client-factory-impl} defaults to Iceberg's {@code
     * DefaultS3FileIOAwsClientFactory}, which builds the S3 client alone; Iceberg's general {@code
     * AwsClientFactory} ({@code client.factory}, and its default when neither is set) also links
     * against KMS, Glue and DynamoDB (1.5 MB for KMS alone), so {@code client.factory} is refused.
     */
    private static void fileIoDefaults(ReadableConfig options, Map<String, String> properties) {
        if (!properties.containsKey(IcebergOptions.IO_IMPL.key())
                && CatalogUtil.ICEBERG_CATALOG_REST.equals(CatalogTypes.implementation(options))) {
            properties.put(IcebergOptions.IO_IMPL.key(), HADOOP_FILE_IO);
        }
        if (properties.containsKey(AWS_CLIENT_FACTORY)) {
            throw new IllegalArgumentException("Unsupported '" + AWS_CLIENT_FACTORY + "' '"
                    + properties.get(AWS_CLIENT_FACTORY)
                    + "': Iceberg's AwsClientFactory links against AWS SDK modules (KMS, Glue, DynamoDB) the iceberg"
                    + " plugin does not bundle. S3FileIO builds its client with '" + S3_CLIENT_FACTORY + "' = '"
                    + DEFAULT_S3_CLIENT_FACTORY + "' (the default); for an assumed role use the AWS default"
                    + " credential chain (web identity, a profile's role_arn) or 'client.credentials-provider'");
        }
        properties.putIfAbsent(S3_CLIENT_FACTORY, DEFAULT_S3_CLIENT_FACTORY);
        String httpClient = properties.get(HTTP_CLIENT_TYPE);
        if (httpClient == null) {
            properties.put(HTTP_CLIENT_TYPE, URL_CONNECTION);
        } else if (!URL_CONNECTION.equals(httpClient.trim())) {
            throw new IllegalArgumentException("Invalid '" + HTTP_CLIENT_TYPE + "' '" + httpClient
                    + "': the iceberg plugin bundles the AWS SDK's '" + URL_CONNECTION
                    + "' HTTP client only (for S3FileIO); leave the option out or set it to '" + URL_CONNECTION
                    + "'");
        }
    }

    static final String HADOOP_FILE_IO = "org.apache.iceberg.hadoop.HadoopFileIO";
    /** Iceberg's {@code AwsProperties.CLIENT_FACTORY}. */
    static final String AWS_CLIENT_FACTORY = "client.factory";
    /** Iceberg's {@code S3FileIOProperties.CLIENT_FACTORY}. */
    static final String S3_CLIENT_FACTORY = "s3.client-factory-impl";

    static final String DEFAULT_S3_CLIENT_FACTORY = "org.apache.iceberg.aws.s3.DefaultS3FileIOAwsClientFactory";
    /** Iceberg's {@code HttpClientProperties.CLIENT_TYPE}. */
    static final String HTTP_CLIENT_TYPE = "http-client.type";
    /** Iceberg's {@code HttpClientProperties.CLIENT_TYPE_URLCONNECTION}. */
    static final String URL_CONNECTION = "urlconnection";

    /**
     * The warehouse: no dot segments (the root every table of a Hadoop catalog lives under), and
     * for a Hadoop catalog not on an object store.
     *
     * <p>Iceberg's Hadoop catalog commits a table's new metadata by renaming a file, and needs that
     * rename to be atomic and to fail when the target exists (Iceberg's documentation: the Hadoop
     * catalog needs a file system with atomic rename; S3 is not one). Object stores ({@link
     * ObjectStores#SCHEMES}, reached through Flink's file systems) copy and delete, so two commits
     * could both win and one of them silently lose its data. The Hive and REST catalogs commit
     * without a rename.
     */
    private static void checkWarehouse(ReadableConfig options, String implementation) {
        options.getOptional(IcebergOptions.WAREHOUSE).ifPresent(w -> {
            PathNames.checkBaseDirectory(IcebergOptions.WAREHOUSE.key(), w);
            if (CatalogUtil.ICEBERG_CATALOG_HADOOP.equals(implementation) && ObjectStores.isObjectStore(w)) {
                String catalog =
                        options.getOptional(IcebergOptions.CATALOG_IMPL).isPresent()
                                ? "'" + IcebergOptions.CATALOG_IMPL.key() + "' = '" + implementation + "'"
                                : "'" + IcebergOptions.CATALOG_TYPE.key() + "' = 'hadoop'";
                String scheme = w.trim().substring(0, w.trim().indexOf(':'));
                throw new IllegalArgumentException("Invalid '" + IcebergOptions.WAREHOUSE.key() + "' '" + w + "' for "
                        + catalog + ": Iceberg's Hadoop catalog commits by an atomic rename, which " + scheme
                        + ":// (an object store) cannot do, so concurrent commits could lose data. Use '"
                        + IcebergOptions.CATALOG_TYPE.key() + "' = 'hive' or 'rest' (they commit without a rename)"
                        + " with this warehouse, or a Hadoop catalog on HDFS");
            }
        });
    }

    private static void checkGeneralOptions(ReadableConfig options) {
        int version = options.get(IcebergOptions.PROPERTY_VERSION);
        if (version != 1) {
            throw new IllegalArgumentException("Unsupported '" + IcebergOptions.PROPERTY_VERSION.key() + "' " + version
                    + ": this version knows property version 1");
        }
        if (options.get(IcebergOptions.CACHE_EXPIRATION_INTERVAL_MS) == 0) {
            throw new IllegalArgumentException("Invalid '" + IcebergOptions.CACHE_EXPIRATION_INTERVAL_MS.key()
                    + "' 0: must be positive, or negative to never expire (upstream rejects 0 too)");
        }
        options.getOptional(IcebergOptions.CLIENTS).ifPresent(clients -> {
            if (clients < 1) {
                throw new IllegalArgumentException("Invalid '" + IcebergOptions.CLIENTS.key() + "' " + clients
                        + ": the Hive client pool needs at least 1 client");
            }
        });
    }
}
