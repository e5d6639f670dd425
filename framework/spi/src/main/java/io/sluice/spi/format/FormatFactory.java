package io.sluice.spi.format;

import io.sluice.spi.SluiceFactory;

/**
 * A file format, selected by the {@code format} option. A format offers what it can do by
 * implementing one or more of the capability types, each found by the same identifier:
 *
 * <ul>
 *   <li>{@link RowEncodingFormat}: writes one record at a time to a stream that may be resumed
 *       after a failure (text, csv, json);
 *   <li>{@link BulkWritingFormat}: owns the whole file (Parquet, ORC, Avro) and therefore rolls its
 *       part files on every checkpoint;
 *   <li>{@link StreamReadingFormat}: reads record by record from a stream;
 *   <li>{@link BulkReadingFormat}: reads in batches, for columnar formats with vectorized reads.
 * </ul>
 *
 * <p>PF4J's annotation processor, as Sluice's plugin build runs it, takes the one interface an
 * extension class implements directly as its extension point: a format with several capabilities
 * implements one interface of its own that extends them.
 *
 * <p>A format writes either row by row or in bulk, never both: a plugin whose format implements
 * both writing types is refused when it loads. The framework asks for a capability and reports a
 * format that lacks it as an error naming the format and what it can do.
 *
 * <p>Called on the task side when a writer or reader opens. What a capability returns is used by
 * one task thread only; nothing returned is ever serialized by Flink. Invalid format options are
 * reported as an {@link IllegalArgumentException} naming the option and the value. A reader that
 * meets bytes it cannot decode throws an {@link java.io.IOException} naming the file and the offset
 * (or skips the record and counts it when the format's {@code ignore-parse-errors} option is set).
 *
 * @since 2.0.0 (before, one type with flags and throwing defaults)
 */
public interface FormatFactory extends SluiceFactory {}
