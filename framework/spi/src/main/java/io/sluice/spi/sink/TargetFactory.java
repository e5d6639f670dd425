package io.sluice.spi.sink;

import io.sluice.spi.Payload;

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

    /**
     * Whether the target can replace data ({@code INSERT OVERWRITE}); the framework rejects an
     * overwrite of a target that cannot, and of unbounded input.
     */
    default boolean supportsOverwrite() {
        return false;
    }

    /**
     * Whether the framework's file compaction ({@code auto-compaction}, {@code compaction.*})
     * applies to the target's files. A target that owns its file layout (a table format such as
     * Iceberg) says no, and then those options are rejected for its tables instead of being
     * silently ignored.
     */
    default boolean supportsCompaction() {
        return true;
    }

    /**
     * Whether the framework's partition commit ({@code sink.partition-commit.*}, {@code
     * partition.time-extractor.*}) applies: the target's writers report the partitions they write
     * ({@link PendingCommit#partition()}) and its committer knows their locations. A table format
     * that commits whole snapshots says no, and those options are then rejected for its tables
     * instead of being silently ignored.
     *
     * @since 2.0.0
     */
    default boolean supportsPartitionCommit() {
        return true;
    }

    /**
     * Whether the writer takes changes (rows of kind {@code UPDATE_AFTER} and {@code DELETE}, as
     * upserts and deletes by {@link SinkContext#primaryKey()}) for this sink, rather than inserts
     * only. Decided on the client, from the options and the table.
     *
     * @throws IllegalArgumentException when the options ask for changes the table cannot take
     */
    default boolean acceptsChanges(SinkContext context) {
        return false;
    }

    /**
     * The columns that identify a row for the changes this sink takes (its upsert key). The
     * framework sends every row with the same values of these columns to the same writer subtask,
     * in the order they arrive, whichever API planned the sink: equality deletes of one key then
     * never meet versions of that key written by another writer into the same commit. Asked on the
     * client, and only when {@link #acceptsChanges} is true; by default the sink's primary key.
     *
     * @since 1.2.0
     */
    default List<String> changeKey(SinkContext context) {
        return context.primaryKey();
    }
}
