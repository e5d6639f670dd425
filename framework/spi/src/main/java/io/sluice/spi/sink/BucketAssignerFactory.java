package io.sluice.spi.sink;

import io.sluice.spi.SluiceFactory;

/** Creates {@link BucketAssigner}s; selected by identifier. */
public interface BucketAssignerFactory extends SluiceFactory {

    /**
     * Creates an assigner for one writer.
     *
     * @throws IllegalArgumentException for invalid options, naming the option and the value
     */
    BucketAssigner create(SinkContext context);
}
