package io.sluice.plugin.hive;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.hive.ql.io.StorageFormatDescriptor;
import org.apache.hadoop.hive.ql.io.StorageFormatFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Hive table's definition as {@code CREATE TABLE ... WITH (...)} keys, so that {@code SHOW CREATE
 * TABLE} prints a statement that makes the same table again: the storage format and SerDe (which
 * the metastore keeps in the storage descriptor, not in the table's properties) under the keys
 * upstream's Hive catalog reads when it creates a table, and the user's table properties.
 *
 * <p>The table properties ride under {@link #TABLE_PROPERTY_PREFIX}: a Sluice table's options are
 * checked against what the target declares, and a Hive table's properties are open-ended ({@code
 * orc.compress}, {@code owner.team}). Creating a table strips the prefix again.
 */
final class HiveTableDefinition {

    /** Upstream's keys (its {@code Constants}), which its {@code HiveCatalog#createTable} reads. */
    static final ConfigOption<String> FILE_FORMAT = key("hive.storage.file-format", "The table's storage format");

    static final ConfigOption<String> INPUT_FORMAT =
            key("hive.stored.as.input.format", "The table's InputFormat class, for a format without a name");
    static final ConfigOption<String> OUTPUT_FORMAT =
            key("hive.stored.as.output.format", "The table's OutputFormat class, for a format without a name");
    static final ConfigOption<String> SERDE = key("hive.serde.lib.class.name", "The table's SerDe class");
    static final String SERDE_PROPERTY_PREFIX = "hive.serde.info.prop.";
    /** Sluice's: a table property of the metastore, for {@code SHOW CREATE TABLE}. */
    static final String TABLE_PROPERTY_PREFIX = "hive.table.property.";

    /**
     * The table's location among the hive catalog's own table properties ({@code
     * SluiceHiveCatalog#getTable}), under Flink's key for where a table's files are. Neither a Sluice
     * option nor printed by SHOW CREATE TABLE: a copy of the DDL would share the original's files.
     */
    static final String LOCATION = "path";

    static final List<ConfigOption<String>> STORAGE = List.of(FILE_FORMAT, INPUT_FORMAT, OUTPUT_FORMAT, SERDE);

    /** The names {@code 'hive.storage.file-format'} takes, tried in this order. */
    private static final List<String> FORMAT_NAMES =
            List.of("parquet", "orc", "avro", "textfile", "sequencefile", "rcfile");

    /** Hive's SerDe for the named formats that name none (textfile, sequencefile). */
    private static final String DEFAULT_SERDE = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";

    /** Hive sets it on every SerDe; a copy gets it again. */
    private static final String SERIALIZATION_FORMAT = "serialization.format";

    /**
     * Properties the metastore or Hive's writers keep for themselves (statistics, times, the table
     * type): a copy of the table must not claim the original's row count.
     */
    private static final Set<String> HIVE_OWN = Set.of(
            "transient_lastDdlTime",
            "last_modified_by",
            "last_modified_time",
            "numFiles",
            "numFilesErasureCoded",
            "numRows",
            "numPartitions",
            "rawDataSize",
            "totalSize",
            "COLUMN_STATS_ACCURATE",
            "bucketing_version",
            "EXTERNAL",
            "comment",
            SluiceHiveCatalog.CONNECTOR);

    private HiveTableDefinition() {}

    private static ConfigOption<String> key(String key, String description) {
        return ConfigOptions.key(key).stringType().noDefaultValue().withDescription(description);
    }

    /** Whether a table property is the metastore's own rather than the table's definition. */
    static boolean isHiveOwn(String property) {
        return HIVE_OWN.contains(property) || property.equals(LOCATION);
    }

    /** The storage format and SerDe of {@code table} as upstream's create keys. */
    static Map<String, String> storage(Table table) {
        Map<String, String> keys = new LinkedHashMap<>();
        StorageDescriptor sd = table.getSd();
        if (sd == null) {
            return keys;
        }
        SerDeInfo serde = sd.getSerdeInfo();
        String serdeLib = serde == null ? null : serde.getSerializationLib();
        StorageFormatDescriptor format = named(sd.getInputFormat(), sd.getOutputFormat());
        if (format != null) {
            keys.put(
                    FILE_FORMAT.key(),
                    format.getNames().stream()
                            .filter(n -> FORMAT_NAMES.contains(n.toLowerCase(java.util.Locale.ROOT)))
                            .findFirst()
                            .orElseThrow()
                            .toLowerCase(java.util.Locale.ROOT));
            String formatSerde = format.getSerde() == null ? DEFAULT_SERDE : format.getSerde();
            if (serdeLib != null && !serdeLib.equals(formatSerde)) {
                keys.put(SERDE.key(), serdeLib);
            }
        } else {
            if (sd.getInputFormat() != null) {
                keys.put(INPUT_FORMAT.key(), sd.getInputFormat());
            }
            if (sd.getOutputFormat() != null) {
                keys.put(OUTPUT_FORMAT.key(), sd.getOutputFormat());
            }
            if (serdeLib != null) {
                keys.put(SERDE.key(), serdeLib);
            }
        }
        if (serde != null && serde.getParameters() != null) {
            new java.util.TreeMap<>(serde.getParameters()).forEach((k, v) -> {
                if (!k.equals(SERIALIZATION_FORMAT)) {
                    keys.put(SERDE_PROPERTY_PREFIX + k, v);
                }
            });
        }
        return keys;
    }

    /** The named format whose InputFormat and OutputFormat these are, or null. */
    private static StorageFormatDescriptor named(String inputFormat, String outputFormat) {
        StorageFormatFactory formats = new StorageFormatFactory();
        for (String name : FORMAT_NAMES) {
            StorageFormatDescriptor d = formats.get(name);
            if (d != null
                    && d.getInputFormat().equals(inputFormat)
                    && d.getOutputFormat().equals(outputFormat)) {
                return d;
            }
        }
        return null;
    }

    /** Whether {@code key} is one of the storage keys {@link #storage} gives. */
    static boolean isStorageKey(String key) {
        return key.startsWith(SERDE_PROPERTY_PREFIX)
                || STORAGE.stream().anyMatch(o -> o.key().equals(key));
    }
}
