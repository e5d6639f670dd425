package io.sluice.spi.partition;

import io.sluice.spi.SluiceFactory;
import io.sluice.spi.sink.SinkContext;

/**
 * Creates {@link PartitionTimeExtractor}s for {@code partition.time-extractor.kind} = {@code
 * custom}, where {@code partition.time-extractor.class} names this factory's identifier or class.
 */
public interface PartitionTimeExtractorFactory extends SluiceFactory {

    /** Creates the extractor of a sink. */
    PartitionTimeExtractor create(SinkContext context);
}
