package io.sluice.runtime.source.lookup;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.FlinkRuntimeException;
import org.apache.flink.util.clock.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One join subtask's copy of a temporal table: every row of one load, indexed by the join key,
 * served until the reload interval has passed; then the next lookup loads the table again.
 *
 * <p>A load is built aside and replaces the served version only when it is complete, so a lookup
 * never sees half a table. A reload that fails keeps the last good version: the failure is logged
 * (naming the table, never an option's value) and the load is tried again after a delay that
 * doubles with each failure in a row, from {@link #FIRST_RELOAD_RETRY} up to the reload interval,
 * so a table that stays unreadable is not read on every row. The first load has no version to
 * fall back on: it is tried {@link #FIRST_LOAD_ATTEMPTS} times, then the join fails with an error
 * naming the table.
 *
 * <p>Used by one thread (the join's task thread); not thread-safe.
 */
final class LookupCache {

    /** Attempts of the first load before the join fails. */
    static final int FIRST_LOAD_ATTEMPTS = 3;

    /** Delay before the first retry of a failed reload (the delay doubles after each further failure). */
    static final Duration FIRST_RELOAD_RETRY = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(LookupCache.class);

    private final String table;
    private final TableLoader loader;
    private final LookupKeys keys;
    private final RowDataSerializer rows;
    private final long reloadIntervalMillis;
    private final Clock clock;
    private final Duration firstLoadRetryDelay;

    private Map<RowData, List<RowData>> served = Collections.emptyMap();
    private long servedRows;
    private long loadedAt = -1; // clock time of the served version's load; -1 before the first
    private long nextLoadAt;
    private int failuresInARow;
    private long latestLoadMillis = -1; // how long the latest complete load took

    private final Counter hits = new SimpleCounter();
    private final Counter misses = new SimpleCounter();
    private final Counter loads = new SimpleCounter();
    private final Counter loadFailures = new SimpleCounter();

    /**
     * @param table the table's name, for logs and errors
     * @param rowType the rows the loader reads
     * @param firstLoadRetryDelay the wait before the second attempt of the first load (twice that
     *     before the third ...)
     */
    LookupCache(
            String table,
            TableLoader loader,
            LookupKeys keys,
            RowType rowType,
            Duration reloadInterval,
            Clock clock,
            Duration firstLoadRetryDelay) {
        if (reloadInterval.isNegative() || reloadInterval.isZero()) {
            throw new IllegalArgumentException(
                    "The reload interval of temporal table " + table + " must be positive: " + reloadInterval);
        }
        this.table = table;
        this.loader = loader;
        this.keys = keys;
        this.rows = new RowDataSerializer(rowType);
        this.reloadIntervalMillis = reloadInterval.toMillis();
        this.clock = clock;
        this.firstLoadRetryDelay = firstLoadRetryDelay;
    }

    /**
     * Loads the first version, trying {@link #FIRST_LOAD_ATTEMPTS} times.
     *
     * @throws FlinkRuntimeException naming the table when no attempt succeeds
     */
    void loadFirst() {
        Exception last = null;
        for (int attempt = 1; attempt <= FIRST_LOAD_ATTEMPTS; attempt++) {
            try {
                serve(load());
                return;
            } catch (Exception e) {
                loadFailures.inc();
                last = e;
                if (attempt < FIRST_LOAD_ATTEMPTS) {
                    Duration wait = firstLoadRetryDelay.multipliedBy(attempt);
                    LOG.warn(
                            "Cannot load temporal table {} (attempt {} of {}), trying again in {}",
                            table,
                            attempt,
                            FIRST_LOAD_ATTEMPTS,
                            wait,
                            e);
                    sleep(wait);
                }
            }
        }
        throw new FlinkRuntimeException(
                "Cannot load temporal table " + table + " for the join (" + FIRST_LOAD_ATTEMPTS + " attempts): "
                        + last.getMessage(),
                last);
    }

    /** The rows whose key equals {@code key} (none for a key with a null value), after a reload if one is due. */
    Collection<RowData> lookup(RowData key) {
        if (clock.relativeTimeMillis() >= nextLoadAt) {
            reload();
        }
        RowData normalized = keys.ofKey(key);
        List<RowData> found = normalized == null ? null : served.get(normalized);
        if (found == null) {
            misses.inc();
            return Collections.emptyList();
        }
        hits.inc();
        return found;
    }

    /**
     * Registers the cache's metrics under {@code group}, with the names of Flink's own lookup
     * caches ({@code CacheMetricGroup}): {@code hitCount}, {@code missCount}, {@code loadCount},
     * {@code numLoadFailures} (a growing count means the join serves an old version), {@code
     * latestLoadTime} (ms the latest complete load took) and {@code numCachedRecords}.
     */
    void registerMetrics(MetricGroup group) {
        group.counter("hitCount", hits);
        group.counter("missCount", misses);
        group.counter("loadCount", loads);
        group.counter("numLoadFailures", loadFailures);
        group.gauge("latestLoadTime", (Gauge<Long>) () -> latestLoadMillis);
        group.gauge("numCachedRecords", (Gauge<Long>) () -> servedRows);
    }

    /** Loads tried so far (the first included), and how many of them failed. */
    long loads() {
        return loads.getCount();
    }

    long loadFailures() {
        return loadFailures.getCount();
    }

    /** How many rows the served version holds (rows with a null key are not kept). */
    long size() {
        return servedRows;
    }

    private void reload() {
        try {
            serve(load());
        } catch (Exception e) {
            loadFailures.inc();
            failuresInARow++;
            long delay = retryDelayMillis(failuresInARow);
            nextLoadAt = clock.relativeTimeMillis() + delay;
            LOG.warn(
                    "Cannot reload temporal table {} ({} failure(s) in a row): the join keeps the {} rows loaded {} ms"
                            + " ago and tries again in {} ms",
                    table,
                    failuresInARow,
                    servedRows,
                    clock.relativeTimeMillis() - loadedAt,
                    delay,
                    e);
        }
    }

    /** The delay after the n-th failed reload in a row: doubling from the first retry's, at most the interval. */
    long retryDelayMillis(int failures) {
        long delay = FIRST_RELOAD_RETRY.toMillis();
        for (int i = 1; i < failures && delay < reloadIntervalMillis; i++) {
            delay *= 2;
        }
        return Math.min(delay, reloadIntervalMillis);
    }

    /** Reads the whole table into a new index; nothing is served from it before it is complete. */
    private Loaded load() throws Exception {
        loads.inc();
        long started = clock.relativeTimeMillis();
        Map<RowData, List<RowData>> index = new HashMap<>();
        long[] count = {0};
        loader.load(row -> {
            RowData copy = rows.copy(row); // readers reuse their row objects
            RowData key = keys.ofRow(copy);
            if (key != null) {
                index.computeIfAbsent(key, k -> new ArrayList<>(1)).add(copy);
                count[0]++;
            }
        });
        long took = clock.relativeTimeMillis() - started;
        LOG.info("Loaded temporal table {}: {} rows under {} keys in {} ms", table, count[0], index.size(), took);
        return new Loaded(index, count[0], took);
    }

    private void serve(Loaded loaded) {
        served = loaded.index;
        servedRows = loaded.rows;
        latestLoadMillis = loaded.millis;
        loadedAt = clock.relativeTimeMillis();
        nextLoadAt = loadedAt + reloadIntervalMillis;
        failuresInARow = 0;
    }

    private static void sleep(Duration wait) {
        try {
            Thread.sleep(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlinkRuntimeException("Interrupted while waiting to load a temporal table again", e);
        }
    }

    /** One complete load. */
    private static final class Loaded {
        final Map<RowData, List<RowData>> index;
        final long rows;
        final long millis;

        Loaded(Map<RowData, List<RowData>> index, long rows, long millis) {
            this.index = index;
            this.rows = rows;
            this.millis = millis;
        }
    }
}
