package io.sluice.plugin.hive;

import io.sluice.spi.partition.CommitPolicy;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.partition.PartitionCommitContext;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.pf4j.Extension;

import javax.annotation.Nullable;

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

    private static final String POLICY_KIND = "sink.partition-commit.policy.kind";

    @Override
    public String identifier() {
        return "metastore";
    }

    @Override
    public CommitPolicy create(SinkContext context) {
        Map<String, String> raw = context.rawOptions();
        String target = raw.getOrDefault("target", "?");
        if (!raw.containsKey(HiveTargetOptions.CATALOG_DATABASE.key()) && !target.contains("hive")) {
            // a table of another target (the filesystem's, say) has no metastore to add partitions
            // to: say so, with the policies such a table can use, as upstream's filesystem connector
            throw new IllegalArgumentException("Invalid '" + POLICY_KIND + "' '" + raw.get(POLICY_KIND)
                    + "': target '" + target + "' has no metastore, so policy 'metastore' has nothing to add its"
                    + " partitions to; its tables commit partitions with 'success-file' or 'custom' (a class in '"
                    + POLICY_KIND.replace(".kind", ".class") + "'), and a metastore's are Hive tables of a hive"
                    + " catalog");
        }
        boolean statistics = HiveStatistics.enabled(context);
        return new MetastoreCommitPolicy(
                new HashMap<>(context.rawOptions()), statistics, statistics ? HiveStatistics.threads(context) : 1);
    }

    /**
     * One metastore connection for all the partitions it commits, opened with the first and kept
     * until the framework closes the policy: opening a catalog per partition (a metastore client, a
     * HiveConf) cost more than the partition's commit. A commit that fails drops the connection; one
     * that failed on a kept connection is tried once more on a new one.
     */
    private static final class MetastoreCommitPolicy implements CommitPolicy {
        private final Map<String, String> options;
        private final ObjectPath path;
        private final boolean statistics;
        private final int threads;

        @Nullable
        private SluiceHiveCatalog catalog;

        @Nullable
        private HiveTableInfo table; // for statistics only: the table's format and HiveConf

        MetastoreCommitPolicy(Map<String, String> options, boolean statistics, int threads) {
            this.options = options;
            this.path = HiveTargetOptions.tablePath(options);
            this.statistics = statistics;
            this.threads = threads;
        }

        @Override
        public void commit(PartitionCommitContext partition) throws Exception {
            if (partition.partitionSpec().isEmpty()) {
                return; // an unpartitioned table: its files are visible without the metastore
            }
            boolean kept = catalog != null;
            try {
                add(partition);
            } catch (Exception | Error e) {
                closeCatalog(e);
                if (!kept || !(e instanceof CatalogException)) {
                    throw e;
                }
                // a kept connection may have gone stale (the metastore restarted): once more on a
                // new one, whose opening names the metastore if it cannot be reached
                try {
                    add(partition);
                } catch (Exception | Error again) {
                    closeCatalog(again);
                    again.addSuppressed(e);
                    throw again;
                }
            }
        }

        private void add(PartitionCommitContext partition) throws Exception {
            SluiceHiveCatalog metastore = catalog();
            CatalogPartitionSpec spec = new CatalogPartitionSpec(partition.partitionSpec());
            if (metastore.partitionExists(path, spec)) {
                return;
            }
            metastore.createPartition(
                    path,
                    spec,
                    new LocatedPartition(partition.partitionLocation().toString()),
                    true);
            if (statistics) {
                // the target's committer found no partition to set them on
                if (table == null) {
                    // without the partitions' locations: a new partition's name is its directory's
                    table = HiveTableInfo.loadWithoutPartitions(options);
                }
                Map<org.apache.flink.core.fs.Path, Map<String, String>> stats = HiveStatistics.gather(
                        List.of(partition.partitionLocation()), table.format(), threads, table.hiveConf);
                HiveStatistics.write(
                        table.hiveConf,
                        path,
                        table.partitionName(partition.partitionLocation()),
                        stats.get(partition.partitionLocation()));
            }
        }

        private SluiceHiveCatalog catalog() {
            if (catalog == null) {
                SluiceHiveCatalog opened = HiveCatalogs.create(
                        options.getOrDefault(HiveTargetOptions.CATALOG_NAME.key(), "hive"),
                        HiveCatalogs.catalogOptions(options));
                opened.open();
                catalog = opened;
            }
            return catalog;
        }

        private void closeCatalog(Throwable failure) {
            try {
                close();
            } catch (Exception e) {
                failure.addSuppressed(e);
            }
        }

        @Override
        public void close() {
            SluiceHiveCatalog open = catalog;
            catalog = null;
            table = null;
            if (open != null) {
                open.close();
            }
        }
    }
}
