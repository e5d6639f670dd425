package io.sluice.runtime.source.lookup;

import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The keys and the reload interval of a temporal join, as the client decides them. */
class LookupPlannerTest {

    private static final RowType ROWS =
            RowType.of(new LogicalType[] {new BigIntType(), new VarCharType(10)}, new String[] {"k", "v"});

    @Test
    void theReloadIntervalIsTheTargetsElseTheCacheTtlWhoseDefaultIsUpstreamHives() {
        assertThat(LookupPlanner.reloadInterval(Optional.empty(), Map.of())).isEqualTo(Duration.ofMinutes(60));
        assertThat(LookupPlanner.reloadInterval(Optional.empty(), Map.of("lookup.join.cache.ttl", "2 s")))
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(LookupPlanner.reloadInterval(
                        Optional.of(Duration.ofHours(12)), Map.of("lookup.join.cache.ttl", "2 s")))
                .isEqualTo(Duration.ofHours(12));
    }

    @Test
    void aReloadIntervalThatIsNotPositiveIsAnErrorNamingTheOption() {
        assertThatThrownBy(() -> LookupPlanner.reloadInterval(Optional.empty(), Map.of("lookup.join.cache.ttl", "0 s")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'lookup.join.cache.ttl'")
                .hasMessageContaining("'0 s'")
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> LookupPlanner.reloadInterval(Optional.of(Duration.ofSeconds(-1)), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("target");
    }

    @Test
    void keysAreColumnsNotFieldsInsideThem() {
        assertThat(LookupPlanner.keyColumns("db.t", ROWS, new int[][] {{1}, {0}}))
                .containsExactly(1, 0);
        assertThatThrownBy(() -> LookupPlanner.keyColumns("db.t", ROWS, new int[][] {{1, 0}}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db.t")
                .hasMessageContaining("nested");
    }
}
