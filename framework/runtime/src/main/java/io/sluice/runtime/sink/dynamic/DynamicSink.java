package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.runtime.sink.JobMode;
import io.sluice.runtime.sink.KeyGroupPartitioner;
import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.SinkValidation;
import io.sluice.runtime.sink.commit.CommitAggregator;
import io.sluice.runtime.state.Committable;
import io.sluice.runtime.state.CommittableSerializer;
import io.sluice.spi.dynamic.DynamicTableSupport;
import io.sluice.spi.dynamic.DynamicTables;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.streaming.api.transformations.PhysicalTransformation;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One sink that writes any number of tables of one target, creating and evolving them as records
 * arrive: the records of a {@link DynamicRecordGenerator} name their table, branch, schema,
 * partition spec, distribution and write parallelism. As upstream Iceberg's {@code
 * DynamicIcebergSink}, for every target whose plugin has dynamic tables ({@code
 * TargetFactory#dynamicTables()}).
 *
 * <p>The topology: a router (the generator, the table cache, the schema matching) on the input's
 * parallelism; rows whose table must change first through a table updater keyed by table (unless
 * {@link Builder#immediateTableUpdate}); shuffled rows to the writers over a custom partitioner,
 * forward rows to a writer chained behind the router; both writers' committables to one commit
 * aggregator, which commits each table once per checkpoint ({@link DynamicCommitter}).
 */
public final class DynamicSink {

    /** The targets' option of snapshot summary properties (the iceberg target's {@code snapshot-properties}). */
    private static final org.apache.flink.configuration.ConfigOption<Map<String, String>> SNAPSHOT_PROPERTIES =
            org.apache.flink.configuration.ConfigOptions.key("snapshot-properties")
                    .mapType()
                    .noDefaultValue();

    private DynamicSink() {}

    public static <T> Builder<T> forInput(DataStream<T> input) {
        return new Builder<>(input);
    }

    /**
     * The target's dynamic tables.
     *
     * @throws IllegalArgumentException if the target has none
     */
    static DynamicTables dynamicTables(SinkDescriptor base, SinkContext context) throws IOException {
        return support(base).open(context);
    }

    /**
     * The target's dynamic tables facet.
     *
     * @throws IllegalArgumentException if the target has none
     */
    static DynamicTableSupport support(SinkDescriptor base) {
        return base.targetFactory()
                .dynamicTables()
                .orElseThrow(() -> new IllegalArgumentException("Target '" + base.target()
                        + "' cannot be written by a dynamic sink: its plugin has no dynamic tables"));
    }

    /** Builds a dynamic sink, with upstream's names and defaults. */
    public static final class Builder<T> {

        private final DataStream<T> input;
        private DynamicRecordGenerator<T> generator;
        private final Map<String, String> options = new LinkedHashMap<>();
        private final Map<String, String> snapshotProperties = new LinkedHashMap<>();
        private int writeParallelism;
        private String uidPrefix;
        private boolean overwrite;

        @Nullable
        private String branch;

        private int cacheMaxSize = 100;
        private long cacheRefreshMs = 1_000;
        private int inputSchemasPerTableCacheMaxSize = 10;
        private boolean immediateTableUpdate;
        private boolean dropUnusedColumns;
        private DynamicTableCreator tableCreator = DynamicTableCreator.DEFAULT;
        private DynamicSinkHooks hooks = DynamicSinkHooks.NONE;

        private Builder(DataStream<T> input) {
            this.input = Objects.requireNonNull(input, "input");
        }

        public Builder<T> generator(DynamicRecordGenerator<T> generator) {
            this.generator = Objects.requireNonNull(generator, "generator");
            return this;
        }

        /** The target that writes the tables ({@code iceberg}, {@code filesystem}, {@code hive}). */
        public Builder<T> target(String target) {
            return set(SluiceOptions.TARGET.key(), target);
        }

        public Builder<T> pluginsDir(Path dir) {
            return set(PluginSettings.PLUGINS_DIR, dir.toAbsolutePath().toString());
        }

        /**
         * The catalog the target finds the tables in, by the target's catalog options (Iceberg:
         * {@code catalog-type}, {@code warehouse}, {@code uri} ...; filesystem: {@code path}, the
         * base path of the tables).
         */
        public Builder<T> catalog(Map<String, String> catalogOptions) {
            return setAll(catalogOptions);
        }

        /** A write option of every table; it wins over a table property of the same name. */
        public Builder<T> set(String key, String value) {
            options.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        public Builder<T> setAll(Map<String, String> properties) {
            properties.forEach(this::set);
            return this;
        }

        /** The writer subtasks of the shuffled rows (default: the job's parallelism). */
        public Builder<T> writeParallelism(int parallelism) {
            if (parallelism <= 0) {
                throw new IllegalArgumentException("Invalid write parallelism " + parallelism + ": must be > 0");
            }
            this.writeParallelism = parallelism;
            return this;
        }

        public Builder<T> uidPrefix(String prefix) {
            this.uidPrefix = prefix;
            return this;
        }

        /** Properties of every snapshot the sink commits (Iceberg's snapshot summary). */
        public Builder<T> snapshotProperties(Map<String, String> properties) {
            snapshotProperties.putAll(properties);
            return this;
        }

        public Builder<T> setSnapshotProperty(String key, String value) {
            snapshotProperties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** The branch of records that name none. */
        public Builder<T> toBranch(String branch) {
            this.branch = branch;
            return this;
        }

        public Builder<T> overwrite(boolean overwrite) {
            this.overwrite = overwrite;
            return this;
        }

        /** Tables whose metadata the router keeps (least recently used out first); default 100. */
        public Builder<T> cacheMaxSize(int maxSize) {
            if (maxSize <= 0) {
                throw new IllegalArgumentException("Invalid cache max size " + maxSize + ": must be > 0");
            }
            this.cacheMaxSize = maxSize;
            return this;
        }

        /** How long a table's cached metadata is used before it is loaded again; default 1,000 ms. */
        public Builder<T> cacheRefreshMs(long refreshMs) {
            if (refreshMs < 0) {
                throw new IllegalArgumentException("Invalid cache refresh " + refreshMs + " ms: must be >= 0");
            }
            this.cacheRefreshMs = refreshMs;
            return this;
        }

        /** Input schemas whose resolution is kept per table; default 10. */
        public Builder<T> inputSchemasPerTableCacheMaxSize(int size) {
            if (size <= 0) {
                throw new IllegalArgumentException("Invalid input schemas per table " + size + ": must be > 0");
            }
            this.inputSchemasPerTableCacheMaxSize = size;
            return this;
        }

        /** Whether the routers update tables themselves (true) or hand that to the updater (false, default). */
        public Builder<T> immediateTableUpdate(boolean immediate) {
            this.immediateTableUpdate = immediate;
            return this;
        }

        /** Whether a column the input lacks is dropped from the table (default false). */
        public Builder<T> dropUnusedColumns(boolean drop) {
            this.dropUnusedColumns = drop;
            return this;
        }

        public Builder<T> tableCreator(DynamicTableCreator creator) {
            this.tableCreator = Objects.requireNonNull(creator, "creator");
            return this;
        }

        /**
         * The sink's operators calling {@code hooks}: for the tests, through the runtime's
         * test-jar, and so package-private.
         */
        Builder<T> hooks(DynamicSinkHooks hooks) {
            this.hooks = Objects.requireNonNull(hooks, "hooks");
            return this;
        }

        /** Adds the sink to the job. */
        public DataStreamSink<?> append() {
            if (generator == null) {
                throw new IllegalArgumentException("A dynamic sink needs a generator: call generator(...)");
            }
            if (!snapshotProperties.isEmpty()) {
                // the target's map option, in Flink's string form of a map
                org.apache.flink.configuration.Configuration encoded =
                        new org.apache.flink.configuration.Configuration();
                encoded.set(SNAPSHOT_PROPERTIES, snapshotProperties);
                options.put(SNAPSHOT_PROPERTIES.key(), encoded.toMap().get(SNAPSHOT_PROPERTIES.key()));
            }
            SinkDescriptor base = SinkDescriptor.resolve(options, new RowType(List.of()), List.of())
                    .withOverwrite(overwrite);
            try (DynamicTables ignored = dynamicTables(base, SinkValidation.clientContext(base))) {
                // the target has dynamic tables and takes the sink's options
            } catch (IllegalArgumentException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalArgumentException(
                        "Target '" + base.target() + "' cannot open its dynamic tables: " + e, e);
            }
            int writers = writeParallelism > 0
                    ? writeParallelism
                    : input.getExecutionEnvironment().getParallelism();
            DynamicSinkSettings settings = new DynamicSinkSettings(
                    cacheMaxSize,
                    cacheRefreshMs,
                    inputSchemasPerTableCacheMaxSize,
                    immediateTableUpdate,
                    dropUnusedColumns,
                    branch,
                    tableCreator,
                    hooks);
            String prefix = uidPrefix == null ? "sluice-dynamic-" + base.target() : uidPrefix;

            SingleOutputStreamOperator<RoutedRow> routed = input.process(
                            new DynamicRouter<>(generator, base, settings, writers), RoutedRowTypeInfo.INSTANCE)
                    .name("Dynamic router: " + base.target())
                    .uid(prefix + "-router");
            DataStream<RoutedRow> pending = routed.getSideOutput(DynamicRouter.PENDING);
            SingleOutputStreamOperator<RoutedRow> updater = JobMode.isBatch(input)
                    ? pending.partitionCustom(new KeyGroupPartitioner(), new TableOf())
                            .process(new TableUpdater.Unkeyed(base, settings, writers), RoutedRowTypeInfo.INSTANCE)
                    : pending.keyBy(new TableOf(), Types.STRING)
                            .process(new TableUpdater(base, settings, writers), RoutedRowTypeInfo.INSTANCE);
            DataStream<RoutedRow> updated =
                    updater.name("Dynamic table updater: " + base.target()).uid(prefix + "-updater");
            CommittableMessageTypeInfo<Committable> committables =
                    (CommittableMessageTypeInfo<Committable>) CommittableMessageTypeInfo.of(CommittableSerializer::new);
            DataStream<CommittableMessage<Committable>> shuffledCommittables = chainAlways(routed.union(updated)
                            .partitionCustom((writer, n) -> writer % n, RoutedRow::writer)
                            .transform(
                                    "Dynamic writer: " + base.target(),
                                    committables,
                                    new DynamicWriterOperator(base, hooks)))
                    .setParallelism(writers)
                    .uid(prefix + "-writer");
            DataStream<CommittableMessage<Committable>> forwardCommittables = chainAlways(
                            routed.getSideOutput(DynamicRouter.FORWARD)
                                    .transform(
                                            "Dynamic forward writer: " + base.target(),
                                            committables,
                                            new DynamicWriterOperator(base, hooks)))
                    .setParallelism(routed.getParallelism())
                    .uid(prefix + "-forward-writer");
            SingleOutputStreamOperator<CommittableMessage<Committable>> aggregated = alignedOnly(
                            shuffledCommittables.union(forwardCommittables).global())
                    .transform(
                            "Dynamic commit: " + base.target(),
                            committables,
                            new CommitAggregator(
                                    base,
                                    (descriptor, jobId, metrics) ->
                                            new DynamicCommitter(descriptor, jobId, metrics, writers)))
                    .setParallelism(1)
                    .setMaxParallelism(1)
                    .uid(prefix + "-commit");
            // forward keeps the end chained behind the aggregator, as it was
            return alignedOnly(aggregated.forward())
                    .sinkTo(new DiscardingSink<>())
                    .setParallelism(1)
                    .name("Dynamic sink: " + base.target())
                    .uid(prefix + "-end");
        }
    }

    /** A pending row's table: what the updater is keyed (or, in BATCH, partitioned) by. */
    private static final class TableOf implements KeySelector<RoutedRow, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(RoutedRow row) {
            return row.target().table();
        }
    }

    /**
     * An exchange of committables that unaligned checkpoints must not use, as Flink's own sink
     * topology refuses them between its writer and committer. The {@link CommitAggregator} counts on
     * a writer's committable of checkpoint n arriving before that checkpoint's barrier, so that it
     * is in the aggregator's snapshot n and committed when n completes; an unaligned barrier
     * overtakes it, and it would sit in the channel's in-flight data instead.
     */
    private static <T> DataStream<T> alignedOnly(DataStream<T> exchange) {
        ((PartitionTransformation<T>) exchange.getTransformation())
                .getPartitioner()
                .disableUnalignedCheckpoints();
        return exchange;
    }

    /**
     * The forward writer runs in the router's task, as upstream's does: forward rows then pass by
     * reference instead of through a serializer and a network buffer. The shuffled writer is behind
     * a custom partitioner, which never chains. Set on the operator's factory (through its
     * transformation), not on the operator: Flink 2 keeps the strategy only there.
     */
    private static <T> SingleOutputStreamOperator<T> chainAlways(SingleOutputStreamOperator<T> writer) {
        ((PhysicalTransformation<T>) writer.getTransformation()).setChainingStrategy(ChainingStrategy.ALWAYS);
        return writer;
    }
}
