package io.sluice.runtime.sink;

import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.sink.compaction.CompactorChoice;
import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.compact.FileCompactorFactory;
import io.sluice.spi.compact.SinkCompaction;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.sink.WriterLineage;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The {@link SinkContext} the framework gives to plugin parts, on the client or on a task. */
public final class TaskSinkContext implements SinkContext {

    private final SinkDescriptor descriptor;
    private final ReadableConfig options;
    private final String jobId;
    private final int subtaskIndex;
    private final int numberOfSubtasks;
    private final MetricGroup metricGroup;
    private final ExtensionLookup extensions;

    @Nullable
    private final WriterLineage writerLineage;

    private Optional<SinkCompaction> compaction; // decided when first asked for

    public TaskSinkContext(
            SinkDescriptor descriptor,
            String jobId,
            int subtaskIndex,
            int numberOfSubtasks,
            MetricGroup metricGroup,
            ExtensionLookup extensions) {
        this(descriptor, jobId, subtaskIndex, numberOfSubtasks, metricGroup, extensions, null);
    }

    /** The context of a writer subtask, with the writer's lineage ({@link WriterLineages}). */
    public TaskSinkContext(
            SinkDescriptor descriptor,
            String jobId,
            int subtaskIndex,
            int numberOfSubtasks,
            MetricGroup metricGroup,
            ExtensionLookup extensions,
            @Nullable WriterLineage writerLineage) {
        this.writerLineage = writerLineage;
        this.descriptor = descriptor;
        this.options = descriptor.configuration();
        this.jobId = jobId;
        this.subtaskIndex = subtaskIndex;
        this.numberOfSubtasks = numberOfSubtasks;
        this.metricGroup = metricGroup;
        this.extensions = extensions;
    }

    @Override
    public RowType rowType() {
        return descriptor.rowType();
    }

    @Override
    public List<String> partitionKeys() {
        return descriptor.partitionKeys();
    }

    @Override
    public ReadableConfig options() {
        return options;
    }

    @Override
    public Map<String, String> rawOptions() {
        return descriptor.options();
    }

    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public int subtaskIndex() {
        return subtaskIndex;
    }

    @Override
    public int numberOfSubtasks() {
        return numberOfSubtasks;
    }

    @Override
    public Optional<WriterLineage> writerLineage() {
        return Optional.ofNullable(writerLineage);
    }

    @Override
    public MetricGroup metricGroup() {
        return metricGroup;
    }

    @Override
    public ExtensionLookup extensions() {
        return extensions;
    }

    @Override
    public synchronized Optional<SinkCompaction> compaction() {
        if (compaction == null) {
            boolean supported = extensions
                    .find(TargetFactory.class, descriptor.target())
                    .compaction()
                    .isPresent();
            compaction = supported ? Optional.of(new Compaction()) : Optional.empty();
        }
        return compaction;
    }

    /** The framework's compaction for this sink; the compactor is created when first asked for. */
    private final class Compaction implements SinkCompaction {
        private FileCompactor compactor;

        @Override
        public boolean enabled() {
            return options.get(SluiceOptions.AUTO_COMPACTION);
        }

        @Override
        public synchronized FileCompactor compactor() { // the threads of parallel units may ask at once
            if (compactor == null) {
                String format = extensions
                        .find(TargetFactory.class, descriptor.target())
                        .compaction()
                        .flatMap(c -> c.fileFormat(TaskSinkContext.this))
                        .orElse(null);
                FileCompactorFactory factory = CompactorChoice.factory(options, format, extensions);
                compactor = factory.createCompactor(CompactorChoice.context(options, format, extensions));
            }
            return compactor;
        }

        /**
         * {@code compaction.parallelism}, else the sink's parallelism option: the planner puts the
         * writers' parallelism into the descriptor the commit aggregator gets ({@code
         * SluiceSink.addPreCommitTopology}), so the option is always set there.
         */
        @Override
        public int parallelism() {
            return options.getOptional(SluiceOptions.COMPACTION_PARALLELISM)
                    .orElseGet(() ->
                            options.getOptional(SluiceOptions.SINK_PARALLELISM).orElse(1));
        }
    }

    @Override
    public List<String> primaryKey() {
        return descriptor.primaryKey();
    }

    @Override
    public boolean overwrite() {
        return descriptor.overwrite();
    }

    @Override
    public boolean inputGroupedByPartition() {
        return descriptor.partitionGrouped();
    }

    @Override
    public ReadableConfig jobConfiguration() {
        return Configuration.fromMap(descriptor.jobConfiguration());
    }
}
