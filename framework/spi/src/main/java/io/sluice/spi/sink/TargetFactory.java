package io.sluice.spi.sink;

import io.sluice.spi.Experimental;
import io.sluice.spi.Payload;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.changes.ChangeSupport;
import io.sluice.spi.compact.CompactionSupport;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.spi.distribution.DistributionSupport;
import io.sluice.spi.dynamic.DynamicTableSupport;
import io.sluice.spi.partition.PartitionSupport;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * A whole storage target (files, Hive, Iceberg): creates the writer of each parallel subtask and
 * the committer of the sink. Selected by the {@code target} option.
 *
 * <p>Three methods make a target; what else a target can do it offers as facets, each an optional
 * interface of its own that the framework asks for where it needs it: changes, distribution,
 * partition commit, compaction, dynamic tables, mode defaults, overwrite. A target offers a facet
 * by returning it (usually itself, or a small object) from the facet's getter; the defaults offer
 * none. The framework asks for facets on the client and on the task managers, so a getter must
 * answer the same on every call.
 *
 * @since 3.0.0 (the facets' methods were default methods of this interface before)
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

    /** Changes (upserts and deletes by key) besides inserts; none by default: inserts only. */
    default Optional<ChangeSupport> changes() {
        return Optional.empty();
    }

    /** Distribution of rows among the writers; none by default: {@link DistributionMode#NONE} only. */
    @Experimental
    default Optional<DistributionSupport> distribution() {
        return Optional.empty();
    }

    /** The framework's partition commit; none by default (its options are then rejected). */
    default Optional<PartitionSupport> partitions() {
        return Optional.empty();
    }

    /** The framework's file compaction; none by default (its options are then rejected). */
    default Optional<CompactionSupport> compaction() {
        return Optional.empty();
    }

    /** The tables of a dynamic sink; none by default: the one table the options name. */
    @Experimental
    default Optional<DynamicTableSupport> dynamicTables() {
        return Optional.empty();
    }

    /** Options defaulted by the job's mode; none by default. */
    @Experimental
    default Optional<ModeDefaults> modeDefaults() {
        return Optional.empty();
    }

    /** Overwriting data ({@code INSERT OVERWRITE}); none by default: such a write is rejected. */
    default Optional<OverwriteSupport> overwrite() {
        return Optional.empty();
    }
}
