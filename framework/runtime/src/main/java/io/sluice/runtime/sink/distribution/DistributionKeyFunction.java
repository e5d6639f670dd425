package io.sluice.runtime.sink.distribution;

import io.sluice.runtime.plugin.PluginLifecycle;
import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.TaskSinkContext;
import io.sluice.spi.distribution.DistributionKey;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.table.data.RowData;

import java.nio.charset.StandardCharsets;

/**
 * Pairs each row with the target's {@link DistributionKey} of it, as a string whose characters are
 * the key's bytes (ISO-8859-1: one char per byte, equal strings for equal keys). The key is asked
 * of the plugin here, in an operator with a life cycle, and not in the key selector that Flink's
 * partitioner calls, which has none to attach the plugins with.
 */
final class DistributionKeyFunction extends RichMapFunction<RowData, Tuple2<String, RowData>> {

    private static final long serialVersionUID = 1L;

    private final SinkDescriptor descriptor;
    private final boolean rangeKey;
    private transient PluginLifecycle.Attachment attachment;
    private transient DistributionKey key;

    /** Keys by the hash distribution's key, or with {@code rangeKey} by the target's sort key. */
    DistributionKeyFunction(SinkDescriptor descriptor, boolean rangeKey) {
        this.descriptor = descriptor;
        this.rangeKey = rangeKey;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        attachment = PluginLifecycle.attach(null);
        TaskSinkContext context = new TaskSinkContext(
                descriptor,
                getRuntimeContext().getJobInfo().getJobId().toHexString(),
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks(),
                getRuntimeContext().getMetricGroup(),
                descriptor.registry());
        key = rangeKey
                ? WriterDistribution.support(descriptor).rangeKey(context)
                : WriterDistribution.key(descriptor, context);
    }

    @Override
    public Tuple2<String, RowData> map(RowData row) {
        return Tuple2.of(new String(key.of(row), StandardCharsets.ISO_8859_1), row);
    }

    @Override
    public void close() throws Exception {
        if (attachment != null) {
            attachment.close();
            attachment = null;
        }
    }
}
