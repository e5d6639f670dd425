package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.source.ScanPlan;
import io.sluice.spi.source.ScanPlanner;

import org.apache.iceberg.flink.source.enumerator.ContinuousSplitPlanner;
import org.apache.iceberg.flink.source.enumerator.ContinuousSplitPlannerImpl;
import org.apache.iceberg.flink.source.enumerator.SluiceSplitPlanning;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.Collections;

/**
 * Plans a continuous read with upstream's {@link ContinuousSplitPlannerImpl}: the first plan
 * starts where {@code starting-strategy} says, every later one reads the appends of the snapshots
 * committed since the position (at most {@code max-planning-snapshot-count} of them). The position
 * is upstream's enumerator position (the last snapshot planned), in upstream's serialization.
 *
 * <p>As upstream's enumerator, a failed plan is retried at the next interval (it plans nothing and
 * keeps the position) until {@code max-allowed-planning-failures} consecutive plans have failed.
 */
final class IcebergContinuousScanPlanner implements ScanPlanner {

    private static final Logger LOG = LoggerFactory.getLogger(IcebergContinuousScanPlanner.class);

    private final ContinuousSplitPlanner planner;
    private final ReadSettings settings;
    private final ScanSplits splits;
    private int consecutiveFailures;

    /** @param planner closed with this planner */
    IcebergContinuousScanPlanner(ContinuousSplitPlanner planner, ReadSettings settings) {
        this.planner = planner;
        this.settings = settings;
        this.splits = new ScanSplits(settings.caseSensitive());
    }

    /** A planner over upstream's, which loads the table itself through {@code loader}. */
    static IcebergContinuousScanPlanner create(PluginTableLoader loader, ReadSettings settings) {
        // a thread name gives the planner a worker pool of its own, shut down with it (upstream's
        // shared pool would outlive the plugin)
        return new IcebergContinuousScanPlanner(
                new ContinuousSplitPlannerImpl(loader, settings.scanContext(), "sluice-" + settings.tableName()),
                settings);
    }

    @Override
    public ScanPlan plan(@Nullable Payload position) throws IOException {
        if (position != null && position.version() == IcebergScanPlanner.PLANNED_VERSION) {
            throw new IOException("Cannot continue a streaming read of Iceberg table '" + settings.tableName()
                    + "' from the position of a bounded read ('" + IcebergReadOptions.STREAMING.key() + "' = false)");
        }
        SluiceSplitPlanning.Result result;
        try {
            result = SluiceSplitPlanning.plan(
                    planner,
                    position == null ? null : position.bytes(),
                    position == null ? SluiceSplitPlanning.positionVersion() : position.version());
        } catch (IOException e) {
            throw new IOException(
                    "Cannot read the position of a streaming read of Iceberg table '" + settings.tableName() + "': "
                            + e.getMessage(),
                    e);
        } catch (RuntimeException e) {
            return failed(position, e);
        }
        consecutiveFailures = 0;
        if (!result.splits().isEmpty()) {
            LOG.info(
                    "Planned {} splits of Iceberg table {} up to {}",
                    result.splits().size(),
                    settings.tableName(),
                    result.description());
        }
        return new ScanPlan(
                splits.toPlanned(result.splits()),
                new Payload(SluiceSplitPlanning.positionVersion(), result.position()));
    }

    private ScanPlan failed(@Nullable Payload position, RuntimeException e) throws IOException {
        consecutiveFailures++;
        int allowed = settings.scanContext().maxAllowedPlanningFailures();
        if (allowed < 0 || consecutiveFailures <= allowed) {
            LOG.warn(
                    "Planning Iceberg table {} failed ({} of {} consecutive failures allowed by '{}'); retrying at the next"
                            + " interval",
                    settings.tableName(),
                    consecutiveFailures,
                    allowed < 0 ? "any" : allowed,
                    IcebergReadOptions.MAX_ALLOWED_PLANNING_FAILURES.key(),
                    e);
            return new ScanPlan(Collections.emptyList(), position);
        }
        throw new IOException(
                "Cannot plan the splits of Iceberg table '" + settings.tableName() + "' (" + consecutiveFailures
                        + " consecutive failures, '" + IcebergReadOptions.MAX_ALLOWED_PLANNING_FAILURES.key() + "' = "
                        + allowed + "): "
                        + e,
                e);
    }

    @Override
    public void close() throws IOException {
        planner.close();
    }
}
