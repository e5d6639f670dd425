package io.sluice.plugin.hive;

import io.sluice.spi.Payload;
import io.sluice.spi.source.PlannedSplit;
import io.sluice.spi.source.ScanPlan;
import io.sluice.spi.source.ScanPlanner;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.connectors.hive.HiveSourceFileEnumerator;
import org.apache.flink.connectors.hive.HiveSourceSplitSerializer;
import org.apache.flink.connectors.hive.HiveTablePartition;
import org.apache.flink.connectors.hive.read.HiveSourceSplit;
import org.apache.flink.connectors.hive.util.HivePartitionUtils;
import org.apache.hadoop.mapred.JobConf;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans a bounded read (and the one load of a temporal join: the whole table, or with {@code
 * streaming-source.partition.include = latest} the latest partition): the partitions the planner
 * kept when it pruned them with the query's filters ({@link HivePartitionListing}), else every
 * partition the metastore lists (the table itself when it has none), in both cases those the
 * pushed partition filters allow ({@link HivePartitionFilters}),
 * split by upstream's enumerator for the source's readers (file splits of at most {@code
 * table.exec.hive.split-max-size}, fewer when {@code table.exec.hive.file-open-cost} says a split
 * per reader costs more to open than to read; upstream's defaults). Each split travels as upstream's serialized {@link HiveSourceSplit}.
 */
final class HiveScanPlanner implements ScanPlanner {

    /** The position of a bounded read after its one plan: nothing is planned after it. */
    private static final Payload DONE = new Payload(1, new byte[] {1});

    private final SourceContext context;

    HiveScanPlanner(SourceContext context) {
        this.context = context;
    }

    @Override
    public ScanPlan plan(Payload position) throws IOException {
        if (position != null) {
            return new ScanPlan(List.of(), position);
        }
        HiveStreamingRead read = HiveStreamingRead.of(context);
        List<HiveSourceSplit> splits =
                context.lookup() && read.latest ? HiveStreamingPlanner.latest(context, read) : splits(context);
        return new ScanPlan(planned(splits), DONE);
    }

    /** Upstream's splits as the framework hands them out: serialized, described by file and range. */
    static List<PlannedSplit> planned(List<HiveSourceSplit> splits) throws IOException {
        List<PlannedSplit> planned = new ArrayList<>(splits.size());
        for (HiveSourceSplit split : splits) {
            planned.add(new PlannedSplit(
                    split.path() + " [" + split.offset() + ", +" + split.length() + ")",
                    new Payload(
                            HiveSourceSplitSerializer.INSTANCE.getVersion(),
                            HiveSourceSplitSerializer.INSTANCE.serialize(split))));
        }
        return planned;
    }

    /** The splits of a bounded read of the source's table, as {@link #plan} hands them out. */
    static List<HiveSourceSplit> splits(SourceContext context) throws IOException {
        return splits(context, false);
    }

    /**
     * The splits of a bounded read; {@code forInference} plans them as upstream does to infer the
     * source's parallelism: for ORC, splits no larger than the table's size (with {@code
     * table.exec.hive.file-open-cost} per file) divided by {@code
     * table.exec.hive.infer-source-parallelism.max}, and no smaller than the open cost. The read
     * itself plans them, as upstream's enumerator, for the readers that share them ({@link
     * SourceContext#readers}, one when the framework does not say): for ORC, at most {@code
     * table.exec.hive.split-max-size} and the table's size (open costs included) over the readers,
     * but no smaller than the open cost; other formats ask their input format for at least that
     * many splits.
     */
    static List<HiveSourceSplit> splits(SourceContext context, boolean forInference) throws IOException {
        HiveTableInfo table;
        try {
            table = HiveTableInfo.loadWithoutPartitions(context.rawOptions());
        } catch (RuntimeException e) {
            throw new IOException(e.getMessage(), e);
        }
        JobConf jobConf;
        try {
            jobConf = HiveReadSettings.jobConf(table.hiveConf, context.jobConfiguration());
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
        List<HiveSourceSplit> splits;
        try {
            // the planner's pruning kept some partitions: fetch those by name, not all of them
            List<HiveTablePartition> partitions = context.partitions().isPresent()
                    ? HivePartitionListing.fetch(context, context.partitions().get())
                    : HivePartitionUtils.getAllPartitions(
                            jobConf,
                            org.apache.flink.table.catalog.hive.client.HiveShimLoader.getHiveVersion(),
                            table.path,
                            table.partitionKeys,
                            null);
            if (context.pushedFilters().isPresent()) {
                HivePartitionFilters filters =
                        HivePartitionFilters.read(context.pushedFilters().get());
                partitions.removeIf(p -> !filters.matches(p.getPartitionSpec()));
            }
            int readers = forInference ? 0 : context.readers().orElse(1);
            splits = HiveSourceFileEnumerator.createInputSplits(readers, partitions, jobConf, forInference);
        } catch (RuntimeException e) {
            throw new IOException("Cannot plan a read of Hive table " + table.path.getFullName() + ": " + e, e);
        }
        return splits;
    }

    @Override
    public void close() {}
}
