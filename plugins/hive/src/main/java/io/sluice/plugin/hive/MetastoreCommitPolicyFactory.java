package io.sluice.plugin.hive;

import io.sluice.spi.partition.CommitPolicy;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.pf4j.Extension;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code sink.partition-commit.policy.kind} = {@code metastore}: adds a finished partition to the
 * Hive metastore, at the location the target's committer wrote it to. Idempotent: a partition the
 * metastore has already (from an earlier commit, a retry, or someone else) is left as it is.
 */
@Extension
public final class MetastoreCommitPolicyFactory implements CommitPolicyFactory {

    @Override
    public String identifier() {
        return "metastore";
    }

    @Override
    public CommitPolicy create(SinkContext context) {
        Map<String, String> options = new HashMap<>(context.rawOptions());
        ObjectPath path = HiveTargetOptions.tablePath(options);
        boolean statistics = HiveStatistics.enabled(context);
        int threads = statistics ? HiveStatistics.threads(context) : 1;
        return partition -> {
            if (partition.partitionSpec().isEmpty()) {
                return; // an unpartitioned table: its files are visible without the metastore
            }
            SluiceHiveCatalog catalog = HiveCatalogs.create(
                    options.getOrDefault(HiveTargetOptions.CATALOG_NAME.key(), "hive"),
                    HiveCatalogs.catalogOptions(options));
            catalog.open();
            try {
                CatalogPartitionSpec spec = new CatalogPartitionSpec(partition.partitionSpec());
                if (!catalog.partitionExists(path, spec)) {
                    catalog.createPartition(
                            path,
                            spec,
                            new LocatedPartition(partition.partitionLocation().toString()),
                            true);
                    if (statistics) {
                        // the target's committer found no partition to set them on
                        HiveTableInfo table = HiveTableInfo.load(options);
                        Map<org.apache.flink.core.fs.Path, Map<String, String>> stats =
                                HiveStatistics.gather(List.of(partition.partitionLocation()), table.format(), threads);
                        HiveStatistics.write(
                                table.hiveConf,
                                path,
                                table.partitionName(partition.partitionLocation()),
                                stats.get(partition.partitionLocation()));
                    }
                }
            } finally {
                catalog.close();
            }
        };
    }
}
