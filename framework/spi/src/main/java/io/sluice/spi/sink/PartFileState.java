package io.sluice.spi.sink;

/** What a {@link RollingPolicy} knows about an open part file. */
public interface PartFileState {

    /** The bucket the file belongs to. */
    String bucketId();

    /** Processing time at which the file was opened. */
    long creationTime();

    /** Processing time of the last write to the file. */
    long lastUpdateTime();

    /** Bytes written to the file so far. */
    long size();
}
