package io.sluice.spi.sink;

import org.apache.flink.table.data.RowData;

/**
 * Decides when an open part file closes and a new one starts. Part of the writer SPI: targets
 * that write files ask it before each write, at each checkpoint and on a processing-time timer.
 *
 * <p>Called by one writer thread. A bulk format cannot resume a file after a failure, so its
 * writer rolls on every checkpoint whatever the policy says.
 */
public interface RollingPolicy {

    /** Whether the file must close at the checkpoint being taken. */
    boolean shouldRollOnCheckpoint(PartFileState partFile);

    /** Whether the file must close before {@code element} is written to it. */
    boolean shouldRollOnEvent(PartFileState partFile, RowData element);

    /** Whether the file must close now, on a processing-time check. */
    boolean shouldRollOnProcessingTime(PartFileState partFile, long currentTime);
}
