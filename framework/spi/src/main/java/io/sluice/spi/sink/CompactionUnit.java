package io.sluice.spi.sink;

import io.sluice.spi.Payload;

import java.util.List;

/**
 * Pending files of one bucket that a committer merges into one published file. The framework
 * chooses the files (by the compaction strategy: size and number of checkpoints) and the {@code
 * FileCompactor} that merges them; the target knows where the files are and how to publish the
 * result.
 *
 * <p>Running a unit must be idempotent: it can be handed over again after a failure at any point,
 * including after its output was published and some of its inputs were removed.
 */
public interface CompactionUnit {

    /** The bucket (partition) all inputs belong to; empty for an unpartitioned target. */
    String bucketId();

    /** The pending payloads of the inputs, each as its writer returned it, in the order written. */
    List<Payload> inputs();
}
