package io.sluice.plugin.hive;

import io.sluice.spi.NonRecoverableException;
import io.sluice.spi.partition.PartitionPaths;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Table;

import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What the hive target needs of a metastore table, read once: its location, the Sluice format its
 * storage descriptor stands for, its partition keys and the locations of its existing partitions.
 */
final class HiveTableInfo {

    /** Hive's switch for compressed output files (the session's, or a table parameter here). */
    static final String COMPRESS_OUTPUT = "hive.exec.compress.output";

    /** Hive's name for the directory of a null or empty partition value. */
    static final String DEFAULT_PARTITION_NAME = "__HIVE_DEFAULT_PARTITION__";

    static final Map<String, String> FORMATS = Map.of(
            "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat", "parquet",
            "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat", "orc",
            "org.apache.hadoop.mapred.TextInputFormat", "text",
            "org.apache.hadoop.mapred.SequenceFileInputFormat", "sequence-file");

    /** The formats whose files hold what the table's SerDe serializes, one record per row. */
    static final java.util.Set<String> SERDE_FORMATS = java.util.Set.of("text", "sequence-file");

    final ObjectPath path;
    final Path location;
    final String inputFormat;
    final List<String> partitionKeys;
    /** Existing partitions by id ({@code k=v/...}, escaped as the part files' buckets are). */
    final Map<String, Path> partitionLocations;
    /** The table's SerDe class. */
    final String serde;
    /** The table's output format class (Hive's record writers). */
    final String outputFormat;
    /** What Hive hands the table's SerDe: its columns, SerDe parameters and table parameters. */
    final Properties serdeProperties;
    /** {@code hive.exec.compress.output}, from the table's parameters or else the catalog's Hive configuration. */
    final boolean compressOutput;
    /** The catalog's Hive configuration, with the table's parameters over it. */
    final Map<String, String> hiveSettings;
    /** The catalog's Hive configuration, for a metastore client of its own. */
    final org.apache.hadoop.hive.conf.HiveConf hiveConf;
    /** Every column of the table in Flink's types, the partition columns last, as Hive orders them. */
    final org.apache.flink.table.types.logical.RowType columns;

    private HiveTableInfo(
            ObjectPath path,
            Path location,
            String inputFormat,
            List<String> partitionKeys,
            Map<String, Path> partitionLocations,
            String serde,
            String outputFormat,
            Properties serdeProperties,
            boolean compressOutput,
            Map<String, String> hiveSettings,
            org.apache.hadoop.hive.conf.HiveConf hiveConf,
            org.apache.flink.table.types.logical.RowType columns) {
        this.path = path;
        this.location = location;
        this.inputFormat = inputFormat;
        this.partitionKeys = partitionKeys;
        this.partitionLocations = partitionLocations;
        this.serde = serde;
        this.outputFormat = outputFormat;
        this.serdeProperties = serdeProperties;
        this.compressOutput = compressOutput;
        this.hiveSettings = hiveSettings;
        this.hiveConf = hiveConf;
        this.columns = columns;
    }

    static org.apache.flink.table.types.logical.RowType columns(Table table) {
        List<String> names = new ArrayList<>();
        List<org.apache.flink.table.types.logical.LogicalType> types = new ArrayList<>();
        List<FieldSchema> fields = new ArrayList<>(table.getSd().getCols());
        fields.addAll(table.getPartitionKeys());
        for (FieldSchema field : fields) {
            names.add(field.getName());
            types.add(org.apache.flink.table.catalog.hive.util.HiveTypeUtil.toFlinkType(
                            org.apache.hadoop.hive.serde2.typeinfo.TypeInfoUtils.getTypeInfoFromTypeString(
                                    field.getType()))
                    .getLogicalType());
        }
        return org.apache.flink.table.types.logical.RowType.of(
                types.toArray(new org.apache.flink.table.types.logical.LogicalType[0]), names.toArray(new String[0]));
    }

    /** Reads the table of the target's {@code catalog-database} and {@code catalog-table}. */
    static HiveTableInfo load(Map<String, String> options) {
        return load(options, true);
    }

    /**
     * The table without its partitions' locations ({@link #partitionLocations} empty): what a read
     * needs, which lists its partitions through upstream's enumerator. Listing the locations costs a
     * metastore call per partition, which a reader on every subtask must not pay.
     */
    static HiveTableInfo loadWithoutPartitions(Map<String, String> options) {
        return load(options, false);
    }

    private static HiveTableInfo load(Map<String, String> options, boolean withPartitions) {
        ObjectPath path = HiveTargetOptions.tablePath(options);
        SluiceHiveCatalog catalog = HiveCatalogs.create(
                options.getOrDefault(HiveTargetOptions.CATALOG_NAME.key(), "hive"),
                HiveCatalogs.catalogOptions(options));
        catalog.open();
        try {
            Table table = catalog.getHiveTable(path);
            List<String> keys = new ArrayList<>();
            for (FieldSchema key : table.getPartitionKeys()) {
                keys.add(key.getName());
            }
            Map<String, Path> partitions = new HashMap<>();
            if (withPartitions && !keys.isEmpty()) {
                partitions.putAll(partitionLocations(catalog, path, keys));
            }
            Map<String, String> settings = new HashMap<>();
            for (Map.Entry<String, String> e : catalog.getHiveConf()) {
                settings.put(e.getKey(), e.getValue());
            }
            if (table.getParameters() != null) {
                settings.putAll(table.getParameters());
            }
            return new HiveTableInfo(
                    path,
                    new Path(table.getSd().getLocation()),
                    table.getSd().getInputFormat(),
                    Collections.unmodifiableList(keys),
                    Collections.unmodifiableMap(partitions),
                    table.getSd().getSerdeInfo().getSerializationLib(),
                    table.getSd().getOutputFormat(),
                    org.apache.hadoop.hive.metastore.utils.MetaStoreUtils.getTableMetadata(table),
                    Boolean.parseBoolean(settings.getOrDefault(COMPRESS_OUTPUT, "false")),
                    Collections.unmodifiableMap(settings),
                    new org.apache.hadoop.hive.conf.HiveConf(catalog.getHiveConf()),
                    columns(table));
        } catch (TableNotExistException e) {
            throw new IllegalArgumentException(
                    "Hive table " + path.getFullName() + " does not exist: the hive target"
                            + " writes tables of the metastore, create it first (CREATE TABLE in a hive catalog)",
                    e);
        } catch (Exception e) {
            if (e instanceof IllegalArgumentException) {
                throw (IllegalArgumentException) e;
            }
            throw new IllegalStateException("Cannot read Hive table " + path.getFullName() + ": " + e.getMessage(), e);
        } finally {
            catalog.close();
        }
    }

    /**
     * Every partition's location, by its id: the names in one call, the partitions in batches of
     * 1,000 (a call per partition made a writer of a 20,000-partition table wait minutes).
     */
    private static Map<String, Path> partitionLocations(SluiceHiveCatalog catalog, ObjectPath path, List<String> keys)
            throws Exception {
        Map<String, Path> locations = new HashMap<>();
        try (org.apache.flink.table.catalog.hive.client.HiveMetastoreClientWrapper client =
                org.apache.flink.table.catalog.hive.client.HiveMetastoreClientFactory.create(
                        catalog.getHiveConf(),
                        org.apache.flink.table.catalog.hive.client.HiveShimLoader.getHiveVersion())) {
            List<String> names = client.listPartitionNames(path.getDatabaseName(), path.getObjectName(), (short) -1);
            for (int from = 0; from < names.size(); from += 1000) {
                for (org.apache.hadoop.hive.metastore.api.Partition p : client.getPartitionsByNames(
                        path.getDatabaseName(),
                        path.getObjectName(),
                        names.subList(from, Math.min(names.size(), from + 1000)))) {
                    LinkedHashMap<String, String> ordered = new LinkedHashMap<>();
                    for (int i = 0; i < keys.size(); i++) {
                        String value = p.getValues().get(i);
                        ordered.put(keys.get(i), value == null ? DEFAULT_PARTITION_NAME : value);
                    }
                    if (p.getSd() != null && p.getSd().getLocation() != null) {
                        locations.put(
                                PartitionPaths.path(ordered), new Path(p.getSd().getLocation()));
                    }
                }
            }
        }
        return locations;
    }

    /** The Sluice format that writes files of the table's input format. */
    String format() {
        String format = FORMATS.get(inputFormat);
        if (format == null) {
            throw new IllegalArgumentException("Hive table " + path.getFullName() + " is stored as " + inputFormat
                    + ": the hive target writes " + new java.util.TreeSet<>(FORMATS.values())
                    + " tables so far ('hive.storage.file-format')");
        }
        return format;
    }

    /**
     * The partition name ({@code k=v/...}) of a directory the target wrote: an existing partition's
     * own location, else the Hive layout below the table; {@code ""} for the table's location.
     */
    String partitionName(Path dir) {
        URI d = dir.toUri().normalize();
        if (trimmed(d).equals(trimmed(location.toUri().normalize()))) {
            return "";
        }
        for (Map.Entry<String, Path> e : partitionLocations.entrySet()) {
            if (trimmed(e.getValue().toUri().normalize()).equals(trimmed(d))) {
                return e.getKey();
            }
        }
        String root = trimmed(location.toUri().normalize()) + "/";
        String child = trimmed(d);
        if (!child.startsWith(root)) {
            throw new IllegalArgumentException("Directory " + dir + " is not below " + location);
        }
        return child.substring(root.length());
    }

    private static String trimmed(URI uri) {
        String path = uri.getPath();
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /** A bucket's directory: the metastore's location of an existing partition, else the Hive layout below the table. */
    Path bucketLocation(String bucketId) {
        if (bucketId.isEmpty()) {
            return location;
        }
        Path existing = partitionLocations.get(bucketId);
        if (existing == null) {
            return new Path(location, bucketId);
        }
        if (!isBelow(existing, location)) {
            // the part-file library publishes and overwrites below the table's root only; failing
            // here, when the bucket opens, is before any file of it exists
            throw new UncheckedIOException(new NonRecoverableException("Partition " + bucketId + " of Hive table "
                    + path.getFullName() + " is at " + existing + ", outside the table's location " + location
                    + ": the hive target writes partitions below the table's location only so far"));
        }
        return existing;
    }

    private static boolean isBelow(Path child, Path root) {
        URI c = child.toUri().normalize();
        URI r = root.toUri().normalize();
        String rootPath = r.getPath().endsWith("/") ? r.getPath() : r.getPath() + "/";
        return java.util.Objects.equals(c.getScheme(), r.getScheme())
                && java.util.Objects.equals(c.getAuthority(), r.getAuthority())
                && c.getPath().startsWith(rootPath);
    }
}
