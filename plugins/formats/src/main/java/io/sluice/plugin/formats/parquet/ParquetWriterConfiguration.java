package io.sluice.plugin.formats.parquet;

import io.sluice.plugin.formats.OptionValues;
import io.sluice.plugin.formats.hadoop.HadoopConfigurations;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

import java.util.List;
import java.util.Locale;

/**
 * Turns the {@code parquet} format options into the Hadoop {@link Configuration} that Flink's
 * Parquet writer reads its settings from, checking every value on the way.
 *
 * <p>The configuration is one of {@link HadoopConfigurations}: no resources loaded, classes
 * resolved through this plugin.
 */
final class ParquetWriterConfiguration {

    private static final String FORMAT = ParquetFormatFactory.IDENTIFIER;

    private ParquetWriterConfiguration() {}

    /** The writer configuration for the given format options. */
    static Configuration create(ReadableConfig options) {
        Configuration conf = HadoopConfigurations.create();

        set(conf, ParquetOptions.COMPRESSION, compression(options).name());
        set(conf, ParquetOptions.BLOCK_SIZE, positive(options, ParquetOptions.BLOCK_SIZE));
        set(conf, ParquetOptions.PAGE_SIZE, positive(options, ParquetOptions.PAGE_SIZE));
        set(conf, ParquetOptions.DICTIONARY_PAGE_SIZE, positive(options, ParquetOptions.DICTIONARY_PAGE_SIZE));
        set(conf, ParquetOptions.ENABLE_DICTIONARY, String.valueOf(options.get(ParquetOptions.ENABLE_DICTIONARY)));
        set(conf, ParquetOptions.WRITER_VERSION, writerVersion(options).name());
        // as Flink's own parquet format does, the Flink options travel in the configuration too:
        // the writer reads the INT64 timestamp settings from there
        set(conf, ParquetOptions.UTC_TIMEZONE, String.valueOf(options.get(ParquetOptions.UTC_TIMEZONE)));
        set(
                conf,
                ParquetOptions.WRITE_INT64_TIMESTAMP,
                String.valueOf(options.get(ParquetOptions.WRITE_INT64_TIMESTAMP)));
        set(
                conf,
                ParquetOptions.TIMESTAMP_TIME_UNIT,
                OptionValues.oneOf(FORMAT, options, ParquetOptions.TIMESTAMP_TIME_UNIT, "nanos", "micros", "millis"));
        return conf;
    }

    /**
     * The configuration of a reader: Parquet finds everything it needs in the file, but looks up
     * decompression codecs through the configuration's class loader, which must be the plugin's.
     */
    static Configuration forReading() {
        return HadoopConfigurations.create();
    }

    /** The Hadoop configuration key an option is written to. */
    static String hadoopKey(ConfigOption<?> option) {
        return ParquetOptions.HADOOP_KEY_PREFIX + option.key();
    }

    private static void set(Configuration conf, ConfigOption<?> option, String value) {
        conf.set(hadoopKey(option), value);
    }

    private static String positive(ReadableConfig options, ConfigOption<Integer> option) {
        return String.valueOf(OptionValues.positive(FORMAT, options, option));
    }

    private static CompressionCodecName compression(ReadableConfig options) {
        ConfigOption<String> option = ParquetOptions.COMPRESSION;
        CompressionCodecName codec = OptionValues.enumValue(FORMAT, options, option, CompressionCodecName.class);
        // Parquet only looks the codec class up when the first file is written; a codec whose
        // library is not bundled (LZO, BROTLI) should fail here, where the option is named
        String codecClass = codec.getHadoopCompressionCodecClassName();
        if (codecClass != null && !loadable(codecClass)) {
            throw OptionValues.invalid(
                    FORMAT,
                    option,
                    options.get(option),
                    "the codec class " + codecClass + " is not available in the formats plugin");
        }
        return codec;
    }

    private static boolean loadable(String className) {
        try {
            Class.forName(className, false, HadoopConfigurations.pluginClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static WriterVersion writerVersion(ReadableConfig options) {
        String value = options.get(ParquetOptions.WRITER_VERSION);
        // Parquet takes its short names (v1, v2) and the constant names (PARQUET_1_0), case
        // sensitive; a user should not have to remember which spelling wants which case
        for (String spelling : List.of(value.toLowerCase(Locale.ROOT), value.toUpperCase(Locale.ROOT))) {
            try {
                return WriterVersion.fromString(spelling);
            } catch (IllegalArgumentException notThisSpelling) {
                // try the next one
            }
        }
        throw OptionValues.invalid(
                FORMAT, ParquetOptions.WRITER_VERSION, value, "expected v1, v2, PARQUET_1_0 or PARQUET_2_0");
    }
}
