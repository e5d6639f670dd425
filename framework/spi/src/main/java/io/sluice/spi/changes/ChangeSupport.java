package io.sluice.spi.changes;

import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetFactory;

import java.util.List;

/**
 * A target whose writers can take changes (rows of kind {@code UPDATE_AFTER} and {@code DELETE},
 * as upserts and deletes by key) besides inserts, as Iceberg's equality deletes do. Offered
 * through {@link TargetFactory#changes()}; a target without it takes inserts only, and the
 * framework refuses a changelog input for it.
 *
 * @since 3.0.0 (the methods were {@code TargetFactory}'s before)
 */
public interface ChangeSupport {

    /**
     * Whether the writer takes changes for this sink, rather than inserts only. Decided on the
     * client, from the options and the table.
     *
     * @throws IllegalArgumentException when the options ask for changes the table cannot take
     */
    boolean acceptsChanges(SinkContext context);

    /**
     * The columns that identify a row for the changes this sink takes (its upsert key). The
     * framework sends every row with the same values of these columns to the same writer subtask,
     * in the order they arrive, whichever API planned the sink: equality deletes of one key then
     * never meet versions of that key written by another writer into the same commit. Asked on the
     * client, and only when {@link #acceptsChanges} is true; by default the sink's primary key.
     */
    default List<String> changeKey(SinkContext context) {
        return context.primaryKey();
    }
}
