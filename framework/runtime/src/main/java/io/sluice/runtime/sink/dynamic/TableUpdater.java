package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.sink.SinkDescriptor;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The central table updater of a dynamic sink (the default, {@code immediateTableUpdate} false):
 * the routers send it, keyed by table, the rows whose table must be created or evolved; it updates
 * the table once (later rows of the same schema find it updated in its cache) and routes them on.
 * One subtask per table: the tables' catalog sees one updater per table, not every router, at the
 * cost of a keyed shuffle for those rows and backpressure while it updates.
 */
final class TableUpdater extends KeyedProcessFunction<String, RoutedRow, RoutedRow> {

    private static final long serialVersionUID = 1L;

    private final SinkDescriptor base;
    private final DynamicSinkSettings settings;
    private final int writers;

    private transient RecordRouting routing;

    TableUpdater(SinkDescriptor base, DynamicSinkSettings settings, int writers) {
        this.base = base;
        this.settings = settings;
        this.writers = writers;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        routing = RecordRouting.open(base, settings, writers, getRuntimeContext());
    }

    @Override
    public void processElement(RoutedRow pending, Context ctx, Collector<RoutedRow> out) throws Exception {
        Runnable fault = DynamicSinkFaults.onUpdate;
        if (fault != null) {
            fault.run();
        }
        WriteTarget requested = pending.target();
        out.collect(routing.route(
                requested.table(),
                requested.branch(),
                requested.rowType(),
                requested.spec(),
                pending.row(),
                pending.mode(),
                pending.writeParallelism(),
                requested.upsert(),
                requested.equalityFields(),
                true));
    }

    @Override
    public void close() throws Exception {
        if (routing != null) {
            routing.close();
            routing = null;
        }
    }
}
