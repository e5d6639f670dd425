package io.sluice.runtime.sink;

import org.apache.flink.table.types.logical.RowType;

import java.util.List;
import java.util.Map;

/**
 * Client-side planning of a sink, the same for {@link SluiceSinkBuilder#build()} (and so {@link
 * TableSinkBuilder}) and SQL ({@code SluiceDynamicTableFactory}): resolves the {@link SinkDescriptor}
 * and checks it ({@link SinkValidation}) before any job runs.
 */
public final class SinkPlanner {

    private SinkPlanner() {}

    /**
     * The checked descriptor of a sink of these options.
     *
     * @param jobConfiguration the job's or session's settings the target may read
     * @param overwrite whether the sink replaces what the target holds ({@code INSERT OVERWRITE})
     * @throws IllegalArgumentException for an unknown target or option, an invalid value, or an
     *     overwrite the target does not support
     */
    public static SinkDescriptor plan(
            Map<String, String> options,
            RowType rowType,
            List<String> partitionKeys,
            List<String> primaryKey,
            Map<String, String> jobConfiguration,
            boolean overwrite) {
        SinkDescriptor descriptor = SinkDescriptor.resolve(options, rowType, partitionKeys, primaryKey)
                .withOverwrite(overwrite)
                .withJobConfiguration(jobConfiguration);
        if (overwrite) {
            SinkValidation.checkOverwrite(descriptor);
        }
        SinkValidation.validate(descriptor);
        return descriptor;
    }

    /**
     * The descriptor of a SQL table's sink, checked by the framework but not yet by the target
     * ({@link SinkValidation#validateTarget}, which may create a table): the planner says whether
     * the statement overwrites only after the sink exists, and a refused statement must leave
     * nothing behind.
     */
    public static SinkDescriptor planWithoutTheTarget(
            Map<String, String> options,
            RowType rowType,
            List<String> partitionKeys,
            List<String> primaryKey,
            Map<String, String> jobConfiguration) {
        SinkDescriptor descriptor = SinkDescriptor.resolve(options, rowType, partitionKeys, primaryKey)
                .withJobConfiguration(jobConfiguration);
        SinkValidation.validateAllButTheTarget(descriptor);
        return descriptor;
    }
}
