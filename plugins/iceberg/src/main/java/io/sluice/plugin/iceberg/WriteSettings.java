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
        FlinkWriteConf conf = new FlinkWriteConf(table, writeOptions, context.jobConfiguration());
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
        Map<String, String> properties = SinkUtil.writeProperties(format, conf, table);
        return new WriteSettings(
                format,
                targetFileSize,
                properties,
                conf.branch(),
                overwrite,
                equalityFieldIds,
                SnapshotProperties.of(context.options()));
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
