package io.sluice.spi.distribution;

import io.sluice.spi.Experimental;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetFactory;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A target whose sinks may distribute rows among the writers ({@code distribution-mode} {@code
 * hash} or {@code range}) rather than write them where they arrive. Offered through {@link
 * TargetFactory#distribution()}; a target without it writes with {@link DistributionMode#NONE}
 * only, and the framework refuses another mode for it, naming the ones it has.
 *
 * @since 3.0.0 (the methods were {@code TargetFactory}'s before)
 */
@Experimental
public interface DistributionSupport {

    /**
     * The distribution modes this sink may write with (the table and the options decide: Iceberg
     * allows RANGE only with a sort order or partition spec). The framework rejects a mode not
     * listed, naming the ones that are. Asked on the client.
     */
    Set<DistributionMode> modes(SinkContext context);

    /**
     * The distribution mode the table asks for when the sink's {@code distribution-mode} option
     * names none (Iceberg: the table property {@code write.distribution-mode}); empty for the
     * framework's default, {@link DistributionMode#NONE}. Asked on the client.
     */
    default Optional<DistributionMode> tableMode(SinkContext context) {
        return Optional.empty();
    }

    /**
     * What the framework distributes the rows of this sink by, in a mode other than NONE: the
     * partition key (a file target's partition columns, Iceberg's partition transforms) or, for an
     * unpartitioned table, its key columns. A sink that takes changes is distributed by its change
     * key instead (see {@code ChangeSupport#changeKey}). Created on every subtask that shuffles. By
     * default the partition columns, else the primary key.
     *
     * @throws IllegalArgumentException if the sink has nothing to distribute by
     */
    default DistributionKey key(SinkContext context) {
        List<String> columns = context.partitionKeys().isEmpty() ? context.primaryKey() : context.partitionKeys();
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
     * once to check that there is one. By default {@link #key}.
     *
     * @throws IllegalArgumentException if the sink has nothing to order rows by (upstream
     *     Iceberg's words: "Need to define sort order or partition spec")
     */
    default DistributionKey rangeKey(SinkContext context) {
        return key(context);
    }
}
