package io.sluice.spi.sink;

import java.util.List;

/** One checkpoint's worth of pending data, from all writers, to make visible in one commit. */
public interface CommitRequest {

    /** The id of the Flink job that wrote the data, as a hex string. */
    String jobId();

    /** The checkpoint the data belongs to; {@code Long.MAX_VALUE} at end of bounded input. */
    long checkpointId();

    /** What the writers returned from {@link TargetWriter#prepareCommit}, in no defined order. */
    List<Payload> pending();
}
