package io.sluice.spi.compact;

import io.sluice.spi.ExtensionLookup;

import org.apache.flink.configuration.ReadableConfig;

/** What a {@link FileCompactorFactory} may know of the sink it compacts for. */
public interface CompactorContext {

    /** The identifier of the sink's format, e.g. {@code parquet}. */
    String format();

    /** Whether the format is a bulk format (files that cannot be concatenated byte by byte). */
    boolean bulkFormat();

    /** Whether the format can be read back row by row (see {@link CompactionInputs#readRows}). */
    boolean readableFormat();

    /** The sink's options. */
    ReadableConfig options();

    /** Every plugin's extensions, e.g. to build on another compactor. */
    ExtensionLookup extensions();
}
