package io.sluice.spi.source;

import io.sluice.spi.Payload;
import io.sluice.spi.SluiceFactory;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The reading side of a target whose tables are read by planning scans of the table's metadata
 * (Iceberg snapshots, say) rather than by listing files. It shares its identifier with the
 * target's {@link io.sluice.spi.sink.TargetFactory}: a Sluice table whose {@code target} has a
 * scan source is read through it, any other table by the framework's file source.
 *
 * <p>The framework runs the pipeline around it: a split enumerator on the JobManager asks the
 * {@linkplain #createPlanner planner} for splits (once for a bounded read, every monitor interval
 * for a continuous one) and keeps the splits and the planner's position in its checkpoints; the
 * readers on the tasks {@linkplain #createReader read} one split after another and checkpoint how
 * far they got. Splits and positions reach Flink only as {@link Payload}s, so nothing of the
 * plugin is ever serialized by Flink.
 */
@io.sluice.spi.Experimental
public interface ScanSourceFactory extends SluiceFactory {

    /**
     * Checks the source's options on the client (the table exists, the rows fit it, the read
     * options are valid and consistent).
     *
     * @throws IllegalArgumentException naming the option and value, or the columns, at fault
     */
    default void validate(SourceContext context) {}

    /**
     * The rows of the whole table the options name, for a source that does not list its columns
     * (a DataStream builder); empty when the target cannot tell. Called on the client.
     *
     * @throws IllegalArgumentException if the options name no readable table
     */
    default Optional<RowType> tableRowType(ReadableConfig options) {
        return Optional.empty();
    }

    /**
     * Offers the query's filters (each one a conjunct) to the target, on the client, so that it
     * can skip data (files, partitions) that cannot match. The framework still evaluates every
     * filter on the rows read, so the target may use a filter to prune loosely and need not apply
     * it to rows. What is returned reaches the planner and the readers as {@link
     * SourceContext#pushedFilters()}; empty (the default) uses none.
     *
     * @param filters Flink's resolved expressions of the {@code WHERE} clause
     * @return the target's own serialized form of the filters it will use
     */
    default Optional<Payload> pushFilters(SourceContext context, List<ResolvedExpression> filters) {
        return Optional.empty();
    }

    /**
     * Whether this read of a partitioned table reads only the partitions the planner keeps (Flink's
     * partition push-down): the planner then asks {@link #listPartitions}, evaluates every filter of
     * the query that names only partition columns on each partition (any deterministic expression:
     * ranges, {@code LIKE}, functions, casts, {@code AND}/{@code OR}/{@code NOT}), no longer applies
     * those filters to the rows, hands the partitions it kept to the planner and the readers as
     * {@link SourceContext#partitions()}, and {@code EXPLAIN} names them. So a target answers true
     * only for a read whose partitions are all known on the client: a bounded read, never one that
     * follows partitions added later (those would reach the rows unfiltered). Asked on the client,
     * for a bounded read of a table with partition keys; false (the default) leaves every filter to
     * {@link #pushFilters} and to Flink.
     *
     * @since 2.12.0
     */
    @io.sluice.spi.Experimental
    default boolean prunesPartitions(SourceContext context) {
        return false;
    }

    /**
     * The table's partitions, each as partition column to value in the order of {@link
     * SourceContext#partitionKeys()}, a value as the planner reads it for the column's type (a
     * {@code null} value is SQL {@code NULL}); asked on the client, when {@link #prunesPartitions}
     * is true and the query filters on partition columns. Listing may be cheaper than planning: the
     * planner keeps some and only those need more than their values.
     *
     * @throws IOException if the partitions cannot be listed, naming the table
     * @since 2.12.0
     */
    @io.sluice.spi.Experimental
    default List<Map<String, String>> listPartitions(SourceContext context) throws IOException {
        throw new UnsupportedOperationException("Target '" + identifier() + "' does not list partitions");
    }

    /**
     * Whether, for a table of the target's own catalog ({@link
     * io.sluice.spi.catalog.TargetCatalogFactory}), the planner asks that catalog for the
     * partitions instead of {@link #listPartitions}: Flink then hands the catalog the query's
     * filters on partition columns ({@code Catalog#listPartitionsByFilter}), which may have the
     * metastore filter them, and lists every partition through {@code Catalog#listPartitions} when
     * the catalog cannot. Either answer must be exact (Flink no longer filters the rows on those
     * columns) and give each value as a row of the partition reads it, as {@link #listPartitions}
     * does. Asked on the client, when {@link #prunesPartitions} is true; false by default.
     *
     * @since 2.12.0
     */
    @io.sluice.spi.Experimental
    default boolean catalogListsPartitions(SourceContext context) {
        return false;
    }

    /**
     * How often a continuous (unbounded) read asks the planner for new splits, or empty for a
     * bounded read, as the options ask; decided on the client.
     */
    Optional<Duration> monitorInterval(SourceContext context);

    /**
     * The parallelism a bounded read of the table is worth (the target's parallelism inference,
     * such as Hive's {@code table.exec.hive.infer-source-parallelism.mode}), or empty to keep the
     * parallelism the job configures. Asked twice: on the client, where an answer fixes the
     * source's parallelism in the plan (static inference), and on the JobManager when Flink's
     * adaptive batch scheduler decides the source's parallelism (dynamic inference); the target
     * answers in the mode its options choose and returns empty in the other.
     *
     * @param upperBound the most the framework accepts ({@link Integer#MAX_VALUE} on the client;
     *     the scheduler's bound at run time)
     * @param atRuntime whether the scheduler asks (dynamic) rather than the client (static)
     * @since 2.1.0
     */
    @io.sluice.spi.Experimental
    default OptionalInt inferParallelism(SourceContext context, int upperBound, boolean atRuntime) {
        return OptionalInt.empty();
    }

    /**
     * How long a temporal join serves the rows of one read of the table before it reads the table
     * again, as the options ask (Hive: {@code streaming-source.monitor-interval} for the latest
     * partition, {@code lookup.join.cache.ttl} for the whole table), or empty for the framework's
     * {@code lookup.join.cache.ttl}. Asked on the client, of a lookup read ({@link
     * SourceContext#lookup()}).
     *
     * @since 2.2.0
     */
    @io.sluice.spi.Experimental
    default Optional<Duration> lookupReloadInterval(SourceContext context) {
        return Optional.empty();
    }

    /** Creates the planner of one source, on the JobManager. */
    ScanPlanner createPlanner(SourceContext context) throws IOException;

    /** Creates the split reader of one source subtask, on a TaskManager. */
    ScanSplitReader createReader(SourceContext context) throws IOException;
}
