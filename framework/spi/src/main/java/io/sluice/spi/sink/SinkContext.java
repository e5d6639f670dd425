package io.sluice.spi.sink;

import io.sluice.spi.Experimental;
import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.compact.SinkCompaction;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.types.logical.RowType;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the framework tells the parts of a sink (writer, committer, assigners, policies) about the
 * sink they belong to.
 */
public interface SinkContext {

    /** The type of the rows written. */
    RowType rowType();

    /** The partition keys (SQL {@code PARTITIONED BY}), possibly empty. */
    List<String> partitionKeys();

    /** All options of the sink as the user gave them. */
    ReadableConfig options();

    /**
     * All options as key/value strings, for parts that pass on a group of options (a format's
     * {@code csv.*} options) without knowing each key.
     */
    Map<String, String> rawOptions();

    /** The Flink job id, as a hex string. */
    String jobId();

    /** Index of this parallel subtask. */
    int subtaskIndex();

    /** Number of parallel subtasks. */
    int numberOfSubtasks();

    /**
     * Who the writer of this subtask is and which earlier attempts may have left files behind; empty
     * where no writer runs (on the client, in a committer) and in contexts made by others than the
     * framework. A writer without it names its files after an id of its own choosing.
     *
     * @since 2.8.0
     */
    @Experimental
    default Optional<WriterLineage> writerLineage() {
        return Optional.empty();
    }

    /** The metric group of the operator the part runs in. */
    MetricGroup metricGroup();

    /** Other plugins' extensions. */
    ExtensionLookup extensions();

    /**
     * The sink's file compaction, for a target that takes part in it ({@link
     * TargetFactory#compaction()}); empty for one that does not.
     *
     * @since 2.0.0
     */
    default Optional<SinkCompaction> compaction() {
        return Optional.empty();
    }

    /**
     * The primary key columns of the table (the {@code PRIMARY KEY ... NOT ENFORCED} of SQL, or the
     * builder's), in key order; empty if there is none. A target that accepts changes uses it as
     * the upsert key.
     */
    default List<String> primaryKey() {
        return Collections.emptyList();
    }

    /**
     * Whether the data replaces what it overwrites ({@code INSERT OVERWRITE}, or the builder's);
     * only ever true for a target whose {@link TargetFactory#overwrite()} is present, and for
     * bounded input.
     */
    default boolean overwrite() {
        return false;
    }

    /**
     * Whether the rows come grouped by partition: a BATCH job whose rows were sorted by partition
     * because the target asked ({@link io.sluice.spi.partition.PartitionSupport#requiresGrouping}; by the planner in
     * SQL, by the framework in a DataStream job), or whose DataStream sink was told its input comes
     * grouped. A writer may then close a partition's file as soon as the next partition's rows
     * begin.
     *
     * @since 2.1.0
     */
    @Experimental
    default boolean inputGroupedByPartition() {
        return false;
    }

    /**
     * The configuration of the job or SQL session that planned the sink: where upstream connectors
     * look for a write option between the table's own options and the table's properties.
     */
    default ReadableConfig jobConfiguration() {
        return new Configuration();
    }
}
