package io.sluice.spi.partition;

import java.time.LocalDateTime;
import java.util.List;

/**
 * Extracts the time of a partition from its keys and values, for the {@code partition-time}
 * commit trigger. Must be stateless; called by one thread.
 */
public interface PartitionTimeExtractor {

    /**
     * The partition's time.
     *
     * @throws IllegalArgumentException if the values do not hold a time, naming the partition
     */
    LocalDateTime extract(List<String> partitionKeys, List<String> partitionValues);
}
