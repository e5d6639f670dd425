package io.sluice.plugin.iceberg;

import org.apache.flink.configuration.Configuration;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkWriteConf;
import org.apache.iceberg.flink.sink.SinkUtil;

import java.util.Map;

/**
 * How a sink writes to its table: file format, target file size, the writer properties
 * (compression) and the branch, each from the sink's write option if given, else from the table's
 * properties, else Iceberg's default. Resolved by Iceberg's own {@link FlinkWriteConf}, so the
 * precedence is upstream's.
 *
 * <p>Upstream also reads the job's Flink configuration between the two; a plugin does not see it,
 * so here only the sink's options and the table count.
 */
final class WriteSettings {

    private final FileFormat format;
    private final long targetFileSize;
    private final Map<String, String> writerProperties;
    private final String branch;

    private WriteSettings(FileFormat format, long targetFileSize, Map<String, String> writerProperties, String branch) {
        this.format = format;
        this.targetFileSize = targetFileSize;
        this.writerProperties = writerProperties;
        this.branch = branch;
    }

    /**
     * @param sinkOptions all options of the sink; those that are not write options are ignored
     * @throws IllegalArgumentException naming the option (or table property) whose value is invalid
     *     or asks for a mode this version does not support
     */
    static WriteSettings of(Table table, Map<String, String> sinkOptions) {
        FlinkWriteConf conf = new FlinkWriteConf(table, sinkOptions, new Configuration());
        if (conf.upsertMode()) {
            throw new IllegalArgumentException("Upsert ('" + IcebergOptions.UPSERT_ENABLED.key()
                    + "' or table property 'write.upsert.enabled') is not supported by this version of the iceberg target yet");
        }
        if (conf.overwriteMode()) {
            throw new IllegalArgumentException("'" + IcebergOptions.OVERWRITE_ENABLED.key()
                    + "' is not supported by this version of the iceberg target yet");
        }
        FileFormat format;
        try {
            format = conf.dataFileFormat();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Invalid '" + IcebergOptions.WRITE_FORMAT.key() + "' (or table property"
                    + " 'write.format.default'): " + e.getMessage() + "; must be parquet, orc or avro", e);
        }
        if (format != FileFormat.PARQUET && format != FileFormat.ORC && format != FileFormat.AVRO) {
            throw new IllegalArgumentException("Invalid '" + IcebergOptions.WRITE_FORMAT.key() + "' '" + format.name().toLowerCase()
                    + "': must be parquet, orc or avro");
        }
        long targetFileSize = conf.targetDataFileSize();
        if (targetFileSize <= 0) {
            throw new IllegalArgumentException("Invalid '" + IcebergOptions.TARGET_FILE_SIZE_BYTES.key() + "' " + targetFileSize
                    + ": must be positive");
        }
        // upstream's own mapping of the compression options onto the writers' table properties
        Map<String, String> properties = SinkUtil.writeProperties(format, conf, table);
        return new WriteSettings(format, targetFileSize, properties, conf.branch());
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
