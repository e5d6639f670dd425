package io.sluice.spi.distribution;

/**
 * How the rows of a sink are spread over its writer subtasks before they are written, with the
 * names and meaning of Iceberg's {@code write.distribution-mode}.
 *
 * @since 2.0.0
 */
public enum DistributionMode {
    /** Each writer writes what its input subtask hands it: no shuffle. */
    NONE,
    /** Rows with equal {@link DistributionKey}s reach the same writer. */
    HASH,
    /**
     * Rows are spread by ranges of the {@link DistributionKey}'s order, chosen from traffic
     * statistics, so writers get even shares and each sees a narrow range of keys.
     */
    RANGE
}
