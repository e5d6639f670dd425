package io.sluice.spi.distribution;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.util.List;

/**
 * The key the framework distributes a row by, as bytes: rows with equal bytes are rows of one key
 * (one partition, one set of equality-field values), and the unsigned lexicographic order of the
 * bytes is the order of the keys (a table's sort order), so that one representation serves
 * {@link DistributionMode#HASH} and the statistics and ranges of {@link DistributionMode#RANGE}.
 *
 * <p>Created on a task and used by its thread only; must be deterministic across JVMs and
 * restarts, because the framework's range statistics keep keys in checkpoints.
 *
 * @since 2.0.0
 */
@io.sluice.spi.Experimental // settles with the distribution modes (HASH, RANGE) that use it
public interface DistributionKey {

    /** The key of one row; the array is the caller's from now on. */
    byte[] of(RowData row);

    /**
     * The key made of the given columns of the row, in that order: what a target whose partitions
     * (or equality fields) are plain columns returns.
     *
     * @throws IllegalArgumentException naming the column if it does not exist or its type cannot
     *     be ordered as bytes
     */
    static DistributionKey ofColumns(RowType rowType, List<String> columns) {
        return OrderedColumnsKey.of(rowType, columns);
    }
}
