package io.sluice.runtime.sink;

import io.sluice.runtime.adapt.RowAdapter;
import io.sluice.runtime.config.HadoopTablePath;
import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.PluginSettings;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.ConfigurationUtils;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Appends a stream to a table of a catalog-backed target such as Iceberg, with the builder methods
 * of Iceberg's {@code FlinkSink}: {@code forRowData(input)}, the catalog and table instead of a
 * table loader, {@code overwrite}, {@code upsert}, {@code equalityFieldColumns}, {@code toBranch},
 * {@code set}/{@code setAll}, {@code writeParallelism}, {@code uidPrefix}, {@code
 * snapshotProperties}, then {@code append()}. Every choice becomes the option of the same name the
 * SQL connector takes, so it is checked against the target as {@code CREATE TABLE} is.
 *
 * <pre>{@code
 * TableSinkBuilder.forRowData(rows)
 *     .target("iceberg")
 *     .catalog(Map.of("catalog-type", "hadoop", "warehouse", "s3://bucket/warehouse"))
 *     .table("db", "events")
 *     .upsert(true).equalityFieldColumns(List.of("id"))
 *     .writeParallelism(4).uidPrefix("events")
 *     .append();
 * }</pre>
 *
 * <p>Records of other types go through a {@link RowAdapter} ({@link #forAdapted}): Avro {@code
 * GenericRecord}s convert to rows with the job's own Avro, so the target's Avro never meets them.
 *
 * @param <T> the type of the input records
 */
public final class TableSinkBuilder<T> {

    /** The option of snapshot summary properties every commit adds (a Flink map: {@code k1:v1,k2:v2}). */
    public static final String SNAPSHOT_PROPERTIES = "snapshot-properties";

    private final DataStream<T> input;
    private final RowAdapter<T> adapter; // null: the input is RowData
    private final Map<String, String> options = new LinkedHashMap<>();
    private final List<String> equalityFields = new ArrayList<>();
    private String target;
    private RowType rowType;
    private boolean overwrite;
    private int writeParallelism = -1;
    private String uidPrefix;

    private TableSinkBuilder(DataStream<T> input, RowAdapter<T> adapter) {
        this.input = input;
        this.adapter = adapter;
    }

    /** A stream of rows; their type comes from the stream ({@code InternalTypeInfo}) or {@link #tableSchema}. */
    public static TableSinkBuilder<RowData> forRowData(DataStream<RowData> input) {
        return new TableSinkBuilder<>(input, null);
    }

    /** A stream of other records, converted to rows by {@code adapter} (see {@code RowAdapters}, {@code AvroAdapters}). */
    public static <T> TableSinkBuilder<T> forAdapted(DataStream<T> input, RowAdapter<T> adapter) {
        return new TableSinkBuilder<>(input, adapter);
    }

    /** The target, e.g. {@code iceberg}. */
    public TableSinkBuilder<T> target(String target) {
        this.target = target;
        return this;
    }

    /** The catalog's properties, as {@code CREATE CATALOG} takes them ({@code catalog-type}, {@code warehouse}, {@code uri} ...). */
    public TableSinkBuilder<T> catalog(Map<String, String> catalogProperties) {
        options.putAll(catalogProperties);
        return this;
    }

    /** The table to write. */
    public TableSinkBuilder<T> table(String database, String table) {
        options.put("catalog-database", database);
        options.put("catalog-table", table);
        return this;
    }

    /**
     * The table at a directory, as Iceberg's {@code TableLoader.fromHadoopTable(location)} names
     * it: a {@code hadoop} catalog whose warehouse is two levels up (instead of {@link #catalog}
     * and {@link #table}); see {@link HadoopTablePath}.
     */
    public TableSinkBuilder<T> tablePath(String location) {
        options.putAll(HadoopTablePath.options(location));
        return this;
    }

    /** The row type of a {@code RowData} stream whose type information does not carry it. */
    public TableSinkBuilder<T> tableSchema(RowType type) {
        this.rowType = type;
        return this;
    }

    /** Replaces what the data overwrites (bounded input, BATCH only). */
    public TableSinkBuilder<T> overwrite(boolean enabled) {
        this.overwrite = enabled;
        return this;
    }

    /** Upserts by the equality fields instead of appending (option {@code upsert-enabled}). */
    public TableSinkBuilder<T> upsert(boolean enabled) {
        return set("upsert-enabled", String.valueOf(enabled));
    }

    /** The columns that identify a row for upserts and deletes. */
    public TableSinkBuilder<T> equalityFieldColumns(List<String> columns) {
        equalityFields.clear();
        equalityFields.addAll(columns);
        return this;
    }

    /** Commits to a branch of the table instead of its main branch (option {@code branch}). */
    public TableSinkBuilder<T> toBranch(String branch) {
        return set("branch", branch);
    }

    /** How rows reach the writers (option {@code distribution-mode}); the table's by default. */
    public TableSinkBuilder<T> distributionMode(io.sluice.spi.distribution.DistributionMode mode) {
        return set(
                io.sluice.runtime.config.SluiceOptions.DISTRIBUTION_MODE.key(),
                io.sluice.runtime.sink.distribution.WriterDistribution.name(mode));
    }

    /** The traffic statistics of {@code range} (option {@code range-distribution-statistics-type}). */
    public TableSinkBuilder<T> rangeDistributionStatisticsType(
            io.sluice.runtime.sink.distribution.StatisticsType type) {
        return set(io.sluice.runtime.config.SluiceOptions.RANGE_DISTRIBUTION_STATISTICS_TYPE.key(), type.optionValue());
    }

    /** The least weight of a sort key under {@code range} with Map statistics, in [0, 1). */
    public TableSinkBuilder<T> rangeDistributionSortKeyBaseWeight(double weight) {
        return set(
                io.sluice.runtime.config.SluiceOptions.RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT.key(),
                String.valueOf(weight));
    }

    /** Any write option of the target (e.g. {@code write-format}, {@code target-file-size-bytes}). */
    public TableSinkBuilder<T> set(String key, String value) {
        options.put(key, value);
        return this;
    }

    public TableSinkBuilder<T> setAll(Map<String, String> more) {
        options.putAll(more);
        return this;
    }

    /** Properties every commit adds to the snapshot summary. */
    public TableSinkBuilder<T> snapshotProperties(Map<String, String> properties) {
        return set(SNAPSHOT_PROPERTIES, ConfigurationUtils.convertValue(properties, String.class));
    }

    public TableSinkBuilder<T> writeParallelism(int parallelism) {
        this.writeParallelism = parallelism;
        return this;
    }

    /** Prefix of the uids of the operators this adds ({@code <prefix>-adapter}, {@code <prefix>-sink}). */
    public TableSinkBuilder<T> uidPrefix(String prefix) {
        this.uidPrefix = prefix;
        return this;
    }

    /** The plugins directory (else the system property or environment variable). */
    public TableSinkBuilder<T> pluginsDir(Path dir) {
        return set(PluginSettings.PLUGINS_DIR, dir.toAbsolutePath().toString());
    }

    /**
     * Checks the options against the target and adds the sink to the stream.
     *
     * @throws IllegalArgumentException for a missing target or row type, unknown options, invalid values
     */
    @SuppressWarnings("unchecked")
    public DataStreamSink<RowData> append() {
        if (target == null) {
            throw new IllegalArgumentException("No target: call target(...), e.g. target(\"iceberg\")");
        }
        DataStream<RowData> rows;
        RowType type;
        if (adapter != null) {
            SingleOutputStreamOperator<RowData> adapted = adapter.apply(input);
            if (uidPrefix != null) {
                adapted.uid(uidPrefix + "-adapter");
            }
            rows = adapted;
            type = adapter.rowType();
        } else {
            rows = (DataStream<RowData>) input;
            type = rowType != null ? rowType : rowTypeOf(rows.getType());
        }
        // the sink routes all versions of a key to one writer (SluiceSink#addPreWriteTopology)
        SluiceSinkBuilder builder = SluiceSink.forRowData(type)
                .withTarget(target)
                .withOptions(options)
                .withPrimaryKey(equalityFields.toArray(new String[0]))
                .withOverwrite(overwrite)
                .withJobConfiguration(
                        rows.getExecutionEnvironment().getConfiguration().toMap());
        if (writeParallelism > 0) {
            builder.withOption(SluiceOptions.SINK_PARALLELISM.key(), String.valueOf(writeParallelism));
        }
        DataStreamSink<RowData> sink = rows.sinkTo(builder.build()).name("Sluice " + target + " sink");
        if (writeParallelism > 0) {
            sink.setParallelism(writeParallelism);
        }
        if (uidPrefix != null) {
            sink.uid(uidPrefix + "-sink");
        }
        return sink;
    }

    private static RowType rowTypeOf(TypeInformation<RowData> type) {
        if (type instanceof InternalTypeInfo && ((InternalTypeInfo<?>) type).toLogicalType() instanceof RowType) {
            return (RowType) ((InternalTypeInfo<?>) type).toLogicalType();
        }
        throw new IllegalArgumentException(
                "The input's type " + type + " does not say its columns: give them with" + " tableSchema(RowType)");
    }
}
