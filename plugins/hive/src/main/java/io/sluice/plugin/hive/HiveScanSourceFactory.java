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
 * The reading side of the {@code hive} target (issue 12, first step: bounded reads): a table of a
 * hive catalog is read by listing its partitions in the metastore and splitting their files with
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

    /** Upstream's switch of streaming reads; streaming reads are not built yet, so {@code true} is refused. */
    static final ConfigOption<Boolean> STREAMING_SOURCE_ENABLE =
            org.apache.flink.connectors.hive.HiveOptions.STREAMING_SOURCE_ENABLE;

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
        // upstream's read options, which a Hive table's properties may hold (the page's dimension
        // tables): known, so that such a table is read and written; streaming reads and lookup
        // joins that use them come with issue 12
        options.add(STREAMING_SOURCE_ENABLE);
        options.add(org.apache.flink.connectors.hive.HiveOptions.STREAMING_SOURCE_PARTITION_INCLUDE);
        options.add(org.apache.flink.connectors.hive.HiveOptions.STREAMING_SOURCE_MONITOR_INTERVAL);
        options.add(org.apache.flink.connectors.hive.HiveOptions.STREAMING_SOURCE_PARTITION_ORDER);
        options.add(org.apache.flink.connectors.hive.HiveOptions.STREAMING_SOURCE_CONSUME_START_OFFSET);
        options.add(org.apache.flink.connectors.hive.HiveOptions.LOOKUP_JOIN_CACHE_TTL);
        return options;
    }

    @Override
    public void validate(SourceContext context) {
        if (context.options().get(STREAMING_SOURCE_ENABLE)) {
            throw new IllegalArgumentException("'" + STREAMING_SOURCE_ENABLE.key()
                    + "' = 'true': the hive source reads bounded only so far; streaming reads of Hive tables are"
                    + " not available yet");
        }
        HiveTableInfo table = HiveTableInfo.loadWithoutPartitions(context.rawOptions());
        if (!table.partitionKeys.equals(context.partitionKeys())
                && !context.partitionKeys().isEmpty()) {
            throw new IllegalArgumentException("Hive table " + table.path.getFullName() + " is partitioned by "
                    + table.partitionKeys + ", the source by " + context.partitionKeys());
        }
        HiveScanSplitReader.useMapredReader(context);
        HiveReadSettings.jobConf(table.hiveConf, context.jobConfiguration());
        HiveReadSettings.inferMode(context.jobConfiguration());
        HiveReadSettings.inferMax(context.jobConfiguration());
    }

    /** Partition pruning: the conjuncts that pin partition columns ({@link HivePartitionFilters}). */
    @Override
    public Optional<io.sluice.spi.Payload> pushFilters(
            SourceContext context, List<org.apache.flink.table.expressions.ResolvedExpression> filters) {
        return HivePartitionFilters.of(context.partitionKeys(), filters);
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
            splits = HiveScanPlanner.splits(context).size();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return java.util.OptionalInt.of(Math.max(1, Math.min(Math.min(splits, max), upperBound)));
    }

    @Override
    public Optional<Duration> monitorInterval(SourceContext context) {
        return Optional.empty();
    }

    @Override
    public ScanPlanner createPlanner(SourceContext context) throws IOException {
        return new HiveScanPlanner(context);
    }

    @Override
    public ScanSplitReader createReader(SourceContext context) {
        return new HiveScanSplitReader(context);
    }
}
