package io.sluice.runtime.source.lookup;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.util.FlinkRuntimeException;
import org.apache.flink.util.clock.ManualClock;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The cache of a temporal join on a table the test changes and breaks at will, on a clock it moves
 * by hand: what one load serves, when the table is read again, and what a failed load leaves.
 */
class LookupCacheTest {

    private static final RowType ROWS = RowType.of(
            new org.apache.flink.table.types.logical.LogicalType[] {new BigIntType(), new VarCharType(100)},
            new String[] {"k", "v"});

    private static final Duration INTERVAL = Duration.ofMinutes(10);

    private final ManualClock clock = new ManualClock();
    private final Table table = new Table();

    @Test
    void oneLoadServesEveryRowOfAKeyAndNullKeysMatchNothing() {
        table.set(row(1L, "a"), row(2L, "b"), row(2L, "b2"), row(null, "no key"));
        LookupCache cache = cache();
        cache.loadFirst();

        assertThat(values(cache, 1L)).containsExactly("a");
        assertThat(values(cache, 2L)).containsExactly("b", "b2");
        assertThat(values(cache, 3L)).isEmpty();
        assertThat(values(cache, null)).isEmpty();
        assertThat(cache.size()).isEqualTo(3);
        assertThat(table.loads).isEqualTo(1);
    }

    @Test
    void rowsAreCopiedBecauseReadersReuseTheirRowObjects() {
        table.set(row(1L, "a"), row(2L, "b"), row(3L, "c"));
        table.reuseOneRow = true;
        LookupCache cache = cache();
        cache.loadFirst();

        assertThat(values(cache, 1L)).containsExactly("a");
        assertThat(values(cache, 2L)).containsExactly("b");
        assertThat(values(cache, 3L)).containsExactly("c");
    }

    @Test
    void theTableIsReadAgainOnlyOnceTheIntervalHasPassed() {
        table.set(row(1L, "old"));
        LookupCache cache = cache();
        cache.loadFirst();
        table.set(row(1L, "new"), row(2L, "added"));

        clock.advanceTime(INTERVAL.minusMillis(1));
        assertThat(values(cache, 1L)).containsExactly("old");
        assertThat(values(cache, 2L)).isEmpty();
        assertThat(table.loads).isEqualTo(1);

        clock.advanceTime(Duration.ofMillis(1));
        assertThat(values(cache, 1L)).containsExactly("new");
        assertThat(values(cache, 2L)).containsExactly("added");
        assertThat(table.loads).isEqualTo(2);
    }

    @Test
    void aFailedReloadKeepsTheLastVersionAndIsTriedAgainAfterADoublingDelay() {
        table.set(row(1L, "good"));
        LookupCache cache = cache();
        cache.loadFirst();
        table.set(row(1L, "newer"));
        table.failing = true;

        clock.advanceTime(INTERVAL);
        assertThat(values(cache, 1L)).containsExactly("good");
        assertThat(table.loads).isEqualTo(2);
        // not read again on every row: the first retry waits a second, the next one two
        clock.advanceTime(Duration.ofMillis(999));
        assertThat(values(cache, 1L)).containsExactly("good");
        assertThat(table.loads).isEqualTo(2);
        clock.advanceTime(Duration.ofMillis(1));
        assertThat(values(cache, 1L)).containsExactly("good");
        assertThat(table.loads).isEqualTo(3);
        clock.advanceTime(Duration.ofMillis(1999));
        assertThat(values(cache, 1L)).containsExactly("good");
        assertThat(table.loads).isEqualTo(3);
        clock.advanceTime(Duration.ofMillis(1));
        assertThat(values(cache, 1L)).containsExactly("good");
        assertThat(table.loads).isEqualTo(4);

        assertThat(cache.loads()).isEqualTo(4);
        assertThat(cache.loadFailures()).isEqualTo(3);

        table.failing = false;
        clock.advanceTime(Duration.ofSeconds(4));
        assertThat(values(cache, 1L)).containsExactly("newer");
        assertThat(table.loads).isEqualTo(5);
        assertThat(cache.loadFailures()).isEqualTo(3);
        // a good load serves a whole interval again
        clock.advanceTime(INTERVAL.minusMillis(1));
        assertThat(values(cache, 1L)).containsExactly("newer");
        assertThat(table.loads).isEqualTo(5);
    }

    @Test
    void theRetryDelayNeverExceedsTheInterval() {
        LookupCache cache = new LookupCache("db.t", table, keys(), ROWS, Duration.ofMillis(2500), clock, Duration.ZERO);
        assertThat(cache.retryDelayMillis(1)).isEqualTo(1000);
        assertThat(cache.retryDelayMillis(2)).isEqualTo(2000);
        assertThat(cache.retryDelayMillis(3)).isEqualTo(2500);
        assertThat(cache.retryDelayMillis(60)).isEqualTo(2500);
        assertThat(cache().retryDelayMillis(1000)).isEqualTo(INTERVAL.toMillis());
    }

    @Test
    void aLoadThatFailsHalfWayServesNoneOfItsRows() {
        table.set(row(1L, "old"), row(2L, "old"));
        LookupCache cache = cache();
        cache.loadFirst();
        table.set(row(1L, "new"), row(2L, "new"), row(3L, "new"));
        table.failAfterRows = 2;

        clock.advanceTime(INTERVAL);
        assertThat(values(cache, 1L)).containsExactly("old");
        assertThat(values(cache, 2L)).containsExactly("old");
        assertThat(values(cache, 3L)).isEmpty();
    }

    @Test
    void theFirstLoadIsTriedThreeTimesThenTheJoinFailsNamingTheTable() {
        table.failing = true;
        LookupCache cache = cache();

        assertThatThrownBy(cache::loadFirst)
                .isInstanceOf(FlinkRuntimeException.class)
                .hasMessageContaining("temporal table db.t")
                .hasMessageContaining("3 attempts")
                .hasMessageContaining("table unreadable")
                .hasRootCauseMessage("table unreadable");
        assertThat(table.loads).isEqualTo(LookupCache.FIRST_LOAD_ATTEMPTS);
        assertThat(cache.loadFailures()).isEqualTo(LookupCache.FIRST_LOAD_ATTEMPTS);
    }

    @Test
    void aFirstLoadThatSucceedsOnItsLastAttemptServes() {
        table.set(row(1L, "a"));
        table.failuresLeft = 2;
        LookupCache cache = cache();
        cache.loadFirst();

        assertThat(values(cache, 1L)).containsExactly("a");
        assertThat(table.loads).isEqualTo(3);
    }

    @Test
    void theIntervalMustBePositive() {
        assertThatThrownBy(() -> new LookupCache("db.t", table, keys(), ROWS, Duration.ZERO, clock, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db.t")
                .hasMessageContaining("positive");
    }

    private LookupCache cache() {
        return new LookupCache("db.t", table, keys(), ROWS, INTERVAL, clock, Duration.ZERO);
    }

    private static LookupKeys keys() {
        return new LookupKeys(ROWS, new int[] {0});
    }

    private static List<String> values(LookupCache cache, Long key) {
        Collection<RowData> rows = cache.lookup(GenericRowData.of(key));
        return rows.stream().map(r -> r.getString(1).toString()).collect(Collectors.toList());
    }

    private static GenericRowData row(Long key, String value) {
        return GenericRowData.of(key, StringData.fromString(value));
    }

    /** A table in memory: its rows now, and whether (and where) reading it fails. */
    private static final class Table implements TableLoader {
        private static final long serialVersionUID = 1L;

        List<GenericRowData> rows = new ArrayList<>();
        boolean failing;
        int failuresLeft;
        int failAfterRows = -1;
        boolean reuseOneRow;
        int loads;

        void set(GenericRowData... newRows) {
            rows = List.of(newRows);
        }

        @Override
        public void load(Consumer<RowData> consumer) throws IOException {
            loads++;
            if (failing || failuresLeft-- > 0) {
                throw new IOException("table unreadable");
            }
            GenericRowData reused = new GenericRowData(2);
            int handed = 0;
            for (GenericRowData row : rows) {
                if (handed++ == failAfterRows) {
                    throw new IOException("lost the connection half-way");
                }
                if (reuseOneRow) {
                    reused.setField(0, row.getField(0));
                    reused.setField(1, row.getField(1));
                    consumer.accept(reused);
                } else {
                    consumer.accept(row);
                }
            }
        }
    }
}
