package io.sluice.plugin.iceberg;

import java.util.Map;

/**
 * The kit again, with continuous reads that start after the latest snapshot ({@code
 * INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE}): a first plan of none of the existing rows, and on an
 * empty table upstream's empty position, from which the first snapshot is new.
 */
class IcebergScanFromLatestConformanceTest extends IcebergScanConformanceTest {

    @Override
    protected Map<String, String> continuousOptions() {
        return Map.of("streaming", "true", "starting-strategy", "INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE");
    }

    @Override
    protected boolean firstContinuousPlanIncludesExistingRows() {
        return false;
    }
}
