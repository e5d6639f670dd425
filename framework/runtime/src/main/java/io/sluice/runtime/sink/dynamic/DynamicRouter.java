package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.spi.distribution.DistributionMode;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.util.ArrayList;
import java.util.List;

/**
 * The first operator of a dynamic sink: runs the generator on each input record and routes every
 * {@link DynamicRecord} it makes ({@link RecordRouting}): shuffled rows on the main output, forward
 * rows to the writer chained behind it ({@link #FORWARD}), and rows whose table must first be
 * created or evolved, unless updates are immediate, to the table updater ({@link #PENDING}). A
 * forward row's table is always updated here, at once: it never leaves this subtask.
 */
final class DynamicRouter<T> extends ProcessFunction<T, RoutedRow> {

    private static final long serialVersionUID = 1L;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DynamicRouter.class);

    static final OutputTag<RoutedRow> FORWARD = new OutputTag<>("sluice-dynamic-forward", RoutedRowTypeInfo.INSTANCE);
    static final OutputTag<RoutedRow> PENDING = new OutputTag<>("sluice-dynamic-pending", RoutedRowTypeInfo.INSTANCE);

    private final DynamicRecordGenerator<T> generator;
    private final SinkDescriptor base;
    private final DynamicSinkSettings settings;
    private final int writers;

    private transient RecordRouting routing;
    private transient List<DynamicRecord> generated;
    private transient Collector<DynamicRecord> collector;
    private transient long position;
    private transient boolean rangeLogged;

    DynamicRouter(DynamicRecordGenerator<T> generator, SinkDescriptor base, DynamicSinkSettings settings, int writers) {
        this.generator = generator;
        this.base = base;
        this.settings = settings;
        this.writers = writers;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        routing = RecordRouting.open(base, settings, writers, getRuntimeContext());
        generated = new ArrayList<>();
        collector = new Collector<>() {
            @Override
            public void collect(DynamicRecord record) {
                generated.add(record);
            }

            @Override
            public void close() {}
        };
        generator.open(openContext);
    }

    @Override
    public void processElement(T input, Context ctx, Collector<RoutedRow> out) throws Exception {
        position++;
        generated.clear();
        try {
            generator.generate(input, collector);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "The dynamic sink's generator failed on input record " + position + " of router subtask "
                            + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() + ": " + e,
                    e);
        }
        for (DynamicRecord record : generated) {
            try {
                route(record, ctx, out);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "Dynamic record of input record " + position + " of router subtask "
                                + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() + ": " + e.getMessage(),
                        e);
            }
        }
    }

    private void route(DynamicRecord record, Context ctx, Collector<RoutedRow> out) throws Exception {
        record.check();
        if (base.overwrite() && Boolean.TRUE.equals(record.upsertMode())) {
            throw new IllegalArgumentException("Table " + record.table()
                    + " gets an upsert in a dynamic sink that overwrites: overwrite and upserts do not go together");
        }
        DistributionMode mode = record.distributionMode();
        if (mode == DistributionMode.RANGE) {
            if (!rangeLogged) {
                LOG.warn("The dynamic sink distributes records of mode RANGE by HASH, as upstream's does");
                rangeLogged = true;
            }
            mode = DistributionMode.HASH;
        }
        boolean immediate = mode == null || settings.immediateTableUpdate;
        List<String> equalityFields = sorted(record.equalityFields());
        RoutedRow routed = routing.route(
                record.table(),
                record.branch(),
                record.schema(),
                record.spec(),
                record.row(),
                mode,
                record.writeParallelism(),
                record.upsertMode(),
                equalityFields,
                immediate);
        if (routed == null) {
            WriteTarget requested = new WriteTarget(
                    record.table(),
                    record.branch() != null ? record.branch() : settings.branch,
                    RoutedRow.PENDING,
                    RoutedRow.PENDING,
                    record.schema(),
                    record.spec(),
                    record.upsertMode(),
                    equalityFields);
            ctx.output(PENDING, RoutedRow.pending(requested, record.row(), mode, record.writeParallelism()));
        } else if (routed.writer() == RoutedRow.FORWARD) {
            ctx.output(FORWARD, routed);
        } else {
            out.collect(routed);
        }
    }

    /** The equality fields in name order; a record without any (most) costs no copy. */
    private static List<String> sorted(java.util.Set<String> fields) {
        if (fields.isEmpty()) {
            return List.of();
        }
        List<String> sorted = new ArrayList<>(fields);
        java.util.Collections.sort(sorted);
        return sorted;
    }

    @Override
    public void close() throws Exception {
        if (routing != null) {
            routing.close();
            routing = null;
        }
    }
}
