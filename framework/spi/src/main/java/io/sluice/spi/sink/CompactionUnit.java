package io.sluice.spi.sink;

import io.sluice.spi.Payload;

import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Pending files of one bucket that a committer merges into one published file. The framework
 * chooses the files (by the compaction strategy: size and number of checkpoints) and the {@code
 * FileCompactor} that merges them; the target knows where the files are and how to publish the
 * result.
 *
 * <p>Running a unit must be idempotent: it can be handed over again after a failure at any point,
 * including after its output was published and some of its inputs were removed.
 *
 * @since 3.0.0 a final class (an interface before)
 */
public final class CompactionUnit {

    private final String bucketId;
    private final List<Payload> inputs;

    private CompactionUnit(String bucketId, List<Payload> inputs) {
        this.bucketId = Objects.requireNonNull(bucketId, "bucketId");
        this.inputs = Collections.unmodifiableList(List.copyOf(inputs));
    }

    /**
     * @param bucketId the bucket of every input; empty for an unpartitioned target
     * @param inputs the inputs' pending payloads, in the order written
     */
    public static CompactionUnit of(String bucketId, List<Payload> inputs) {
        return new CompactionUnit(bucketId, inputs);
    }

    /** The bucket (partition) all inputs belong to; empty for an unpartitioned target. */
    public String bucketId() {
        return bucketId;
    }

    /** The pending payloads of the inputs, each as its writer returned it, in the order written. */
    public List<Payload> inputs() {
        return inputs;
    }

    @Override
    public String toString() {
        return "CompactionUnit{bucket '" + bucketId + "', " + inputs.size() + " inputs}";
    }
}
