package io.sluice.runtime.source.lookup;

import io.sluice.runtime.config.SluiceOptions;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.types.logical.RowType;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Client-side planning of a temporal join's lookup, the same for both table sources: the join key
 * columns Flink asks for, and how long one load of the table serves (the target's interval, else
 * {@code lookup.join.cache.ttl}).
 */
public final class LookupPlanner {

    private LookupPlanner() {}

    /**
     * The lookup function of a table.
     *
     * @param table the table's name, for logs and errors
     * @param rowType the table source's produced rows (after projection push-down)
     * @param keys Flink's lookup keys ({@code LookupContext.getKeys()}): paths into {@code rowType}
     * @param targetInterval the target's reload interval, if it gives one
     * @param options the table's options ({@code lookup.join.cache.ttl})
     * @throws IllegalArgumentException for a key inside a nested column or a reload interval that is
     *     not positive
     */
    public static SluiceLookupFunction function(
            String table,
            TableLoader loader,
            RowType rowType,
            int[][] keys,
            Optional<Duration> targetInterval,
            Map<String, String> options) {
        return new SluiceLookupFunction(
                table, loader, rowType, keyColumns(table, rowType, keys), reloadInterval(targetInterval, options));
    }

    /** The key columns' positions; a Sluice table does not push nested projections, so keys are top-level. */
    static int[] keyColumns(String table, RowType rowType, int[][] keys) {
        int[] columns = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            if (keys[i].length != 1) {
                throw new IllegalArgumentException("Temporal table " + table
                        + " is joined on a field nested in a column; join it on columns: " + rowType);
            }
            columns[i] = keys[i][0];
        }
        return columns;
    }

    /** The target's interval, else {@code lookup.join.cache.ttl}; positive. */
    public static Duration reloadInterval(Optional<Duration> targetInterval, Map<String, String> options) {
        Duration interval =
                targetInterval.orElseGet(() -> Configuration.fromMap(options).get(SluiceOptions.LOOKUP_JOIN_CACHE_TTL));
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException(
                    targetInterval.isPresent()
                            ? "The target's reload interval of a temporal join must be positive, not " + interval
                            : "Invalid value '" + options.get(SluiceOptions.LOOKUP_JOIN_CACHE_TTL.key())
                                    + "' for option '" + SluiceOptions.LOOKUP_JOIN_CACHE_TTL.key()
                                    + "': must be positive");
        }
        return interval;
    }
}
