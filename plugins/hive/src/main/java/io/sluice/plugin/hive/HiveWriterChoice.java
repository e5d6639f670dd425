package io.sluice.plugin.hive;

import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code table.exec.hive.fallback-mapred-writer} (job configuration, default {@code true}): upstream
 * writes Parquet and ORC with Hive's mapred record writers when it is true and with Flink's native
 * writers when false. The hive target has no mapred path: it always writes Parquet and ORC with the
 * {@code formats} plugin's native writers (upstream's {@code false}), through part files whose
 * exactly-once commit does not depend on the file system, and TextFile and SequenceFile tables with
 * the table's SerDe ({@link SerDeRecords}), which is what upstream's mapred path does for them.
 * The option is read and checked (a value that is no boolean fails the job before it starts), and
 * a true value is logged as not taken, so that nobody believes Hive's writers wrote the files.
 */
final class HiveWriterChoice {

    static final ConfigOption<Boolean> FALLBACK_MAPRED_WRITER = ConfigOptions.key(
                    "table.exec.hive.fallback-mapred-writer")
            .booleanType()
            .defaultValue(true)
            .withDescription("Upstream's choice of Hive's mapred writers for Parquet and ORC; the hive target"
                    + " always writes them with its native writers");

    private static final Logger LOG = LoggerFactory.getLogger(HiveWriterChoice.class);

    private HiveWriterChoice() {}

    /** Checks the option's value and says what the target does with it. */
    static void check(SinkContext context, String format) {
        boolean mapred;
        try {
            mapred = context.jobConfiguration().get(FALLBACK_MAPRED_WRITER);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Invalid '" + FALLBACK_MAPRED_WRITER.key() + "': " + e.getMessage() + " (true or false)", e);
        }
        if (mapred && (format.equals("parquet") || format.equals("orc"))) {
            LOG.info(
                    "'{}' is true (the default): the hive target has no mapred writers and writes {} files with"
                            + " the formats plugin's native writer, as with false",
                    FALLBACK_MAPRED_WRITER.key(),
                    format);
        }
    }
}
