package io.sluice.runtime.sink;

import io.sluice.runtime.plugin.PluginLifecycle;
import io.sluice.runtime.state.Committable;
import io.sluice.runtime.state.Envelope;
import io.sluice.runtime.state.WriterState;
import io.sluice.spi.Payload;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.RecordContext;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.spi.sink.WriterLineage;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * The Flink side of one writer subtask: hands rows to the target's {@link TargetWriter}, turns what
 * it prepares into {@link Committable}s and its state into {@link Envelope}s, and drives its
 * processing-time callbacks.
 */
public final class SluiceSinkWriter
        implements CommittingSinkWriter<RowData, Committable>, StatefulSinkWriter<RowData, WriterState> {

    private final TargetWriter writer;
    private final String pluginId;
    private final String target;
    private final ProcessingTimeService timeService;
    private final MutableRecordContext recordContext;
    private boolean endOfInput;
    /** Set by {@link #close}: the processing-time timer stops. */
    private volatile boolean closed;

    private final PluginLifecycle.Attachment attachment;

    SluiceSinkWriter(
            TargetWriter writer,
            String pluginId,
            String target,
            ProcessingTimeService timeService,
            PluginLifecycle.Attachment attachment) {
        this.attachment = attachment;
        this.writer = writer;
        this.pluginId = pluginId;
        this.target = target;
        this.timeService = timeService;
        this.recordContext = new MutableRecordContext(timeService);
        long interval = writer.processingTimeInterval();
        if (interval > 0) {
            scheduleTimer(interval);
        }
    }

    /**
     * The writer of one subtask of a sink: the target's, made from the sink's descriptor with the
     * state its writers left ({@code restored}, empty on a fresh start) and its lineage (null where
     * the caller cannot name a writer's predecessors), attached to the plugins until closed.
     */
    public static SluiceSinkWriter create(
            SinkDescriptor descriptor,
            String jobId,
            int subtask,
            int subtasks,
            org.apache.flink.metrics.MetricGroup metrics,
            ProcessingTimeService timeService,
            @javax.annotation.Nullable org.apache.flink.util.UserCodeClassLoader userCode,
            List<Payload> restored,
            @javax.annotation.Nullable WriterLineage lineage)
            throws IOException {
        PluginLifecycle.Attachment attachment = PluginLifecycle.attach(userCode);
        TaskSinkContext sinkContext =
                new TaskSinkContext(descriptor, jobId, subtask, subtasks, metrics, descriptor.registry(), lineage);
        TargetWriter writer;
        try {
            writer = descriptor.targetFactory().createWriter(sinkContext, restored);
        } catch (IOException | RuntimeException e) {
            attachment.close();
            FailFast.ifNonRecoverable(e);
            throw e;
        }
        return new SluiceSinkWriter(writer, descriptor.pluginId(), descriptor.target(), timeService, attachment);
    }

    private void scheduleTimer(long interval) {
        timeService.registerTimer(timeService.getCurrentProcessingTime() + interval, time -> {
            if (closed) {
                return; // a dynamic sink closes idle writers while their task runs on
            }
            try {
                writer.onProcessingTime(time);
            } catch (IOException | RuntimeException e) {
                FailFast.ifNonRecoverable(e);
                throw e;
            }
            scheduleTimer(interval);
        });
    }

    @Override
    public void write(RowData element, Context context) throws IOException {
        recordContext.timestamp = context.timestamp();
        recordContext.watermark = context.currentWatermark();
        try {
            writer.write(element, recordContext);
        } catch (IOException | RuntimeException e) {
            FailFast.ifNonRecoverable(e);
            throw e;
        }
    }

    @Override
    public void writeWatermark(Watermark watermark) {
        recordContext.watermark = watermark.getTimestamp();
    }

    @Override
    public void flush(boolean endOfInput) {
        this.endOfInput |= endOfInput;
    }

    @Override
    public Collection<Committable> prepareCommit() throws IOException {
        List<PendingCommit> pending;
        try {
            pending = writer.prepareCommit(endOfInput);
        } catch (IOException | RuntimeException e) {
            FailFast.ifNonRecoverable(e);
            throw e;
        }
        if (pending.isEmpty()) {
            return Collections.emptyList();
        }
        List<Committable.Entry> entries = new ArrayList<>(pending.size());
        for (PendingCommit p : pending) {
            entries.add(new Committable.Entry(
                    new Envelope(pluginId, target, p.payload()),
                    p.partition(),
                    p.partitionCreationTime(),
                    p.size(),
                    p.forCompaction()));
        }
        return Collections.singletonList(new Committable(entries));
    }

    @Override
    public List<WriterState> snapshotState(long checkpointId) throws IOException {
        List<Payload> payloads;
        try {
            payloads = writer.snapshotState(checkpointId);
        } catch (IOException | RuntimeException e) {
            FailFast.ifNonRecoverable(e);
            throw e;
        }
        List<Envelope> envelopes = new ArrayList<>(payloads.size());
        for (Payload p : payloads) {
            envelopes.add(new Envelope(pluginId, target, p));
        }
        return Collections.singletonList(new WriterState(envelopes));
    }

    /** The target writer's {@code isIdle}: nothing open that a restore would need. */
    public boolean isIdle() {
        try {
            return writer.isIdle();
        } catch (RuntimeException e) {
            FailFast.ifNonRecoverable(e);
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        closed = true;
        try {
            writer.close();
        } finally {
            attachment.close();
        }
    }

    /** One instance per writer, updated before every row: no allocation per record. */
    private static final class MutableRecordContext implements RecordContext {
        private final ProcessingTimeService timeService;

        @Nullable
        Long timestamp;

        long watermark = Long.MIN_VALUE;

        MutableRecordContext(ProcessingTimeService timeService) {
            this.timeService = timeService;
        }

        @Override
        public long currentProcessingTime() {
            return timeService.getCurrentProcessingTime();
        }

        @Override
        public long currentWatermark() {
            return watermark;
        }

        @Nullable
        @Override
        public Long timestamp() {
            return timestamp;
        }
    }
}
