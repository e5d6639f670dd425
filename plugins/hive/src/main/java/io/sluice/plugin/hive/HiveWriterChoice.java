package io.sluice.plugin.hive;

import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * {@code table.exec.hive.fallback-mapred-writer} (job configuration, default {@code true}), as
 * upstream: Parquet and ORC files written by Hive's mapred record writers ({@link
 * HiveMapredWriterFactory}) when true, by the {@code formats} plugin's native writers when false.
 * TextFile and SequenceFile tables are written through the table's SerDe ({@link SerDeRecords})
 * either way. A value that is no boolean fails the statement before a job starts.
 */
final class HiveWriterChoice {

    static final ConfigOption<Boolean> FALLBACK_MAPRED_WRITER = ConfigOptions.key(
                    "table.exec.hive.fallback-mapred-writer")
            .booleanType()
            .defaultValue(true)
            .withDescription("Write Parquet and ORC with Hive's mapred record writers (true) or the native"
                    + " writers of the formats plugin (false)");

    private HiveWriterChoice() {}

    /**
     * Whether Hive's mapred record writers write the table's files: Parquet and ORC with the
     * option true; text and SequenceFile tables are written through the table's SerDe either way.
     */
    static boolean mapred(SinkContext context, String format) {
        boolean mapred;
        try {
            mapred = context.jobConfiguration().get(FALLBACK_MAPRED_WRITER);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Invalid '" + FALLBACK_MAPRED_WRITER.key() + "': " + e.getMessage() + " (true or false)", e);
        }
        return mapred && (format.equals("parquet") || format.equals("orc"));
    }
}
