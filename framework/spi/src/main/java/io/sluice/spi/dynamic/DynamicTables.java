package io.sluice.spi.dynamic;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tables of one target that a dynamic sink writes ({@code DynamicTableSupport#open}):
 * found by an identifier the records carry, created when first seen, and evolved when a record's
 * schema or partition spec is not one of the table's. Created where the sink routes records and
 * where it commits, so several instances change the same tables concurrently: each method must
 * tolerate another instance having just done the same (a commit conflict is retried against the
 * refreshed table, a table created meanwhile is loaded).
 *
 * <p>An identifier is the user's string ({@code db.table}, a path below the sink's base path):
 * hostile until the target has checked it; an identifier the target refuses is an {@link
 * IllegalArgumentException} naming it.
 *
 * @since 2.3.0
 */
@io.sluice.spi.Experimental
public interface DynamicTables extends AutoCloseable {

    /**
     * The table as it is now, or empty if it does not exist.
     *
     * @throws IllegalArgumentException for an identifier the target refuses
     */
    Optional<TableState> load(String identifier) throws IOException;

    /**
     * Creates the table with the request's schema, partition spec, properties and location; if it
     * exists meanwhile, returns it as it is.
     */
    TableState create(TableRequest request) throws IOException;

    /**
     * Changes the table so that it takes the request's schema (which the framework derived from the
     * table's current schema and the record's: columns added, types widened, columns made optional,
     * columns dropped) and partition spec, and returns it as it then is. The schema comes with the
     * column names of the current one; a column the request lacks is dropped.
     *
     * @throws IllegalArgumentException naming the table and the column for a change the target
     *     cannot make
     */
    TableState update(TableRequest request) throws IOException;

    /**
     * The sink options under which the target's single-table writer and committer write this table,
     * on {@code branch} (null: the table's main branch), with partition spec {@code spec} (one of
     * the table's; for a schemaless table the record's), as upserts by {@code equalityFields} or as
     * appends: they replace the dynamic sink's own options of the same names. The framework passes
     * the equality fields as the sink's primary key, and the columns of the spec's {@code
     * identity(...)} transforms as its partition keys.
     *
     * @param upsert null: as the table's properties or the sink's options say
     * @throws IllegalArgumentException for an identifier, branch or spec the target refuses, or
     *     upserts it cannot write
     */
    Map<String, String> sinkOptions(
            String identifier,
            @Nullable String branch,
            List<String> spec,
            @Nullable Boolean upsert,
            List<String> equalityFields);

    @Override
    default void close() throws Exception {}
}
