package io.sluice.spi.sink;

import javax.annotation.Nullable;

/** Time information about the record being written. */
public interface RecordContext {

    /** The processing time now, in epoch milliseconds. */
    long currentProcessingTime();

    /** The current event-time watermark of the writer, {@code Long.MIN_VALUE} before the first. */
    long currentWatermark();

    /** The record's event-time timestamp, or {@code null} if it has none. */
    @Nullable
    Long timestamp();
}
