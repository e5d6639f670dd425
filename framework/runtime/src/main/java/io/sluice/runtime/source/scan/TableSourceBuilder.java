package io.sluice.runtime.source.scan;

import io.sluice.runtime.config.Durations;
import io.sluice.runtime.config.HadoopTablePath;
import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.spi.source.ScanSourceFactory;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads a table of a catalog-backed target such as Iceberg, with the builder methods of Iceberg's
 * {@code IcebergSource}: the catalog and table instead of a table loader, {@code streaming},
 * {@code monitorInterval}, {@code streamingStartingStrategy}, {@code startSnapshotId}, {@code
 * set}/{@code setAll}, then {@link #build()}. Every choice becomes the read option of the same name
 * the SQL connector takes, checked against the target as a {@code SELECT} is.
 *
 * <pre>{@code
 * ScanSource source = TableSourceBuilder.forRowData()
 *     .target("iceberg")
 *     .catalog(Map.of("catalog-type", "hadoop", "warehouse", "s3://bucket/warehouse"))
 *     .table("db", "events")
 *     .tableSchema(rowType)                 // optional: all columns when left out
 *     .streaming(true)
 *     .streamingStartingStrategy("INCREMENTAL_FROM_SNAPSHOT_ID")
 *     .startSnapshotId(3821550127947089987L)
 *     .monitorInterval(Duration.ofSeconds(10))
 *     .build();
 * env.fromSource(source, WatermarkStrategy.noWatermarks(), "events");
 * }</pre>
 */
public final class TableSourceBuilder {

    private final Map<String, String> options = new LinkedHashMap<>();
    private final Map<String, String> jobConfiguration = new LinkedHashMap<>();
    private RowType rowType;

    private TableSourceBuilder() {}

    /** Starts a builder for a source of {@link RowData}. */
    public static TableSourceBuilder forRowData() {
        return new TableSourceBuilder();
    }

    /** The target whose table is read, e.g. {@code iceberg}. */
    public TableSourceBuilder target(String target) {
        return set(SluiceOptions.TARGET.key(), target);
    }

    /** The catalog's properties ({@code catalog-type}, {@code warehouse}, {@code uri}, ...). */
    public TableSourceBuilder catalog(Map<String, String> catalogProperties) {
        return setAll(catalogProperties);
    }

    /** The table to read. */
    public TableSourceBuilder table(String database, String table) {
        set("catalog-database", database);
        return set("catalog-table", table);
    }

    /**
     * The table at a directory, as Iceberg's {@code TableLoader.fromHadoopTable(location)} names
     * it (instead of {@link #catalog} and {@link #table}); see {@link HadoopTablePath}.
     */
    public TableSourceBuilder tablePath(String location) {
        return setAll(HadoopTablePath.options(location));
    }

    /** The columns to read, by name, in the order the rows have them; all of the table's when not called. */
    public TableSourceBuilder tableSchema(RowType type) {
        this.rowType = type;
        return this;
    }

    /** Whether to read continuously ({@code streaming}). */
    public TableSourceBuilder streaming(boolean streaming) {
        return set("streaming", String.valueOf(streaming));
    }

    /** How often a continuous read looks for new snapshots ({@code monitor-interval}). */
    public TableSourceBuilder monitorInterval(Duration interval) {
        return set("monitor-interval", Durations.asOptionValue("monitor-interval", interval));
    }

    /** Where a continuous read starts ({@code starting-strategy}), e.g. {@code INCREMENTAL_FROM_LATEST_SNAPSHOT}. */
    public TableSourceBuilder streamingStartingStrategy(String strategy) {
        return set("starting-strategy", strategy);
    }

    /** The snapshot a read starts after ({@code start-snapshot-id}). */
    public TableSourceBuilder startSnapshotId(long snapshotId) {
        return set("start-snapshot-id", String.valueOf(snapshotId));
    }

    /** Any read option by name. */
    public TableSourceBuilder set(String key, String value) {
        options.put(key, value);
        return this;
    }

    public TableSourceBuilder setAll(Map<String, String> more) {
        options.putAll(more);
        return this;
    }

    /** The job's configuration, where read options are looked for after the builder's own. */
    public TableSourceBuilder withJobConfiguration(Map<String, String> configuration) {
        jobConfiguration.putAll(configuration);
        return this;
    }

    /** The plugins directory (else the system property or environment variable). */
    public TableSourceBuilder pluginsDir(Path dir) {
        return set(PluginSettings.PLUGINS_DIR, dir.toAbsolutePath().toString());
    }

    /**
     * Checks the options against the target's scan source and builds the source.
     *
     * @throws IllegalArgumentException for a missing target, a target that cannot be read by
     *     scans, unknown options or invalid values
     */
    public ScanSource build() {
        RowType columns = rowType != null ? rowType : tableRowType(options);
        return new ScanSource(ScanSourcePlanner.plan(options, columns, Collections.emptyList(), jobConfiguration));
    }

    /** Builds the source and adds it to the environment, with the environment's configuration. */
    public DataStreamSource<RowData> addTo(StreamExecutionEnvironment env, String name) {
        jobConfiguration.putAll(env.getConfiguration().toMap());
        return env.fromSource(build(), WatermarkStrategy.noWatermarks(), name);
    }

    /** Every column of the table the options name, as the target's scan source reports it. */
    private static RowType tableRowType(Map<String, String> options) {
        String target = options.get(SluiceOptions.TARGET.key());
        if (target == null) {
            throw new IllegalArgumentException("No target: call target(...), e.g. target(\"iceberg\")");
        }
        PluginRegistry registry = PluginRegistry.get(PluginSettings.fromOptions(options));
        return registry.find(ScanSourceFactory.class, target)
                .tableRowType(Configuration.fromMap(options))
                .orElseThrow(() -> new IllegalArgumentException("Target '" + target
                        + "' cannot tell the table's columns: call tableSchema(...) with the columns to read"));
    }
}
