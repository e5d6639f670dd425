package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.sink.SinkDescriptor;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

import java.io.Serializable;

/**
 * The central table updater of a dynamic sink (the default, {@code immediateTableUpdate} false):
 * the routers send it, keyed by table, the rows whose table must be created or evolved; it updates
 * the table once (later rows of the same schema find it updated in its cache) and routes them on.
 * One subtask per table: the tables' catalog sees one updater per table, not every router, at the
 * cost of a keyed shuffle for those rows and backpressure while it updates.
 *
 * <p>In STREAMING the rows come keyed ({@code keyBy}, the job graph savepoints were taken with); in
 * BATCH through {@link Unkeyed}, to the same subtask by a plain partitioner, because BATCH sorts a
 * keyed operator's input and the sort does not keep the order of a table's rows: an upsert key's
 * versions would reach the writers in any order.
 */
final class TableUpdater extends KeyedProcessFunction<String, RoutedRow, RoutedRow> {

    private static final long serialVersionUID = 1L;

    private final Updates updates;

    TableUpdater(SinkDescriptor base, DynamicSinkSettings settings, int writers) {
        this.updates = new Updates(base, settings, writers);
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        updates.open(getRuntimeContext());
    }

    @Override
    public void processElement(RoutedRow pending, Context ctx, Collector<RoutedRow> out) throws Exception {
        updates.update(pending, out);
    }

    @Override
    public void close() throws Exception {
        updates.close();
    }

    /** The updater of a BATCH job, whose rows come by a plain partitioner in their order. */
    static final class Unkeyed extends ProcessFunction<RoutedRow, RoutedRow> {
        private static final long serialVersionUID = 1L;

        private final Updates updates;

        Unkeyed(SinkDescriptor base, DynamicSinkSettings settings, int writers) {
            this.updates = new Updates(base, settings, writers);
        }

        @Override
        public void open(OpenContext openContext) throws Exception {
            updates.open(getRuntimeContext());
        }

        @Override
        public void processElement(RoutedRow pending, Context ctx, Collector<RoutedRow> out) throws Exception {
            updates.update(pending, out);
        }

        @Override
        public void close() throws Exception {
            updates.close();
        }
    }

    /** What both updaters do: route each pending row with updates allowed. */
    private static final class Updates implements Serializable {
        private static final long serialVersionUID = 1L;

        private final SinkDescriptor base;
        private final DynamicSinkSettings settings;
        private final int writers;

        private transient RecordRouting routing;

        Updates(SinkDescriptor base, DynamicSinkSettings settings, int writers) {
            this.base = base;
            this.settings = settings;
            this.writers = writers;
        }

        void open(RuntimeContext context) throws Exception {
            routing = RecordRouting.open(base, settings, writers, context);
        }

        void update(RoutedRow pending, Collector<RoutedRow> out) throws Exception {
            settings.hooks.onUpdate();
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

        void close() throws Exception {
            if (routing != null) {
                routing.close();
                routing = null;
            }
        }
    }
}
