package io.sluice.spi.sink;

/**
 * A target that can replace data ({@code INSERT OVERWRITE}, or the builder's overwrite). Offered
 * through {@link TargetFactory#overwrite()}; the framework rejects an overwrite of a target
 * without it, and of unbounded input.
 *
 * @since 3.0.0 ({@code TargetFactory.supportsOverwrite} before)
 */
public interface OverwriteSupport {

    /**
     * Checks that this sink may overwrite, on the client, after {@link TargetFactory#validate},
     * for a sink whose {@link SinkContext#overwrite()} is true. By default every sink of the
     * target may.
     *
     * @throws IllegalArgumentException naming the option or table property that forbids it
     */
    default void checkOverwrite(SinkContext context) {}
}
