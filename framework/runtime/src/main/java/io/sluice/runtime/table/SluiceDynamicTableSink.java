package io.sluice.runtime.table;

import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.SluiceSink;

import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The planner's view of a Sluice sink table: insert-only, partitioned by the table's partition
 * keys. Static partition values ({@code INSERT INTO t PARTITION (k='v')}) arrive in the rows
 * themselves, as Flink's planner projects them in.
 */
final class SluiceDynamicTableSink implements DynamicTableSink, SupportsPartitioning {

    private final SinkDescriptor descriptor;
    private final LinkedHashMap<String, String> staticPartition = new LinkedHashMap<>();

    SluiceDynamicTableSink(SinkDescriptor descriptor) {
        this.descriptor = descriptor;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return ChangelogMode.insertOnly();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        SluiceSink sink = SluiceSink.of(descriptor);
        int parallelism = sink.parallelism();
        return parallelism > 0 ? SinkV2Provider.of(sink, parallelism) : SinkV2Provider.of(sink);
    }

    @Override
    public void applyStaticPartition(Map<String, String> partition) {
        staticPartition.putAll(partition);
    }

    @Override
    public DynamicTableSink copy() {
        SluiceDynamicTableSink copy = new SluiceDynamicTableSink(descriptor);
        copy.staticPartition.putAll(staticPartition);
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "Sluice(" + descriptor.target() + ")";
    }
}
