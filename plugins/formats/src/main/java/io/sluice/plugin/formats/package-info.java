/**
 * The formats plugin: row formats ({@code text}, {@code csv}, {@code json}) and the bulk format
 * {@code parquet}, each a {@link io.sluice.spi.format.FormatFactory} exposed as a PF4J extension.
 *
 * <p>Serialization itself is Flink's ({@code flink-csv}, {@code flink-json}, {@code
 * flink-parquet}); this package maps Sluice's prefix-free format options onto those libraries and
 * reports invalid option values as {@link java.lang.IllegalArgumentException}s that name the
 * option and the value.
 */
package io.sluice.plugin.formats;
