package io.sluice.spi.partition;

import io.sluice.spi.Experimental;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetFactory;

/**
 * A target that takes part in the framework's partition commit ({@code sink.partition-commit.*},
 * {@code partition.time-extractor.*}): its writers report the partitions they write ({@link
 * PendingCommit#partition()}) and its committer knows their locations ({@link
 * TargetCommitter#partitionLocation}). Offered through {@link TargetFactory#partitions()}; for a
 * target without it (a table format that commits whole snapshots) those options are rejected
 * instead of being silently ignored.
 *
 * @since 3.0.0 ({@code TargetFactory.supportsPartitionCommit} and {@code
 *     requiresPartitionGrouping} before)
 */
public interface PartitionSupport {

    /**
     * Whether a BATCH job should hand this sink's writers their rows grouped by the partition
     * columns, so that a writer has one partition's file open at a time ({@link
     * SinkContext#inputGroupedByPartition()}): in SQL the planner sorts them by the dynamic
     * partition columns, as for upstream's filesystem and Hive sinks; in a DataStream job the
     * framework sorts each writer's rows (unless the job declares its input grouped). Asked on the
     * client, for a partitioned sink in BATCH mode only. By default no.
     */
    @Experimental
    default boolean requiresGrouping(SinkContext context) {
        return false;
    }
}
