package io.sluice.plugin.formats;

import io.sluice.spi.format.BulkReadingFormat;
import io.sluice.spi.format.BulkWritingFormat;
import io.sluice.spi.format.RowEncodingFormat;
import io.sluice.spi.format.StreamReadingFormat;

/**
 * The combinations of format capabilities this plugin's formats have. PF4J's annotation processor,
 * as the plugin build runs it ({@code pf4j.ignoreExtensionPoint}), takes the one interface an
 * extension class implements directly as its extension point, so a format with two capabilities
 * implements one of these.
 */
public final class FileFormats {

    private FileFormats() {}

    /** Written row by row, read as a stream: text, csv, json. */
    public interface RowFile extends RowEncodingFormat, StreamReadingFormat {}

    /** Written and read in bulk: avro, orc, parquet. */
    public interface BulkFile extends BulkWritingFormat, BulkReadingFormat {}

    /** Written in bulk (a header with the key and value classes), read as a stream of records: sequence files. */
    public interface BulkWrittenStreamRead extends BulkWritingFormat, StreamReadingFormat {}
}
