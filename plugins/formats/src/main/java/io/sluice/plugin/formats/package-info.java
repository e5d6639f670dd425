/**
 * The formats plugin: row formats ({@code text}, {@code csv}, {@code json}) and bulk formats
 * ({@code parquet}, {@code avro}, {@code orc}, {@code sequence-file}), each a {@link
 * io.sluice.spi.format.FormatFactory} exposed as a PF4J extension, each with a writer and a
 * reader.
 *
 * <p>Serialization itself is the libraries' ({@code flink-csv}, {@code flink-json}, {@code
 * flink-parquet}, {@code flink-avro}, {@code flink-orc}, Hadoop's SequenceFile), all bundled in
 * the plugin with Avro, Parquet, ORC and Hadoop, so that none of them reaches a job's class path.
 * This package maps Sluice's prefix-free format options onto those libraries, reports invalid
 * option values as {@link java.lang.IllegalArgumentException}s that name the option and the value,
 * and makes read failures name where they happened: the line and byte offset of a malformed
 * record (stream formats, {@code delimited.DelimitedRowReader}), or the file and
 * byte range of a bulk split ({@code bulk.FileNamingBulkFormat}).
 *
 * <p>Stream formats are not splittable; Parquet, Avro and ORC are, at row groups, sync markers
 * and stripes.
 *
 * <p>One package per format ({@code text}, {@code csv}, {@code json}, {@code avro}, {@code
 * parquet}, {@code orc}, {@code sequencefile}), each with its factory and its internals
 * package-private. What several formats share has its own package: {@code delimited} (csv and
 * json: records cut from a stream and read with Flink's schemas), {@code bulk} (avro, orc,
 * parquet: read failures naming the file, declared types checked against the file's) and {@code
 * hadoop} (the Hadoop configuration and stream adapter for ORC, Parquet and SequenceFile). This
 * package holds what every format uses: its capability interfaces ({@link
 * io.sluice.plugin.formats.FileFormats}) and the checks of option values ({@link
 * io.sluice.plugin.formats.OptionValues}).
 */
package io.sluice.plugin.formats;
