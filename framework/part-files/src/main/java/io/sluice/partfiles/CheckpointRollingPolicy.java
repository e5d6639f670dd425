package io.sluice.partfiles;

import io.sluice.spi.sink.PartFileState;
import io.sluice.spi.sink.RollingPolicy;

import org.apache.flink.table.data.RowData;

/** Wraps a policy so that files also always roll at a checkpoint: what bulk formats need. */
final class CheckpointRollingPolicy implements RollingPolicy {

    private final RollingPolicy policy;

    CheckpointRollingPolicy(RollingPolicy policy) {
        this.policy = policy;
    }

    @Override
    public boolean shouldRollOnCheckpoint(PartFileState partFile) {
        return true;
    }

    @Override
    public boolean shouldRollOnEvent(PartFileState partFile, RowData element) {
        return policy.shouldRollOnEvent(partFile, element);
    }

    @Override
    public boolean shouldRollOnProcessingTime(PartFileState partFile, long currentTime) {
        return policy.shouldRollOnProcessingTime(partFile, currentTime);
    }
}
