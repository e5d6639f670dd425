package io.sluice.plugin.filesystem;

import io.sluice.spi.sink.PartFileState;
import io.sluice.spi.sink.RollingPolicy;
import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.table.data.RowData;
import org.pf4j.Extension;

/** {@code on-checkpoint}: a part file rolls at every checkpoint and at no other time. */
@Extension
public final class OnCheckpointRollingPolicyFactory implements RollingPolicyFactory {

    @Override
    public String identifier() {
        return "on-checkpoint";
    }

    @Override
    public RollingPolicy create(SinkContext context) {
        return new RollingPolicy() {
            @Override
            public boolean shouldRollOnCheckpoint(PartFileState partFile) {
                return true;
            }

            @Override
            public boolean shouldRollOnEvent(PartFileState partFile, RowData element) {
                return false;
            }

            @Override
            public boolean shouldRollOnProcessingTime(PartFileState partFile, long currentTime) {
                return false;
            }
        };
    }
}
