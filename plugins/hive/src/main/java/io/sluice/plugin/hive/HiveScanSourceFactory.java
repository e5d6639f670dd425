package io.sluice.plugin.hive;

import io.sluice.spi.source.ScanPlanner;
import io.sluice.spi.source.ScanSourceFactory;
import io.sluice.spi.source.ScanSplitReader;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.pf4j.Extension;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The reading side of the {@code hive} target: bounded and streaming reads ({@link
 * HiveStreamingRead}) and the loads of temporal joins. A table of a hive catalog is read by listing its partitions in the metastore and splitting their files with
 * upstream's {@code HiveSourceFileEnumerator}, and each split is read by upstream's {@code
 * HiveInputFormat}: Flink's vectorized Parquet and ORC readers, or Hive's own mapred record
 * readers and the table's SerDe (TextFile, SequenceFile, and Parquet/ORC with {@code
 * table.exec.hive.fallback-mapred-reader}). Partition columns come from the partitions.
 */
@Extension
public final class HiveScanSourceFactory implements ScanSourceFactory {

    /** Job configuration, as upstream: Hive's mapred readers instead of Flink's vectorized ones. */
    static final ConfigOption<Boolean> FALLBACK_MAPRED_READER = ConfigOptions.key(
                    "table.exec.hive.fallback-mapred-reader")
            .booleanType()
            .defaultValue(false)
            .withDescription("Read Parquet and ORC with Hive's mapred record readers instead of the vectorized ones");

    @Override
    public String identifier() {
        return "hive";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return new LinkedHashSet<>(List.of(HiveTargetOptions.CATALOG_DATABASE, HiveTargetOptions.CATALOG_TABLE));
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new LinkedHashSet<>(HiveCatalogOptions.ALL);
        options.add(HiveTargetOptions.CATALOG_NAME);
        // upstream's read options, which a Hive table's properties may hold (the page's dimension tables)
        options.add(HiveStreamingRead.ENABLE);
        options.add(HiveStreamingRead.PARTITION_INCLUDE);
        options.add(HiveStreamingRead.MONITOR_INTERVAL);
        options.add(HiveStreamingRead.PARTITION_ORDER);
        options.add(HiveStreamingRead.CONSUME_START_OFFSET);
        options.add(HiveStreamingRead.LOOKUP_JOIN_CACHE_TTL);
        options.add(HiveStreamingRead.MONITOR_LOOKBACK);
        return options;
    }

    @Override
    public void validate(SourceContext context) {
        HiveStreamingRead read = HiveStreamingRead.of(context);
        HiveTableInfo table = HiveTableInfo.loadWithoutPartitions(context.rawOptions());
        if (!table.partitionKeys.equals(context.partitionKeys())
                && !context.partitionKeys().isEmpty()) {
            throw new IllegalArgumentException("Hive table " + table.path.getFullName() + " is partitioned by "
                    + table.partitionKeys + ", the source by " + context.partitionKeys());
        }
        read.checkTable(table.path.getFullName(), table.partitionKeys);
        HiveScanSplitReader.useMapredReader(context);
        HiveReadSettings.jobConf(table.hiveConf, context.jobConfiguration());
        HiveReadSettings.inferMode(context.jobConfiguration());
        HiveReadSettings.inferMax(context.jobConfiguration());
    }

    /**
     * The conjuncts that compare partition columns with literals ({@link HivePartitionFilters}):
     * how a streaming read skips new partitions that cannot match.
     */
    @Override
    public Optional<io.sluice.spi.Payload> pushFilters(
            SourceContext context, List<org.apache.flink.table.expressions.ResolvedExpression> filters) {
        return HivePartitionFilters.of(context.partitionKeys(), filters);
    }

    /**
     * A bounded read takes the partitions the planner keeps, which it prunes with any filter on
     * partition columns, as upstream's Hive source; a streaming read does not (its partitions come
     * later), and prunes new partitions with the pushed filters ({@link HivePartitionFilters}).
     */
    @Override
    public boolean prunesPartitions(SourceContext context) {
        return !HiveStreamingRead.of(context).enabled;
    }

    /**
     * A table of a hive catalog whose partition columns are all strings has its partitions listed
     * by the catalog, with the query's filters: equalities are evaluated by the metastore
     * ({@code SluiceHiveCatalog#listPartitionsByFilter}). Its listing gives Hive's default
     * partition by name, which is what a string column of its rows reads; in a column of another
     * type a row reads NULL, so such a table is listed here ({@link #listPartitions}).
     */
    @Override
    public boolean catalogListsPartitions(SourceContext context) {
        for (String key : context.partitionKeys()) {
            int index = context.rowType().getFieldNames().indexOf(key);
            if (index < 0
                    || context.rowType().getTypeAt(index).getTypeRoot()
                            != org.apache.flink.table.types.logical.LogicalTypeRoot.VARCHAR) {
                return false;
            }
        }
        return true;
    }

    /** The metastore's partition names, as values ({@link HivePartitionListing}). */
    @Override
    public java.util.List<java.util.Map<String, String>> listPartitions(SourceContext context) throws IOException {
        return HivePartitionListing.list(context);
    }

    /**
     * Upstream's parallelism inference: {@code table.exec.hive.infer-source-parallelism.mode}
     * ({@code dynamic} by default: asked by the adaptive batch scheduler; {@code static}: fixed
     * in the plan; {@code none}; the deprecated {@code table.exec.hive.infer-source-parallelism}
     * = false is {@code none} too), the number of splits, at most {@code
     * table.exec.hive.infer-source-parallelism.max} (1000) and at least 1.
     */
    @Override
    public java.util.OptionalInt inferParallelism(SourceContext context, int upperBound, boolean atRuntime) {
        org.apache.flink.connectors.hive.HiveOptions.InferMode mode =
                HiveReadSettings.inferMode(context.jobConfiguration());
        boolean asked = atRuntime
                ? mode == org.apache.flink.connectors.hive.HiveOptions.InferMode.DYNAMIC
                : mode == org.apache.flink.connectors.hive.HiveOptions.InferMode.STATIC;
        if (!asked) {
            return java.util.OptionalInt.empty();
        }
        int max = HiveReadSettings.inferMax(context.jobConfiguration());
        int splits;
        try {
            splits = HiveScanPlanner.splits(context, true).size();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return java.util.OptionalInt.of(Math.max(1, Math.min(Math.min(splits, max), upperBound)));
    }

    /** A streaming read ({@code streaming-source.enable}) plans every {@code streaming-source.monitor-interval}. */
    @Override
    public Optional<Duration> monitorInterval(SourceContext context) {
        return context.lookup()
                ? Optional.empty()
                : HiveStreamingRead.of(context).scanInterval();
    }

    /**
     * A temporal join looks for the latest partition every {@code streaming-source.monitor-interval}
     * (60 min by default) and reads a bounded table again after {@code lookup.join.cache.ttl}.
     */
    @Override
    public Optional<Duration> lookupReloadInterval(SourceContext context) {
        return Optional.of(HiveStreamingRead.of(context).lookupReloadInterval());
    }

    @Override
    public ScanPlanner createPlanner(SourceContext context) throws IOException {
        HiveStreamingRead read = HiveStreamingRead.of(context);
        if (context.lookup() || !read.enabled) {
            return new HiveScanPlanner(context);
        }
        if (read.latest) {
            // the client could not tell a scan from a temporal join when it checked the options
            throw new IllegalArgumentException("'" + HiveStreamingRead.PARTITION_INCLUDE.key() + "' = 'latest' is"
                    + " for temporal joins (FOR SYSTEM_TIME AS OF a processing time) only: a streaming read of the"
                    + " table takes 'all'");
        }
        return new HiveStreamingPlanner(context, read);
    }

    @Override
    public ScanSplitReader createReader(SourceContext context) {
        return new HiveScanSplitReader(context);
    }
}
