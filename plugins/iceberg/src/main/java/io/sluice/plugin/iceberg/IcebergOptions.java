package io.sluice.plugin.iceberg;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.iceberg.flink.FlinkWriteOptions;

/**
 * Options of the iceberg target, with the names and defaults of Iceberg's own Flink connector
 * ({@code 'connector' = 'iceberg'}): the catalog and table to write, and the write options that
 * override the table's properties. The write options are Iceberg's own constants, so their names
 * and defaults cannot drift from upstream.
 */
public final class IcebergOptions {

    /** Upstream's default catalog type when neither {@code catalog-type} nor {@code catalog-impl} is set. */
    static final String DEFAULT_CATALOG_TYPE = "hive";

    public static final ConfigOption<String> CATALOG_NAME =
            ConfigOptions.key("catalog-name").stringType().defaultValue("default_catalog")
                    .withDescription("Name of the Iceberg catalog; part of the table's name in Iceberg's logs and metrics.");

    public static final ConfigOption<String> CATALOG_TYPE =
            ConfigOptions.key("catalog-type").stringType().noDefaultValue()
                    .withDescription("'hadoop', 'hive' or 'rest' ('hive' when neither this nor 'catalog-impl' is set)."
                            + " This version supports 'hadoop' and 'catalog-impl'.");

    public static final ConfigOption<String> CATALOG_IMPL =
            ConfigOptions.key("catalog-impl").stringType().noDefaultValue()
                    .withDescription("Class name of a custom org.apache.iceberg.catalog.Catalog; excludes 'catalog-type'.");

    public static final ConfigOption<String> WAREHOUSE =
            ConfigOptions.key("warehouse").stringType().noDefaultValue()
                    .withDescription("Root location of the catalog's tables; required by the hadoop catalog.");

    public static final ConfigOption<String> URI =
            ConfigOptions.key("uri").stringType().noDefaultValue()
                    .withDescription("URI of the catalog service (Hive metastore thrift URI, REST endpoint).");

    public static final ConfigOption<String> CATALOG_DATABASE =
            ConfigOptions.key("catalog-database").stringType().defaultValue("default")
                    .withDescription("Database (namespace) of the table in the catalog; created if missing.");

    public static final ConfigOption<String> CATALOG_TABLE =
            ConfigOptions.key("catalog-table").stringType().noDefaultValue()
                    .withDescription("Name of the table in the catalog; created from the Flink schema if missing.");

    public static final ConfigOption<Integer> FORMAT_VERSION =
            ConfigOptions.key("format-version").intType().noDefaultValue()
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

    /** Upsert mode; declared so that asking for it is a clear error until it is supported. */
    public static final ConfigOption<Boolean> UPSERT_ENABLED = FlinkWriteOptions.WRITE_UPSERT_ENABLED;

    /** Overwrite mode; declared so that asking for it is a clear error until it is supported. */
    public static final ConfigOption<Boolean> OVERWRITE_ENABLED = FlinkWriteOptions.OVERWRITE_MODE;

    private IcebergOptions() {}

    /** The options that choose and open the catalog. */
    static ConfigOption<?>[] catalogOptions() {
        return new ConfigOption<?>[] {CATALOG_NAME, CATALOG_TYPE, CATALOG_IMPL, WAREHOUSE, URI};
    }

    /** The write options, passed to Iceberg's {@code FlinkWriteConf} under their own keys. */
    static ConfigOption<?>[] writeOptions() {
        return new ConfigOption<?>[] {
            WRITE_FORMAT, TARGET_FILE_SIZE_BYTES, COMPRESSION_CODEC, COMPRESSION_LEVEL, COMPRESSION_STRATEGY, BRANCH,
            UPSERT_ENABLED, OVERWRITE_ENABLED
        };
    }
}
