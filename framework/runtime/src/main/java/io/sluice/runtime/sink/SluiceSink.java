package io.sluice.runtime.sink;

import io.sluice.runtime.adapt.RowAdapter;
import io.sluice.runtime.adapt.RowAdapters;
import io.sluice.runtime.compat.SluiceSinkBase;
import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.sink.commit.CommitAggregator;
import io.sluice.runtime.sink.commit.SluiceCommitter;
import io.sluice.runtime.sink.distribution.WriterDistribution;
import io.sluice.runtime.sink.distribution.range.RangeShuffleHooks;
import io.sluice.runtime.state.Committable;
import io.sluice.runtime.state.CommittableSerializer;
import io.sluice.runtime.state.Envelope;
import io.sluice.runtime.state.WriterState;
import io.sluice.runtime.state.WriterStateSerializer;
import io.sluice.spi.Payload;
import io.sluice.spi.changes.ChangeSupport;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetFactory;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreWriteTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The one Flink sink of every Sluice target: writers per subtask, one aggregated commit per
 * checkpoint, and the partition commit policies right after it. Exactly-once in STREAMING with
 * checkpoints; BATCH commits at the end of input.
 *
 * <p>The sink holds only a {@link SinkDescriptor}; each task resolves the target from its own
 * JVM's plugin registry when it creates its writer or committer. Build one with {@link
 * #forRowData(RowType)}, or {@link #forAdapter(RowAdapter)} for records of another type.
 */
public final class SluiceSink extends SluiceSinkBase<RowData>
        implements SupportsWriterState<RowData, WriterState>,
                SupportsCommitter<Committable>,
                SupportsPreCommitTopology<Committable, Committable>,
                SupportsPreWriteTopology<RowData> {

    private static final long serialVersionUID = 1L;

    /**
     * Completed with the target's defaults for the job's mode in {@link #addPreWriteTopology}, the
     * first moment a DataStream sink knows it, and before the job graph holds this sink.
     */
    private SinkDescriptor descriptor;

    /**
     * This sink's id in the job graph, the same on every task and attempt, for the writers' ids
     * ({@link WriterLineages}): two sinks of one job writing into one table must not share them.
     */
    private final String sinkId = UUID.randomUUID().toString();

    /**
     * Whether this sink sorts its writers' input by partition ({@link PartitionGrouping}): Flink
     * may build the topology more than once (an execution plan, then the job), and the second time
     * the descriptor already says the input is grouped.
     */
    private boolean sortsByPartition;

    /** {@link RangeShuffleHooks#NONE} but in the tests that fail a range shuffle's parts. */
    private RangeShuffleHooks rangeShuffleHooks = RangeShuffleHooks.NONE;

    SluiceSink(SinkDescriptor descriptor) {
        this.descriptor = descriptor;
    }

    /**
     * This sink, its range shuffle's parts (if it has one) calling {@code hooks}: for the tests,
     * through the runtime's test-jar, and so package-private.
     */
    SluiceSink withRangeShuffleHooks(RangeShuffleHooks hooks) {
        this.rangeShuffleHooks = java.util.Objects.requireNonNull(hooks, "hooks");
        return this;
    }

    /** Starts a builder for a sink of rows of the given type. */
    public static SluiceSinkBuilder forRowData(RowType rowType) {
        return new SluiceSinkBuilder(rowType);
    }

    /**
     * Starts a builder for a sink of the rows {@code adapter} makes from a job's own records (Flink
     * {@code Row}s, POJOs, Avro records; see {@link RowAdapters}). The adapter goes in front of the
     * sink: {@code adapter.apply(stream).sinkTo(sink)}, or {@link #sinkTo}.
     */
    public static SluiceSinkBuilder forAdapter(RowAdapter<?> adapter) {
        return forRowData(adapter.rowType());
    }

    /**
     * Maps {@code input} through {@code adapter} (see {@link RowAdapter#apply}) into {@code sink};
     * a Sluice sink gets its {@code sink.parallelism} if it has one.
     */
    public static <T> DataStreamSink<RowData> sinkTo(DataStream<T> input, RowAdapter<T> adapter, Sink<RowData> sink) {
        DataStreamSink<RowData> out = adapter.apply(input).sinkTo(sink);
        if (sink instanceof SluiceSink && ((SluiceSink) sink).parallelism() > 0) {
            out.setParallelism(((SluiceSink) sink).parallelism());
        }
        return out;
    }

    /** Creates the sink of a descriptor (used by the table factory). */
    public static SluiceSink of(SinkDescriptor descriptor) {
        return new SluiceSink(descriptor);
    }

    public SinkDescriptor descriptor() {
        return descriptor;
    }

    @Override
    public SinkWriter<RowData> createWriter(WriterInitContext context) throws IOException {
        return restoreWriter(context, new ArrayList<>());
    }

    @Override
    public StatefulSinkWriter<RowData, WriterState> restoreWriter(
            WriterInitContext context, Collection<WriterState> recoveredState) throws IOException {
        List<Payload> restored = new ArrayList<>();
        for (WriterState state : recoveredState) {
            for (Envelope e : state.envelopes()) {
                restored.add(e.payloadFor(descriptor.pluginId(), descriptor.target()));
            }
        }
        return SluiceSinkWriter.create(
                descriptor,
                context.getJobInfo().getJobId().toHexString(),
                context.getTaskInfo().getIndexOfThisSubtask(),
                context.getTaskInfo().getNumberOfParallelSubtasks(),
                context.metricGroup(),
                context.getProcessingTimeService(),
                context.getUserCodeClassLoader(),
                restored,
                WriterLineages.of(
                        sinkId,
                        context.getJobInfo().getJobId().toHexString(),
                        context.getRestoredCheckpointId(),
                        context.getTaskInfo().getIndexOfThisSubtask(),
                        context.getTaskInfo().getAttemptNumber()));
    }

    @Override
    public SimpleVersionedSerializer<WriterState> getWriterStateSerializer() {
        return new WriterStateSerializer();
    }

    @Override
    public Committer<Committable> createCommitter(CommitterInitContext context) throws IOException {
        // commits only what checkpoints of earlier versions left in its state (see CommitAggregator):
        // the target's committer is made for the first of those, so an idle subtask opens no catalog,
        // and reports no metrics (the aggregator's committer does)
        String jobId = context.getJobInfo().getJobId().toHexString();
        int subtask = context.getTaskInfo().getIndexOfThisSubtask();
        int subtasks = context.getTaskInfo().getNumberOfParallelSubtasks();
        return new Committer<>() {
            private SluiceCommitter committer;

            @Override
            public void commit(Collection<CommitRequest<Committable>> requests)
                    throws IOException, InterruptedException {
                if (requests.isEmpty()) {
                    return;
                }
                if (committer == null) {
                    committer = SluiceCommitter.forSink(
                            descriptor,
                            jobId,
                            subtask,
                            subtasks,
                            new org.apache.flink.metrics.groups.UnregisteredMetricsGroup());
                }
                committer.commit(requests);
            }

            @Override
            public void close() throws Exception {
                if (committer != null) {
                    committer.close();
                }
            }
        };
    }

    @Override
    public SimpleVersionedSerializer<Committable> getCommittableSerializer() {
        return new CommittableSerializer();
    }

    @Override
    public SimpleVersionedSerializer<Committable> getWriteResultSerializer() {
        return new CommittableSerializer();
    }

    /**
     * Routes the rows to the writers ({@link WriterDistribution}): a sink that takes changes by
     * their change key, so that every version of a key reaches the same writer, in order, whether
     * SQL, {@link SluiceSinkBuilder} or {@link TableSinkBuilder} planned the sink (Flink's planner
     * shuffles by the primary key only when the sink's parallelism differs from its input's); any
     * other by its distribution mode. Runs on the client, after the target's defaults for the job's
     * mode complete the options ({@link SinkDescriptor#withModeDefaults}).
     */
    @Override
    public DataStream<RowData> addPreWriteTopology(DataStream<RowData> input) {
        boolean batch = JobMode.isBatch(input);
        descriptor = descriptor.withModeDefaults(batch);
        TargetFactory target = descriptor.targetFactory();
        SinkContext context = SinkValidation.clientContext(descriptor);
        Optional<ChangeSupport> changes = target.changes().filter(c -> c.acceptsChanges(context));
        if (changes.isEmpty()) {
            DataStream<RowData> distributed = WriterDistribution.apply(input, descriptor, context, rangeShuffleHooks);
            if (batch && (sortsByPartition || PartitionGrouping.applies(descriptor, context))) {
                sortsByPartition = true;
                descriptor = descriptor.withPartitionGrouping(true);
                return PartitionGrouping.sortEachWritersInput(distributed, descriptor);
            }
            return distributed;
        }
        List<String> key = changes.get().changeKey(context);
        if (WriterDistribution.mode(descriptor, context) == io.sluice.spi.distribution.DistributionMode.RANGE) {
            // as upstream: every version of a key must meet one writer, which ranges do not promise
            org.slf4j.LoggerFactory.getLogger(SluiceSink.class)
                    .warn(
                            "Target '{}' takes changes: its rows are keyed by {} although 'distribution-mode' is"
                                    + " 'range'",
                            descriptor.target(),
                            key);
        }
        if (key.isEmpty()) {
            throw new IllegalArgumentException(
                    "Target '" + descriptor.target() + "' takes changes but names no key"
                            + " columns to route them by: declare a PRIMARY KEY ... NOT ENFORCED (or the builder's primary key)");
        }
        java.util.Optional<List<String>> columns = WriterDistribution.columns(descriptor);
        if (columns.isPresent()) {
            // coarser than the key and never splitting it: every version of a key still meets one writer
            if (!key.containsAll(columns.get())) {
                throw new IllegalArgumentException("Target '" + descriptor.target() + "' takes changes by "
                        + key + ": its rows can be distributed by columns of that key only, not by "
                        + columns.get());
            }
            return byChangeKey(input, new ChangeKeySelector(descriptor.rowType(), columns.get()));
        }
        return byChangeKey(input, new ChangeKeySelector(descriptor.rowType(), key));
    }

    /**
     * Every version of a key to one writer, in the order they came. STREAMING keys the stream (and
     * keeps the job graph that savepoints of earlier versions were taken with). BATCH must not: a
     * keyed operator's input is sorted by key there, and the sort does not keep the order of a
     * key's versions, so a later version could be written before an earlier one and lose to it.
     * The same writer, chosen by Flink's key-group assignment, through a plain partitioner instead.
     */
    private DataStream<RowData> byChangeKey(DataStream<RowData> input, ChangeKeySelector key) {
        if (JobMode.isBatch(input)) {
            return input.partitionCustom(new KeyGroupPartitioner(), key);
        }
        return input.keyBy(key);
    }

    @Override
    public DataStream<CommittableMessage<Committable>> addPreCommitTopology(
            DataStream<CommittableMessage<Committable>> writeResults) {
        // no uids here: Flink derives them from the uid the user gives the sink
        return writeResults
                .global()
                .transform(
                        "Sluice commit aggregator",
                        CommittableMessageTypeInfo.of(CommittableSerializer::new),
                        new CommitAggregator(withCompactionParallelism(descriptor, writeResults.getParallelism())))
                .name("Sluice commit aggregator: " + descriptor.target())
                .setParallelism(1)
                .setMaxParallelism(1)
                // everything to committer subtask 0: one commit per checkpoint
                .global();
    }

    /**
     * The descriptor the commit aggregator gets: {@code compaction.parallelism} set, by default to
     * the writers' parallelism (as upstream's compaction operator has the sink's), which only the
     * planner knows; the option itself wins. A parallelism Flink has not decided yet (-1) counts as 1.
     */
    static SinkDescriptor withCompactionParallelism(SinkDescriptor descriptor, int writers) {
        if (descriptor.configuration().contains(SluiceOptions.COMPACTION_PARALLELISM)
                || descriptor.targetFactory().compaction().isEmpty()) {
            return descriptor;
        }
        int parallelism = descriptor
                .configuration()
                .getOptional(SluiceOptions.SINK_PARALLELISM)
                .orElse(writers > 0 ? writers : 1);
        return descriptor.withOption(SluiceOptions.COMPACTION_PARALLELISM.key(), String.valueOf(parallelism));
    }

    /** The sink's parallelism option, or -1 for the input's. */
    public int parallelism() {
        return descriptor
                .configuration()
                .getOptional(SluiceOptions.SINK_PARALLELISM)
                .orElse(-1);
    }
}
