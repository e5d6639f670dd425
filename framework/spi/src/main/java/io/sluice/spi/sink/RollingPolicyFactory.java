package io.sluice.spi.sink;

import io.sluice.spi.SluiceFactory;

/** Creates {@link RollingPolicy}s; selected by identifier. */
public interface RollingPolicyFactory extends SluiceFactory {

    /**
     * Creates a policy for one writer.
     *
     * @throws IllegalArgumentException for invalid options, naming the option and the value
     */
    RollingPolicy create(SinkContext context);
}
