package io.sluice.runtime.source.scan;

import io.sluice.runtime.plugin.PluginLifecycle;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.source.AttachedSourceReader;
import io.sluice.runtime.source.AttachedSplitEnumerator;
import io.sluice.runtime.source.TaskSourceContext;
import io.sluice.spi.source.ScanPlanner;
import io.sluice.spi.source.ScanSourceFactory;
import io.sluice.spi.source.ScanSplitReader;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.impl.FileSourceReader;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * The source of a target read by planning scans (FLIP-27): the split enumerator asks the target's
 * {@link ScanPlanner} for splits, once for a bounded read or every monitor interval for a
 * continuous one, and keeps them with the planner's position in its checkpoints; the readers are
 * Flink's file source readers over the target's split reader, so positions within a split are
 * checkpointed as for files.
 *
 * <p>The source holds only a {@link ScanDescriptor}; the JobManager and each TaskManager find the
 * target's scan source in their own plugin registry. Built by {@link TableSourceBuilder} or the
 * SQL connector.
 */
public final class ScanSource
        implements Source<RowData, ScanSourceSplit, ScanEnumeratorState>,
                ResultTypeQueryable<RowData>,
                org.apache.flink.api.connector.source.DynamicParallelismInference {

    private static final long serialVersionUID = 1L;

    private final ScanDescriptor descriptor;

    ScanSource(ScanDescriptor descriptor) {
        this.descriptor = descriptor;
    }

    /** Creates the source of a descriptor (used by the table factory). */
    public static ScanSource of(ScanDescriptor descriptor) {
        return new ScanSource(descriptor);
    }

    public ScanDescriptor descriptor() {
        return descriptor;
    }

    /**
     * Dynamic parallelism inference, asked by Flink's adaptive batch scheduler on the JobManager:
     * the target's answer, or the scheduler's bound (what Flink gives a source that infers nothing).
     */
    @Override
    public int inferParallelism(Context context) {
        int bound = context.getParallelismInferenceUpperBound();
        return ScanSourcePlanner.inferParallelism(descriptor, bound, true).orElse(bound);
    }

    @Override
    public Boundedness getBoundedness() {
        return descriptor.isContinuous() ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<RowData, ScanSourceSplit> createReader(SourceReaderContext readerContext) throws Exception {
        PluginLifecycle.Attachment attachment = PluginLifecycle.attach(readerContext.getUserCodeClassLoader());
        try {
            ScanSplitReader splitReader = factory().createReader(descriptor.context(descriptor.registry()));
            ScanReadingFormat format = new ScanReadingFormat(splitReader, descriptor.rowType());
            // Flink's file reader does not close its format, so the plugin's split reader is closed with it
            return new AttachedSourceReader<>(
                    new FileSourceReader<>(readerContext, format, Configuration.fromMap(descriptor.options())),
                    splitReader,
                    attachment);
        } catch (Exception e) {
            attachment.close();
            throw e;
        }
    }

    @Override
    public SplitEnumerator<ScanSourceSplit, ScanEnumeratorState> createEnumerator(
            SplitEnumeratorContext<ScanSourceSplit> context) throws Exception {
        return attached(() -> enumerator(context));
    }

    @Override
    public SplitEnumerator<ScanSourceSplit, ScanEnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<ScanSourceSplit> context, ScanEnumeratorState checkpoint) throws Exception {
        return attached(() -> enumerator(context, checkpoint));
    }

    /** The enumerator attached to the {@link PluginLifecycle} until it closes, also if it cannot be made. */
    private static SplitEnumerator<ScanSourceSplit, ScanEnumeratorState> attached(
            java.util.concurrent.Callable<SplitEnumerator<ScanSourceSplit, ScanEnumeratorState>> enumerator)
            throws Exception {
        PluginLifecycle.Attachment attachment = PluginLifecycle.attach(null);
        try {
            return new AttachedSplitEnumerator<>(enumerator.call(), attachment);
        } catch (Exception e) {
            attachment.close();
            throw e;
        }
    }

    private SplitEnumerator<ScanSourceSplit, ScanEnumeratorState> enumerator(
            SplitEnumeratorContext<ScanSourceSplit> context) throws Exception {
        ScanPlanner planner = factory().createPlanner(context(context));
        if (descriptor.isContinuous()) {
            return ScanSplitEnumerator.continuous(
                    context,
                    planner,
                    descriptor.pluginId(),
                    descriptor.target(),
                    descriptor.monitorIntervalMillis(),
                    null);
        }
        // a bounded read plans once, here, so a restored enumerator never plans again
        try (ScanPlanner once = planner) {
            return ScanSplitEnumerator.bounded(
                    context,
                    descriptor.pluginId(),
                    descriptor.target(),
                    ScanSplitEnumerator.planOnce(once, descriptor.pluginId(), descriptor.target()));
        }
    }

    private SplitEnumerator<ScanSourceSplit, ScanEnumeratorState> enumerator(
            SplitEnumeratorContext<ScanSourceSplit> context, ScanEnumeratorState checkpoint) throws Exception {
        if (descriptor.isContinuous()) {
            return ScanSplitEnumerator.continuous(
                    context,
                    factory().createPlanner(context(context)),
                    descriptor.pluginId(),
                    descriptor.target(),
                    descriptor.monitorIntervalMillis(),
                    checkpoint);
        }
        return ScanSplitEnumerator.bounded(context, descriptor.pluginId(), descriptor.target(), checkpoint);
    }

    private ScanSourceFactory factory() {
        return descriptor.registry().find(ScanSourceFactory.class, descriptor.target());
    }

    /** The context of a planner in the enumerator: it plans the splits for the source's readers. */
    private TaskSourceContext context(SplitEnumeratorContext<ScanSourceSplit> enumeratorContext) {
        PluginRegistry registry = descriptor.registry();
        return descriptor.context(registry).withReaders(enumeratorContext.currentParallelism());
    }

    @Override
    public SimpleVersionedSerializer<ScanSourceSplit> getSplitSerializer() {
        return new ScanSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<ScanEnumeratorState> getEnumeratorCheckpointSerializer() {
        return new ScanEnumeratorStateSerializer();
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(descriptor.rowType());
    }
}
