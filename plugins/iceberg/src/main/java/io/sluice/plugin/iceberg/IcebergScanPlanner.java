package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.source.ScanPlan;
import io.sluice.spi.source.ScanPlanner;

import org.apache.iceberg.flink.source.FlinkSplitPlanner;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;
import org.apache.iceberg.util.ThreadPools;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * Plans a bounded read: one scan of the table by upstream's {@link FlinkSplitPlanner} (the
 * snapshot, tag, branch, time or range of snapshots the options name; the current snapshot
 * otherwise). Its position only records that the scan is planned: given back, it plans nothing.
 */
final class IcebergScanPlanner implements ScanPlanner {

    /**
     * Version of the position of a planned bounded read. Apart from the versions of the
     * continuous planner's positions (upstream's, from 1), so that neither planner mistakes the
     * other's position for its own when a read's {@code streaming} option changes across a restore.
     */
    static final int PLANNED_VERSION = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(IcebergScanPlanner.class);

    private final CatalogTable table;
    private final ReadSettings settings;
    private final ScanSplits splits;

    /** @param table the table to scan, closed with this planner */
    IcebergScanPlanner(CatalogTable table, ReadSettings settings) {
        this.table = table;
        this.settings = settings;
        this.splits = new ScanSplits(settings.caseSensitive());
    }

    @Override
    public ScanPlan plan(@Nullable Payload position) throws IOException {
        if (position != null) {
            if (position.version() != PLANNED_VERSION) {
                throw new IOException("Cannot continue a bounded read of Iceberg table '" + settings.tableName()
                        + "' from a position of version " + position.version()
                        + ": it was written by a streaming read ('"
                        + IcebergReadOptions.STREAMING.key() + "' = true)");
            }
            return new ScanPlan(Collections.emptyList(), position);
        }
        // a pool of its own, as upstream's source plans: 'table.exec.iceberg.worker-pool-size' threads
        ExecutorService workers = ThreadPools.newFixedThreadPool(
                "sluice-iceberg-plan-" + settings.tableName(),
                settings.scanContext().planParallelism());
        try {
            table.table().refresh();
            List<IcebergSourceSplit> planned =
                    FlinkSplitPlanner.planIcebergSourceSplits(table.table(), settings.scanContext(), workers);
            LOG.info("Planned {} splits of Iceberg table {}", planned.size(), settings.tableName());
            return new ScanPlan(splits.toPlanned(planned), new Payload(PLANNED_VERSION, new byte[0]));
        } catch (RuntimeException e) {
            throw new IOException("Cannot plan the scan of Iceberg table '" + settings.tableName() + "': " + e, e);
        } finally {
            workers.shutdown();
        }
    }

    @Override
    public void close() throws IOException {
        table.close();
    }
}
