package io.sluice.spi.sink;

import io.sluice.spi.ExtensionLookup;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.types.logical.RowType;

import java.util.List;
import java.util.Map;

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

    /** The metric group of the operator the part runs in. */
    MetricGroup metricGroup();

    /** Other plugins' extensions. */
    ExtensionLookup extensions();
}
