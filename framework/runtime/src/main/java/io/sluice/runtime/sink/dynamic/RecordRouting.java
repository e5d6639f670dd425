package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.plugin.PluginLifecycle;
import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.TaskSinkContext;
import io.sluice.runtime.sink.distribution.WriterDistribution;
import io.sluice.spi.distribution.DistributionKey;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.spi.dynamic.DynamicTables;
import io.sluice.spi.dynamic.TableRequest;
import io.sluice.spi.dynamic.TableState;

import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides, for one record, which write target and writer subtask its row goes to, and creates or
 * evolves its table first when allowed to: the routing shared by the router (which may not always
 * update tables) and the table updater (which always may).
 *
 * <p>The writers of a write target are a window of its write parallelism (the record's, at most
 * the sink's) among the sink's writer subtasks, starting at a subtask picked by the target's table
 * and branch, so that tables spread over the writers. Within the window: upserts (and NONE with
 * equality fields) by the hash of the equality fields, so that every version of a key meets one
 * writer; HASH (and RANGE, as upstream) by the target's partition key, else by the equality
 * fields; otherwise round-robin.
 */
final class RecordRouting implements AutoCloseable {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RecordRouting.class);

    /** Per write target: the key and the round-robin position of its rows. */
    private static final class TargetRouting {
        final int offset;

        @Nullable
        final DistributionKey partitionKey;

        @Nullable
        final DistributionKey equalityKey;

        int next;

        TargetRouting(int offset, @Nullable DistributionKey partitionKey, @Nullable DistributionKey equalityKey) {
            this.offset = offset;
            this.partitionKey = partitionKey;
            this.equalityKey = equalityKey;
        }
    }

    private final SinkDescriptor base;
    private final DynamicSinkSettings settings;
    private final DynamicTables tables;
    private final TableCache cache;
    private final TableSinks sinks;
    private final int writers;
    private final String jobId;
    private final int subtask;
    private final MetricGroup metrics;
    private final Map<WriteTarget, TargetRouting> routings = new HashMap<>();
    private PluginLifecycle.Attachment attachment = PluginLifecycle.Attachment.NONE;
    private final Map<TargetKey, WriteTarget> targets = new HashMap<>();
    private long updates;

    RecordRouting(
            SinkDescriptor base,
            DynamicSinkSettings settings,
            DynamicTables tables,
            int writers,
            String jobId,
            int subtask,
            MetricGroup metrics) {
        this.base = base;
        this.settings = settings;
        this.tables = tables;
        this.cache = new TableCache(
                tables,
                settings.cacheMaxSize,
                settings.cacheRefreshMs,
                settings.inputSchemasPerTableCacheMaxSize,
                System::currentTimeMillis);
        this.sinks = new TableSinks(base, tables);
        this.writers = writers;
        this.jobId = jobId;
        this.subtask = subtask;
        this.metrics = metrics;
        if (metrics != null) {
            // how often records' schemas were compared with their tables': what a too small
            // inputSchemasPerTableCacheMaxSize costs
            metrics.gauge("inputSchemaResolutions", (org.apache.flink.metrics.Gauge<Long>) cache::schemaResolutions);
        }
    }

    /**
     * The routing of a task (the router's or the updater's subtask): attached to the plugins and
     * with the target's dynamic tables open until closed.
     */
    static RecordRouting open(SinkDescriptor base, DynamicSinkSettings settings, int writers, RuntimeContext runtime)
            throws IOException {
        PluginLifecycle.Attachment attachment = PluginLifecycle.attach(null);
        try {
            String jobId = runtime.getJobInfo().getJobId().toHexString();
            int subtask = runtime.getTaskInfo().getIndexOfThisSubtask();
            DynamicTables tables = DynamicSink.dynamicTables(
                    base,
                    new TaskSinkContext(
                            base,
                            jobId,
                            subtask,
                            runtime.getTaskInfo().getNumberOfParallelSubtasks(),
                            runtime.getMetricGroup(),
                            base.registry()));
            RecordRouting routing =
                    new RecordRouting(base, settings, tables, writers, jobId, subtask, runtime.getMetricGroup());
            routing.attachment = attachment;
            return routing;
        } catch (IOException | RuntimeException e) {
            attachment.close();
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            tables.close();
        } finally {
            attachment.close();
        }
    }

    /**
     * The routed row of a record, or null if its table must be created or evolved and {@code
     * mayUpdate} is false (the caller hands it to the table updater then).
     *
     * @param mode null: forward
     * @throws IllegalArgumentException for a table, schema or spec the target refuses, naming it
     */
    @Nullable
    RoutedRow route(
            String table,
            @Nullable String recordBranch,
            RowType schema,
            List<String> spec,
            RowData row,
            @Nullable DistributionMode mode,
            int writeParallelism,
            @Nullable Boolean upsert,
            List<String> equalityFields,
            boolean mayUpdate)
            throws IOException {
        String branch = recordBranch != null ? recordBranch : settings.branch;
        TableCache.CachedTable cached = cache.get(table);
        if (cached == null) {
            if (!mayUpdate) {
                return null;
            }
            cached = create(table, schema, spec, equalityFields);
        }
        SchemaResolution resolution = cached.resolve(schema);
        int specId = cached.specId(spec);
        if (resolution == null || specId < 0) {
            if (!mayUpdate) {
                return null;
            }
            cached = update(cached, schema, spec, equalityFields);
            resolution = cached.resolve(schema);
            specId = cached.specId(spec);
            if (resolution == null || specId < 0) {
                throw new IllegalStateException("Table " + table + " did not take schema " + schema + " and spec "
                        + spec + " after an update: it is " + cached.state);
            }
        }
        WriteTarget target = target(table, branch, resolution, specId, spec, upsert, equalityFields);
        RowData written = resolution.conversion().apply(row);
        if (mode == null) {
            return new RoutedRow(target, written, RoutedRow.FORWARD);
        }
        return new RoutedRow(target, written, writer(target, written, mode, writeParallelism));
    }

    private TableCache.CachedTable create(String table, RowType schema, List<String> spec, List<String> equalityFields)
            throws IOException {
        updates++;
        TableState created = tables.create(new TableRequest(
                table,
                schema,
                spec,
                equalityFields,
                settings.tableCreator.properties(table),
                settings.tableCreator.location(table)));
        LOG.info("Dynamic sink of target '{}' created table {}", base.target(), created);
        return cache.put(created);
    }

    private TableCache.CachedTable update(
            TableCache.CachedTable cached, RowType schema, List<String> spec, List<String> equalityFields)
            throws IOException {
        updates++;
        // against the table as it is now: another subtask may have evolved it already
        TableState current = tables.load(cached.state.identifier()).orElse(cached.state);
        TableCache.CachedTable fresh = cache.put(current);
        if (fresh.resolve(schema) != null && fresh.specId(spec) >= 0) {
            return fresh;
        }
        RowType wanted;
        if (current.schemaless()) {
            wanted = schema;
        } else if (fresh.resolve(schema) != null) {
            wanted = current.currentSchema(); // only the spec changes
        } else {
            wanted = SchemaResolution.evolvedSchema(schema, current, settings.dropUnusedColumns);
        }
        TableState updated = tables.update(new TableRequest(
                current.identifier(),
                wanted,
                spec,
                equalityFields,
                settings.tableCreator.properties(current.identifier()),
                null));
        LOG.info("Dynamic sink of target '{}' evolved table {}", base.target(), updated);
        return cache.put(updated);
    }

    private WriteTarget target(
            String table,
            @Nullable String branch,
            SchemaResolution resolution,
            int specId,
            List<String> spec,
            @Nullable Boolean upsert,
            List<String> equalityFields) {
        TargetKey key = new TargetKey(table, branch, resolution, specId, upsert, equalityFields);
        WriteTarget target = targets.get(key);
        if (target == null) {
            if (targets.size() > 10_000) {
                targets.clear();
            }
            target = new WriteTarget(
                    table,
                    branch,
                    resolution.schemaId(),
                    specId,
                    resolution.tableSchema(),
                    spec,
                    upsert,
                    equalityFields);
            targets.put(key, target);
        }
        return target;
    }

    private int writer(WriteTarget target, RowData row, DistributionMode mode, int writeParallelism) {
        TargetRouting routing = routings.get(target);
        if (routing == null) {
            routing = routing(target);
            routings.put(target, routing);
        }
        int parallel = writeParallelism <= 0 ? writers : Math.min(writeParallelism, writers);
        DistributionKey key;
        if (routing.equalityKey != null && (Boolean.TRUE.equals(target.upsert()) || mode == DistributionMode.NONE)) {
            key = routing.equalityKey;
        } else if (mode != DistributionMode.NONE) {
            key = routing.partitionKey != null ? routing.partitionKey : routing.equalityKey;
        } else {
            key = null;
        }
        int slot;
        if (key == null) {
            slot = routing.next;
            routing.next = (routing.next + 1) % parallel;
        } else {
            slot = Math.floorMod(java.util.Arrays.hashCode(key.of(row)), parallel);
        }
        return (routing.offset + slot) % writers;
    }

    private TargetRouting routing(WriteTarget target) {
        int offset = Math.floorMod(target.commitKey().hashCode(), writers);
        DistributionKey partitionKey = null;
        if (!target.spec().isEmpty()) {
            SinkDescriptor table = sinks.descriptor(target);
            partitionKey = WriterDistribution.support(table)
                    .key(new TaskSinkContext(table, jobId, subtask, writers, metrics, table.registry()));
        }
        DistributionKey equalityKey = target.equalityFields().isEmpty()
                ? null
                : DistributionKey.ofColumns(target.rowType(), target.equalityFields());
        return new TargetRouting(offset, partitionKey, equalityKey);
    }

    /** Tables created or evolved by this routing so far. */
    long updates() {
        return updates;
    }

    TableCache cache() {
        return cache;
    }

    /** What makes a write target: the table, branch, resolution (by identity), spec and upsert settings. */
    private static final class TargetKey {
        final String table;

        @Nullable
        final String branch;

        final SchemaResolution resolution;
        final int specId;

        @Nullable
        final Boolean upsert;

        final List<String> equalityFields;

        TargetKey(
                String table,
                @Nullable String branch,
                SchemaResolution resolution,
                int specId,
                @Nullable Boolean upsert,
                List<String> equalityFields) {
            this.table = table;
            this.branch = branch;
            this.resolution = resolution;
            this.specId = specId;
            this.upsert = upsert;
            this.equalityFields = equalityFields;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof TargetKey)) {
                return false;
            }
            TargetKey k = (TargetKey) o;
            return resolution == k.resolution
                    && specId == k.specId
                    && table.equals(k.table)
                    && java.util.Objects.equals(branch, k.branch)
                    && java.util.Objects.equals(upsert, k.upsert)
                    && equalityFields.equals(k.equalityFields);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(table, branch, System.identityHashCode(resolution), specId, upsert) * 31
                    + equalityFields.hashCode();
        }
    }
}
