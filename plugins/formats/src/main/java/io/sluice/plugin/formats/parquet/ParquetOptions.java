package io.sluice.plugin.formats.parquet;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.formats.parquet.ParquetFileFormatFactory;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

import java.util.List;

/**
 * The options of the {@code parquet} format, as Flink's parquet format has them.
 *
 * <p>Flink's own options ({@code utc-timezone}, {@code timestamp.time.unit}, {@code
 * write.int64.timestamp}) are Flink's constants. Flink passes every other {@code parquet.*} table
 * option to Parquet as a Hadoop configuration entry of the same name; Sluice declares the writer
 * settings that matter, so that a misspelt one is an error rather than silently ignored. Each
 * option reaches the writer's Hadoop configuration as {@code parquet.<key>}, which for the writer
 * settings is exactly the key Parquet reads (e.g. {@code block.size} becomes {@code
 * parquet.block.size}). Defaults are Parquet's own, except the codec, which is Flink's.
 */
public final class ParquetOptions {

    /** What every option's key is prefixed with in the Hadoop configuration. */
    public static final String HADOOP_KEY_PREFIX = "parquet.";

    /** Whether timestamps convert to and from epoch time in UTC rather than the local zone. */
    public static final ConfigOption<Boolean> UTC_TIMEZONE = ParquetFileFormatFactory.UTC_TIMEZONE;

    /** Unit of INT64 timestamps: nanos, micros or millis. */
    public static final ConfigOption<String> TIMESTAMP_TIME_UNIT = ParquetFileFormatFactory.TIMESTAMP_TIME_UNIT;

    /** Whether timestamps are written as INT64 with a logical type instead of INT96. */
    public static final ConfigOption<Boolean> WRITE_INT64_TIMESTAMP = ParquetFileFormatFactory.WRITE_INT64_TIMESTAMP;

    /** Compression codec of the column chunks. */
    public static final ConfigOption<String> COMPRESSION = ConfigOptions.key("compression")
            .stringType()
            .defaultValue(CompressionCodecName.SNAPPY.name())
            .withDescription("Compression codec: UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4 or LZ4_RAW."
                    + " LZO and BROTLI need codec libraries this plugin does"
                    + " not ship.");

    /** Size of a row group in bytes, buffered in memory before it is written. */
    public static final ConfigOption<Integer> BLOCK_SIZE = ConfigOptions.key("block.size")
            .intType()
            .defaultValue(ParquetWriter.DEFAULT_BLOCK_SIZE)
            .withDescription("Row group size in bytes.");

    /** Size of a page in bytes, the unit of compression and encoding. */
    public static final ConfigOption<Integer> PAGE_SIZE = ConfigOptions.key("page.size")
            .intType()
            .defaultValue(ParquetWriter.DEFAULT_PAGE_SIZE)
            .withDescription("Page size in bytes.");

    /** Largest dictionary page in bytes before a column falls back to plain encoding. */
    public static final ConfigOption<Integer> DICTIONARY_PAGE_SIZE = ConfigOptions.key("dictionary.page.size")
            .intType()
            .defaultValue(ParquetProperties.DEFAULT_DICTIONARY_PAGE_SIZE)
            .withDescription("Dictionary page size limit in bytes.");

    /** Whether columns are dictionary-encoded. */
    public static final ConfigOption<Boolean> ENABLE_DICTIONARY = ConfigOptions.key("enable.dictionary")
            .booleanType()
            .defaultValue(ParquetProperties.DEFAULT_IS_DICTIONARY_ENABLED)
            .withDescription("Whether to use dictionary encoding.");

    /** Parquet format version of the data pages. */
    public static final ConfigOption<String> WRITER_VERSION = ConfigOptions.key("writer.version")
            .stringType()
            .defaultValue(ParquetProperties.DEFAULT_WRITER_VERSION.name())
            .withDescription("Data page version: v1 (PARQUET_1_0) or v2 (PARQUET_2_0).");

    /** Every option of the format. */
    public static final List<ConfigOption<?>> ALL = List.of(
            UTC_TIMEZONE,
            TIMESTAMP_TIME_UNIT,
            WRITE_INT64_TIMESTAMP,
            COMPRESSION,
            BLOCK_SIZE,
            PAGE_SIZE,
            DICTIONARY_PAGE_SIZE,
            ENABLE_DICTIONARY,
            WRITER_VERSION);

    private ParquetOptions() {}
}
