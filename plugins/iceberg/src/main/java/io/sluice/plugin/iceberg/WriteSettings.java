package io.sluice.plugin.iceberg;

import io.sluice.spi.sink.SinkContext;

import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkWriteConf;
import org.apache.iceberg.flink.sink.SinkUtil;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * How a sink writes to its table: file format, target file size, the writer properties
 * (compression), the branch and the mode (append, upsert by equality fields, or overwrite), each
 * from the sink's write option if given, else from the table's properties, else Iceberg's default.
 * Resolved by Iceberg's own {@link FlinkWriteConf}, so the precedence is upstream's. The sink option
 * {@code write.upsert.enabled} stands for the table property it sets on tables the sink creates,
 * so it ranks below {@code upsert-enabled} and above the table's own property.
 *
 * <p>Between the two, as upstream, the configuration of the job or SQL session that planned the
 * sink ({@code SinkContext#jobConfiguration()}).
 *
 * <p>A table of a dynamic sink also takes the sink's table properties ({@code write.*}, its
 * {@code set(...)}) over the table's own: in the resolution above in the table's place, and in the
 * properties the file writers get.
 */
final class WriteSettings {

    private final FileFormat format;
    private final long targetFileSize;
    private final Map<String, String> writerProperties;
    private final String branch;
    private final boolean overwrite;
    private final Set<Integer> equalityFieldIds;
    private final SnapshotProperties snapshotProperties;

    private WriteSettings(
            FileFormat format,
            long targetFileSize,
            Map<String, String> writerProperties,
            String branch,
            boolean overwrite,
            Set<Integer> equalityFieldIds,
            SnapshotProperties snapshotProperties) {
        this.format = format;
        this.targetFileSize = targetFileSize;
        this.writerProperties = writerProperties;
        this.branch = branch;
        this.overwrite = overwrite;
        this.equalityFieldIds = equalityFieldIds;
        this.snapshotProperties = snapshotProperties;
    }

    /**
     * @param context the sink: its options (those that are not write options are ignored), primary
     *     key and overwrite flag
     * @throws IllegalArgumentException naming the option (or table property) whose value is
     *     invalid, or what rules out the upsert the options ask for
     */
    static WriteSettings of(Table table, SinkContext context) {
        Map<String, String> writeOptions = new HashMap<>(context.rawOptions());
        String tableUpsert = writeOptions.get(IcebergOptions.TABLE_UPSERT_ENABLED.key());
        if (tableUpsert != null) {
            writeOptions.putIfAbsent(IcebergOptions.UPSERT_ENABLED.key(), tableUpsert);
        }
        Map<String, String> overrides = context.options().get(IcebergDynamicTables.DYNAMIC_TABLE)
                ? tablePropertyOverrides(context.rawOptions())
                : Map.of();
        overrides.forEach((property, value) -> {
            String option = AS_WRITE_OPTION.get(property);
            if (option != null) {
                writeOptions.putIfAbsent(option, value);
            }
        });
        FlinkWriteConf conf = new FlinkWriteConf(table, writeOptions, context.jobConfiguration());
        String codec = overrides.get("write." + formatName(conf) + ".compression-codec");
        String level = overrides.get("write." + formatName(conf) + ".compression-level");
        String strategy = overrides.get("write.orc.compression-strategy");
        if (codec != null || level != null || strategy != null) {
            // the format is known only now: its compression properties as the conf's options too
            putIfPresent(writeOptions, "compression-codec", codec);
            putIfPresent(writeOptions, "compression-level", level);
            putIfPresent(writeOptions, "compression-strategy", strategy);
            conf = new FlinkWriteConf(table, writeOptions, context.jobConfiguration());
        }
        boolean overwrite = context.overwrite() || conf.overwriteMode();
        Set<Integer> equalityFieldIds =
                conf.upsertMode() ? UpsertKeys.of(table, context.primaryKey(), overwrite) : Collections.emptySet();
        FileFormat format;
        try {
            format = conf.dataFileFormat();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Invalid '" + IcebergOptions.WRITE_FORMAT.key() + "' (or table property"
                            + " 'write.format.default'): " + e.getMessage() + "; must be parquet, orc or avro",
                    e);
        }
        if (format != FileFormat.PARQUET && format != FileFormat.ORC && format != FileFormat.AVRO) {
            throw new IllegalArgumentException("Invalid '" + IcebergOptions.WRITE_FORMAT.key() + "' '"
                    + format.name().toLowerCase() + "': must be parquet, orc or avro");
        }
        long targetFileSize = conf.targetDataFileSize();
        if (targetFileSize <= 0) {
            throw new IllegalArgumentException("Invalid '" + IcebergOptions.TARGET_FILE_SIZE_BYTES.key() + "' "
                    + targetFileSize + ": must be positive");
        }
        // upstream's own mapping of the compression options onto the writers' table properties
        Map<String, String> properties = new HashMap<>(SinkUtil.writeProperties(format, conf, table));
        for (Map.Entry<String, String> e : overrides.entrySet()) {
            // the compression the conf resolved (write options first) stays as it is
            if (!e.getKey().matches("write\\.(parquet|orc|avro)\\.compression-.*")) {
                properties.put(e.getKey(), e.getValue());
            }
        }
        return new WriteSettings(
                format,
                targetFileSize,
                properties,
                conf.branch(),
                overwrite,
                equalityFieldIds,
                SnapshotProperties.of(context.options()));
    }

    /**
     * The table properties among a dynamic sink's options ({@code write.*}, as upstream's {@code
     * set("write.parquet.compression-codec", "gzip")}): they override the table's own, as a dynamic
     * sink's properties do upstream.
     */
    private static Map<String, String> tablePropertyOverrides(Map<String, String> options) {
        Map<String, String> overrides = new HashMap<>();
        options.forEach((key, value) -> {
            if (key.startsWith("write.") && !key.equals(IcebergOptions.TABLE_UPSERT_ENABLED.key())) {
                overrides.put(key, value);
            }
        });
        return overrides;
    }

    /** Table properties that {@link FlinkWriteConf} resolves, by the write option that ranks above them. */
    private static final Map<String, String> AS_WRITE_OPTION = Map.of(
            "write.format.default", "write-format",
            "write.target-file-size-bytes", "target-file-size-bytes",
            "write.distribution-mode", "distribution-mode");

    private static String formatName(FlinkWriteConf conf) {
        try {
            return conf.dataFileFormat().name().toLowerCase(java.util.Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return "?"; // reported with the option's name below
        }
    }

    private static void putIfPresent(Map<String, String> options, String key, String value) {
        if (value != null) {
            options.putIfAbsent(key, value);
        }
    }

    /** Whether rows are upserts and deletes by {@link #equalityFieldIds()}. */
    boolean upsert() {
        return !equalityFieldIds.isEmpty();
    }

    /** The field ids of the upsert key; empty unless {@link #upsert()}. */
    Set<Integer> equalityFieldIds() {
        return equalityFieldIds;
    }

    /** Whether each commit replaces the partitions it writes (the whole table if unpartitioned). */
    boolean overwrite() {
        return overwrite;
    }

    /** The user's properties for every snapshot's summary. */
    SnapshotProperties snapshotProperties() {
        return snapshotProperties;
    }

    FileFormat format() {
        return format;
    }

    long targetFileSize() {
        return targetFileSize;
    }

    /** The table's properties with the sink's compression options applied, for Iceberg's file writers. */
    Map<String, String> writerProperties() {
        return writerProperties;
    }

    /** The branch to commit to. */
    String branch() {
        return branch;
    }
}
