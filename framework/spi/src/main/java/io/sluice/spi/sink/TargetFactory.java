package io.sluice.spi.sink;

import io.sluice.spi.Payload;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.distribution.DistributionKey;
import io.sluice.spi.distribution.DistributionMode;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

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
     * Options a sink of this target takes when its own options name none, for a job of bounded
     * input (BATCH) or of unbounded input (STREAMING): upstream's connectors default some options
     * by mode, as Flink's Hive sink runs {@code sink.partition-commit.policy.kind} {@code
     * metastore,success-file} in BATCH and refuses a STREAMING write into a partitioned table that
     * names no policy. Asked on the client, once the job's mode is known (after {@link #validate});
     * the framework adds the keys the sink does not set and checks the options again. By default
     * none.
     *
     * @param bounded whether the sink's input is bounded, the job then running in BATCH
     * @return options by key, which the framework adds only where the sink names none
     * @throws IllegalArgumentException naming the option the sink must set in this mode
     * @since 2.7.0
     */
    @io.sluice.spi.Experimental
    default java.util.Map<String, String> modeDefaults(SinkContext context, boolean bounded) {
        return java.util.Collections.emptyMap();
    }

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
     * Whether the target's writers keep writers of one {@link WriterLineage#writerId() writer id}
     * apart by their {@link WriterLineage#opening() opening} and honour {@link
     * WriterLineage#laterOpenings()} and {@link WriterLineage#reopened()}: a dynamic sink then
     * hands every table writer it opens a lineage (one id per table and attempt), so leftovers of
     * table writers opened after the last checkpoint are found after a failure. Without it a dynamic
     * sink's table writers have no lineage (a writer id must never repeat) and choose their own ids.
     *
     * @since 2.9.0
     */
    @io.sluice.spi.Experimental
    default boolean supportsWriterOpenings() {
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
     * The format of the files the target writes, which picks the framework's default compactor
     * ({@code concat} for a row format, {@code record-wise} for a bulk one) and checks the one
     * {@code compaction.compactor} names. By default the sink's {@code format} option; a target
     * whose format is the table's (a Hive table's storage descriptor) says which. Asked on the
     * client and on the committer, only with compaction.
     *
     * @since 2.1.0
     */
    @io.sluice.spi.Experimental
    default java.util.Optional<String> fileFormat(SinkContext context) {
        return java.util.Optional.ofNullable(context.rawOptions().get("format"));
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

    /**
     * Whether a BATCH job should hand this sink's writers their rows grouped by the partition
     * columns, so that a writer has one partition's file open at a time ({@link
     * SinkContext#inputGroupedByPartition()}): in SQL the planner sorts them by the dynamic
     * partition columns, as for upstream's filesystem and Hive sinks; in a DataStream job the
     * framework sorts each writer's rows (unless the job declares its input grouped). Asked on the
     * client, for a partitioned sink in BATCH mode only.
     *
     * @since 2.1.0
     */
    @io.sluice.spi.Experimental
    default boolean requiresPartitionGrouping(SinkContext context) {
        return false;
    }

    /**
     * The distribution modes this sink may write with (the table and the options decide: Iceberg
     * allows RANGE only with a sort order or partition spec). The framework rejects a mode the
     * target does not list, naming the ones it does. Asked on the client. By default {@link
     * DistributionMode#NONE} only.
     *
     * @since 2.0.0
     */
    @io.sluice.spi.Experimental
    default Set<DistributionMode> distributionModes(SinkContext context) {
        return EnumSet.of(DistributionMode.NONE);
    }

    /**
     * The distribution mode the table asks for when the sink's {@code distribution-mode} option
     * names none (Iceberg: the table property {@code write.distribution-mode}); empty for the
     * framework's default, {@link DistributionMode#NONE}. Asked on the client.
     *
     * @since 2.0.0
     */
    @io.sluice.spi.Experimental
    default java.util.Optional<DistributionMode> tableDistributionMode(SinkContext context) {
        return java.util.Optional.empty();
    }

    /**
     * What the framework distributes the rows of this sink by, in a mode other than NONE, and what
     * orders them for RANGE: the partition key (a file target's partition columns, Iceberg's
     * partition transforms) or, for an unpartitioned table, its equality fields or sort order.
     * Created on every subtask that shuffles. By default the partition columns, else the {@link
     * #changeKey}.
     *
     * @throws IllegalArgumentException if the sink has nothing to distribute by
     * @since 2.0.0
     */
    @io.sluice.spi.Experimental
    default DistributionKey distributionKey(SinkContext context) {
        List<String> columns = context.partitionKeys().isEmpty() ? changeKey(context) : context.partitionKeys();
        if (columns.isEmpty()) {
            throw new IllegalArgumentException(
                    "The sink has neither partition columns nor a key to distribute rows by");
        }
        return DistributionKey.ofColumns(context.rowType(), columns);
    }

    /**
     * What {@link DistributionMode#RANGE} orders the rows of this sink by, its sort key: the
     * framework counts the traffic of each key and gives each writer a range of keys of about
     * equal traffic, in the unsigned byte order of the keys. Iceberg: the table's sort order,
     * else its partition spec. Created on every subtask that shuffles, and asked on the client
     * once to check that there is one. By default {@link #distributionKey}.
     *
     * @throws IllegalArgumentException if the sink has nothing to order rows by (upstream
     *     Iceberg's words: "Need to define sort order or partition spec")
     * @since 2.2.0
     */
    @io.sluice.spi.Experimental
    default DistributionKey rangeKey(SinkContext context) {
        return distributionKey(context);
    }

    /**
     * The tables a dynamic sink of this target writes, created and evolved as its records name
     * them; empty (the default) for a target that writes only the one table its options name.
     * Created on the client to check the sink, where the sink routes records, and where it
     * commits; the caller closes it.
     *
     * @since 2.3.0
     */
    @io.sluice.spi.Experimental
    default java.util.Optional<io.sluice.spi.dynamic.DynamicTables> dynamicTables(SinkContext context)
            throws IOException {
        return java.util.Optional.empty();
    }
}
