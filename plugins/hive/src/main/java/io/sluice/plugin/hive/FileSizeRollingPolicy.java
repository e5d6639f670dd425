package io.sluice.plugin.hive;

import io.sluice.spi.sink.PartFileState;
import io.sluice.spi.sink.RollingPolicy;

import org.apache.flink.table.data.RowData;

/**
 * Rolls a part file once it reaches {@code sink.rolling-policy.file-size}; the part-file engine
 * also rolls the bulk formats' files (Parquet, ORC) at every checkpoint, since they cannot be resumed.
 */
final class FileSizeRollingPolicy implements RollingPolicy {

    private final long maxBytes;

    FileSizeRollingPolicy(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    public boolean shouldRollOnCheckpoint(PartFileState partFile) {
        return partFile.size() >= maxBytes;
    }

    @Override
    public boolean shouldRollOnEvent(PartFileState partFile, RowData element) {
        return partFile.size() >= maxBytes;
    }

    @Override
    public boolean shouldRollOnProcessingTime(PartFileState partFile, long currentTime) {
        return false;
    }
}
