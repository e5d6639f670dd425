package io.sluice.plugin.hive;

import io.sluice.spi.Payload;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinition;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class HivePartitionFiltersTest {

    private static final List<String> KEYS = List.of("dt", "hr");
    private static final FieldReferenceExpression DT = new FieldReferenceExpression("dt", DataTypes.STRING(), 0, 2);
    private static final FieldReferenceExpression HR = new FieldReferenceExpression("hr", DataTypes.INT(), 0, 3);
    private static final FieldReferenceExpression ID = new FieldReferenceExpression("id", DataTypes.BIGINT(), 0, 0);

    private static CallExpression call(BuiltInFunctionDefinition f, ResolvedExpression... args) {
        return CallExpression.permanent(f, List.of(args), DataTypes.BOOLEAN());
    }

    private static ValueLiteralExpression lit(Object v) {
        return new ValueLiteralExpression(v);
    }

    @Test
    void equalitiesInListsAndOrsOfOneColumnPinIt() throws Exception {
        Optional<Payload> pushed = HivePartitionFilters.of(
                KEYS,
                List.of(
                        call(BuiltInFunctionDefinitions.EQUALS, lit("2026-12-01"), DT), // literal first
                        call(
                                BuiltInFunctionDefinitions.OR,
                                call(BuiltInFunctionDefinitions.EQUALS, HR, lit(1)),
                                call(BuiltInFunctionDefinitions.EQUALS, HR, lit(2))),
                        call(BuiltInFunctionDefinitions.GREATER_THAN, ID, lit(5L)))); // not a partition column
        Map<String, Set<String>> allowed = HivePartitionFilters.allowed(pushed.orElseThrow());
        assertThat(allowed).containsOnly(Map.entry("dt", Set.of("2026-12-01")), Map.entry("hr", Set.of("1", "2")));
        assertThat(HivePartitionFilters.matches(Map.of("dt", "2026-12-01", "hr", "2"), allowed))
                .isTrue();
        assertThat(HivePartitionFilters.matches(Map.of("dt", "2026-12-01", "hr", "3"), allowed))
                .isFalse();
        assertThat(HivePartitionFilters.matches(Map.of("dt", "2026-12-02", "hr", "1"), allowed))
                .isFalse();
    }

    @Test
    void twoConjunctsOnOneColumnMustBothHold() throws Exception {
        Optional<Payload> pushed = HivePartitionFilters.of(
                KEYS,
                List.of(
                        call(BuiltInFunctionDefinitions.IN, DT, lit("a"), lit("b")),
                        call(BuiltInFunctionDefinitions.EQUALS, DT, lit("b"))));
        assertThat(HivePartitionFilters.allowed(pushed.orElseThrow())).containsOnly(Map.entry("dt", Set.of("b")));
    }

    @Test
    void whatDoesNotPinAPartitionColumnIsLeftToFlink() {
        assertThat(HivePartitionFilters.of(
                        KEYS,
                        List.of(
                                // an OR across two columns, a range, a date literal, a non-partition column
                                call(
                                        BuiltInFunctionDefinitions.OR,
                                        call(BuiltInFunctionDefinitions.EQUALS, DT, lit("a")),
                                        call(BuiltInFunctionDefinitions.EQUALS, HR, lit(1))),
                                call(BuiltInFunctionDefinitions.GREATER_THAN, DT, lit("a")),
                                call(BuiltInFunctionDefinitions.EQUALS, DT, lit(java.time.LocalDate.of(2026, 12, 1))),
                                call(BuiltInFunctionDefinitions.EQUALS, ID, lit(1L)))))
                .isEmpty();
    }

    @Test
    void aPayloadOfAnotherVersionIsRefusedNamingBoth() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> HivePartitionFilters.allowed(new Payload(2, new byte[0])))
                .hasMessageContaining("version 2")
                .hasMessageContaining("version 1");
    }
}
