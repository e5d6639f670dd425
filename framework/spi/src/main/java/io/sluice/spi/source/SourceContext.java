package io.sluice.spi.source;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.Payload;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.types.logical.RowType;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/** What the framework tells the parts of a source (enumerators, formats) about the source. */
public interface SourceContext {

    /** The type of the rows the source produces, partition columns included. */
    RowType rowType();

    /** The partition keys (SQL {@code PARTITIONED BY}), possibly empty. */
    List<String> partitionKeys();

    /** All options of the source as the user gave them. */
    ReadableConfig options();

    /** All options as key/value strings. */
    Map<String, String> rawOptions();

    /** Other plugins' extensions. */
    ExtensionLookup extensions();

    /**
     * Whether the read is bounded or continuous, as the options decided on the client: continuous
     * when a file source has {@code source.monitor-interval} set, or a scan source's {@link
     * ScanSourceFactory#monitorInterval} gave an interval. An enumerator that plans differently for
     * a one-off listing (every file at once) and a repeated one (only what is new) asks here. While
     * {@code monitorInterval} itself is being decided, this is {@link Boundedness#BOUNDED}.
     *
     * @since 2.0.0
     */
    default Boundedness boundedness() {
        return Boundedness.BOUNDED;
    }

    /**
     * The configuration of the job or SQL session that planned the source: where upstream
     * connectors look for a read option between the source's own options and the table's
     * properties.
     */
    default ReadableConfig jobConfiguration() {
        return new Configuration();
    }

    /**
     * The filters a {@link ScanSourceFactory} took from the query ({@link
     * ScanSourceFactory#pushFilters}), in its own form; empty when none were pushed.
     */
    default Optional<Payload> pushedFilters() {
        return Optional.empty();
    }

    /**
     * The partitions the planner kept for this read ({@link ScanSourceFactory#prunesPartitions}),
     * as {@link ScanSourceFactory#listPartitions} listed them; empty when the planner pruned
     * nothing (every partition is read). The planner no longer applies the filters it pruned with
     * to the rows, so a read must not return rows of other partitions.
     *
     * @since 2.12.0
     */
    @io.sluice.spi.Experimental
    default Optional<List<Map<String, String>>> partitions() {
        return Optional.empty();
    }

    /**
     * The query's row limit ({@code LIMIT n}), when it has one: a scan source may stop each reader
     * after that many rows. Flink still applies the limit to the rows read.
     */
    default OptionalLong pushedLimit() {
        return OptionalLong.empty();
    }

    /**
     * Whether the rows are read to fill the cache of a temporal join (Flink's {@code FOR
     * SYSTEM_TIME AS OF} a processing time) rather than scanned as a stream or a batch. A lookup
     * read is bounded: the framework reads the first plan ({@code plan(null)}) whole into a cache on
     * each join subtask and reads it again after {@link ScanSourceFactory#lookupReloadInterval}. A
     * target whose options mean something else for a lookup (Hive's {@code
     * streaming-source.partition.include = latest}: the latest partition only) asks here, in
     * {@code validate} and in the planner.
     *
     * @since 2.2.0
     */
    @io.sluice.spi.Experimental
    default boolean lookup() {
        return false;
    }

    /**
     * The number of readers the splits are planned for, when the framework knows it: the source's
     * parallelism where its enumerator plans at run time ({@link ScanSourceFactory#createPlanner}
     * in the split enumerator), 1 for a temporal join's load (each join subtask reads every split
     * itself). Empty on the client ({@code validate}, {@code pushFilters}, {@code monitorInterval},
     * {@code inferParallelism}), where no parallelism is decided yet. A planner that sizes its
     * splits by how many readers share them (Hive's {@code table.exec.hive.file-open-cost}: no
     * smaller than the open cost, else the table's size over the readers) asks here.
     *
     * @since 2.10.0
     */
    @io.sluice.spi.Experimental
    default OptionalInt readers() {
        return OptionalInt.empty();
    }
}
