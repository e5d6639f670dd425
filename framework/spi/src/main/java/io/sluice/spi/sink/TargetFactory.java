package io.sluice.spi.sink;

import io.sluice.spi.SluiceFactory;

import java.io.IOException;
import java.util.List;

/**
 * A whole storage target (files, Hive, Iceberg): creates the writer of each parallel subtask and
 * the committer of the sink. Selected by the {@code target} option.
 */
public interface TargetFactory extends SluiceFactory {

    /**
     * Checks the sink's options before the job starts, on the client.
     *
     * @throws IllegalArgumentException naming the offending option and value
     */
    default void validate(SinkContext context) {}

    /**
     * Creates the writer of one subtask.
     *
     * @param restoredState what the writers that this subtask takes over returned from {@link
     *     TargetWriter#snapshotState}; empty on a fresh start
     */
    TargetWriter createWriter(SinkContext context, List<Payload> restoredState) throws IOException;

    /** Creates the sink's committer. */
    TargetCommitter createCommitter(SinkContext context) throws IOException;
}
