package io.sluice.plugin.formats.orc;

import io.sluice.plugin.formats.OptionValues;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.types.logical.RowType;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcConf;

import java.util.List;
import java.util.Properties;

/**
 * The options of the {@code orc} format: the ORC writer settings that matter, named as ORC names
 * them without the {@code orc.} prefix (Flink's orc format hands every {@code orc.*} table option to
 * ORC under its full name, so a table option {@code orc.compress} arrives here as {@code compress}
 * and reaches ORC as {@code orc.compress} again). Defaults are ORC's own.
 *
 * <p>{@code compress} takes NONE, ZLIB (the default), SNAPPY, LZO or LZ4; ZSTD needs ORC 1.6 or
 * later, and flink-orc is built against ORC 1.5.
 */
public final class OrcOptions {

    private static final String ORC_PREFIX = "orc.";

    /** Compression codec of the file's streams. */
    public static final ConfigOption<String> COMPRESS = ConfigOptions.key(key(OrcConf.COMPRESS))
            .stringType()
            .defaultValue(String.valueOf(OrcConf.COMPRESS.getDefaultValue()))
            .withDescription("Compression codec: NONE, ZLIB, SNAPPY, LZO or LZ4.");

    /** Size of a compression chunk in bytes. */
    public static final ConfigOption<Integer> COMPRESS_SIZE = ConfigOptions.key(key(OrcConf.BUFFER_SIZE))
            .intType()
            .defaultValue(intDefault(OrcConf.BUFFER_SIZE))
            .withDescription("Compression chunk size in bytes.");

    /** Size of a stripe in bytes, buffered in memory before it is written. */
    public static final ConfigOption<Long> STRIPE_SIZE = ConfigOptions.key(key(OrcConf.STRIPE_SIZE))
            .longType()
            .defaultValue(((Number) OrcConf.STRIPE_SIZE.getDefaultValue()).longValue())
            .withDescription("Stripe size in bytes.");

    /** Rows between index entries. */
    public static final ConfigOption<Integer> ROW_INDEX_STRIDE = ConfigOptions.key(key(OrcConf.ROW_INDEX_STRIDE))
            .intType()
            .defaultValue(intDefault(OrcConf.ROW_INDEX_STRIDE))
            .withDescription("Number of rows between index entries.");

    /** Columns that get a bloom filter. */
    public static final ConfigOption<String> BLOOM_FILTER_COLUMNS = ConfigOptions.key(key(OrcConf.BLOOM_FILTER_COLUMNS))
            .stringType()
            .defaultValue(String.valueOf(OrcConf.BLOOM_FILTER_COLUMNS.getDefaultValue()))
            .withDescription("Comma-separated names of the columns to keep bloom filters of.");

    /** False positive probability of the bloom filters. */
    public static final ConfigOption<Double> BLOOM_FILTER_FPP = ConfigOptions.key(key(OrcConf.BLOOM_FILTER_FPP))
            .doubleType()
            .defaultValue(doubleDefault(OrcConf.BLOOM_FILTER_FPP))
            .withDescription("Bloom filter false positive probability, between 0 and 1.");

    /** Share of distinct values up to which a string column is dictionary-encoded. */
    public static final ConfigOption<Double> DICTIONARY_KEY_THRESHOLD = ConfigOptions.key(
                    key(OrcConf.DICTIONARY_KEY_SIZE_THRESHOLD))
            .doubleType()
            .defaultValue(doubleDefault(OrcConf.DICTIONARY_KEY_SIZE_THRESHOLD))
            .withDescription(
                    "Distinct values per non-null row up to which strings use a" + " dictionary, between 0 and 1.");

    /** Every option of the format. */
    public static final List<ConfigOption<?>> ALL = List.of(
            COMPRESS,
            COMPRESS_SIZE,
            STRIPE_SIZE,
            ROW_INDEX_STRIDE,
            BLOOM_FILTER_COLUMNS,
            BLOOM_FILTER_FPP,
            DICTIONARY_KEY_THRESHOLD);

    private static final String FORMAT = OrcFormatFactory.IDENTIFIER;

    private OrcOptions() {}

    /**
     * The ORC writer properties for the options, every value checked: ORC would otherwise report a
     * bad one only when the first file opens, without naming the option.
     */
    static Properties writerProperties(ReadableConfig options, RowType rowType) {
        Properties properties = new Properties();
        put(properties, COMPRESS, compression(options).name());
        put(properties, COMPRESS_SIZE, OptionValues.positive(FORMAT, options, COMPRESS_SIZE));
        put(properties, STRIPE_SIZE, positiveLong(options, STRIPE_SIZE));
        put(properties, ROW_INDEX_STRIDE, OptionValues.positive(FORMAT, options, ROW_INDEX_STRIDE));
        put(properties, BLOOM_FILTER_COLUMNS, bloomFilterColumns(options, rowType));
        put(properties, BLOOM_FILTER_FPP, fraction(options, BLOOM_FILTER_FPP, false));
        put(properties, DICTIONARY_KEY_THRESHOLD, fraction(options, DICTIONARY_KEY_THRESHOLD, true));
        return properties;
    }

    /** The name ORC reads an option under. */
    static String orcKey(ConfigOption<?> option) {
        return ORC_PREFIX + option.key();
    }

    private static void put(Properties properties, ConfigOption<?> option, Object value) {
        properties.setProperty(orcKey(option), String.valueOf(value));
    }

    private static CompressionKind compression(ReadableConfig options) {
        return OptionValues.enumValue(FORMAT, options, COMPRESS, CompressionKind.class);
    }

    private static long positiveLong(ReadableConfig options, ConfigOption<Long> option) {
        long value = options.get(option);
        if (value <= 0) {
            throw OptionValues.invalid(FORMAT, option, value, "expected a number greater than 0");
        }
        return value;
    }

    private static double fraction(ReadableConfig options, ConfigOption<Double> option, boolean inclusive) {
        double value = options.get(option);
        boolean valid = inclusive ? value >= 0 && value <= 1 : value > 0 && value < 1;
        if (!valid) {
            throw OptionValues.invalid(
                    FORMAT,
                    option,
                    value,
                    inclusive ? "expected a number from 0 to 1" : "expected a number between 0 and 1");
        }
        return value;
    }

    private static String bloomFilterColumns(ReadableConfig options, RowType rowType) {
        String value = options.get(BLOOM_FILTER_COLUMNS).trim();
        if (value.isEmpty()) {
            return value;
        }
        // ORC ignores a name that is no column: a typo would silently cost the filter
        for (String name : value.split(",")) {
            if (!rowType.getFieldNames().contains(name.trim())) {
                throw OptionValues.invalid(
                        FORMAT,
                        BLOOM_FILTER_COLUMNS,
                        value,
                        "'" + name.trim() + "' is not a column of " + rowType.getFieldNames());
            }
        }
        return value;
    }

    private static String key(OrcConf conf) {
        return conf.getAttribute().substring(ORC_PREFIX.length());
    }

    private static int intDefault(OrcConf conf) {
        return ((Number) conf.getDefaultValue()).intValue();
    }

    private static double doubleDefault(OrcConf conf) {
        return ((Number) conf.getDefaultValue()).doubleValue();
    }
}
