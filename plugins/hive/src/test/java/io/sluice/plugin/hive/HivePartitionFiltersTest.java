package io.sluice.plugin.hive;

import io.sluice.spi.Payload;

import org.apache.flink.core.memory.DataOutputSerializer;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    private static HivePartitionFilters filters(ResolvedExpression... conjuncts) throws Exception {
        Optional<Payload> pushed = HivePartitionFilters.of(KEYS, List.of(conjuncts));
        assertThat(pushed).isPresent();
        return HivePartitionFilters.read(pushed.get());
    }

    private static Map<String, String> partition(String dt, String hr) {
        java.util.HashMap<String, String> spec = new java.util.HashMap<>();
        spec.put("dt", dt);
        spec.put("hr", hr);
        return spec;
    }

    @Test
    void equalitiesInListsAndOrsOfOneColumnPinIt() throws Exception {
        HivePartitionFilters filters = filters(
                call(BuiltInFunctionDefinitions.EQUALS, lit("2026-12-01"), DT), // literal first
                call(
                        BuiltInFunctionDefinitions.OR,
                        call(BuiltInFunctionDefinitions.EQUALS, HR, lit(1)),
                        call(BuiltInFunctionDefinitions.EQUALS, HR, lit(2))),
                call(BuiltInFunctionDefinitions.GREATER_THAN, ID, lit(5L))); // not a partition column
        assertThat(filters.matches(partition("2026-12-01", "2"))).isTrue();
        assertThat(filters.matches(partition("2026-12-01", "02")))
                .as("by value")
                .isTrue();
        assertThat(filters.matches(partition("2026-12-01", "3"))).isFalse();
        assertThat(filters.matches(partition("2026-12-02", "1"))).isFalse();
    }

    @Test
    void rangesInListsAndNegationsOfPartitionColumnsPrune() throws Exception {
        HivePartitionFilters filters = filters(
                call(BuiltInFunctionDefinitions.GREATER_THAN, DT, lit("2026-12-01")),
                call(BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL, lit(10), HR), // 10 <= hr
                call(BuiltInFunctionDefinitions.NOT, call(BuiltInFunctionDefinitions.IN, HR, lit(12), lit(13))));
        assertThat(filters.matches(partition("2026-12-02", "10"))).isTrue();
        assertThat(filters.matches(partition("2026-12-02", "9"))).isFalse();
        assertThat(filters.matches(partition("2026-12-01", "10"))).isFalse();
        assertThat(filters.matches(partition("2026-12-02", "12"))).isFalse();
        assertThat(filters.matches(partition("2026-12-02", "14"))).isTrue();
    }

    @Test
    void anOrAcrossColumnsIsEvaluatedWhole() throws Exception {
        HivePartitionFilters filters = filters(call(
                BuiltInFunctionDefinitions.OR,
                call(
                        BuiltInFunctionDefinitions.AND,
                        call(BuiltInFunctionDefinitions.LESS_THAN, DT, lit("2026-12-02")),
                        call(BuiltInFunctionDefinitions.EQUALS, HR, lit(1))),
                call(BuiltInFunctionDefinitions.NOT_EQUALS, DT, lit("2026-12-01"))));
        assertThat(filters.matches(partition("2026-12-01", "1"))).isTrue();
        assertThat(filters.matches(partition("2026-12-01", "2"))).isFalse();
        assertThat(filters.matches(partition("2026-12-03", "2"))).isTrue();
    }

    /** Strings compare as Flink compares them: by UTF-8 bytes, so a character past U+FFFF sorts last. */
    @Test
    void stringsCompareByTheirUtf8Bytes() throws Exception {
        HivePartitionFilters filters = filters(call(BuiltInFunctionDefinitions.GREATER_THAN, DT, lit("\uFFFD")));
        assertThat(filters.matches(partition("\uD83D\uDE00", "1"))).isTrue(); // an emoji: F0 9F 98 80 > EF BF BD
        assertThat(filters.matches(partition("z", "1"))).isFalse();
    }

    /**
     * What cannot be evaluated never prunes: a function of a column, a date literal, a data
     * column; in an OR it makes the whole OR unknown, under a NOT too. The default partition of
     * a numeric column (its rows read NULL) cannot be told either.
     */
    @Test
    void whatCannotBeToldKeepsThePartition() throws Exception {
        assertThat(HivePartitionFilters.of(
                        KEYS,
                        List.of(
                                call(BuiltInFunctionDefinitions.EQUALS, DT, lit(java.time.LocalDate.of(2026, 12, 1))),
                                call(BuiltInFunctionDefinitions.EQUALS, ID, lit(1L)),
                                call(
                                        BuiltInFunctionDefinitions.OR,
                                        call(BuiltInFunctionDefinitions.EQUALS, DT, lit("a")),
                                        call(BuiltInFunctionDefinitions.EQUALS, ID, lit(1L))),
                                call(
                                        BuiltInFunctionDefinitions.NOT,
                                        call(BuiltInFunctionDefinitions.LIKE, DT, lit("2026%"))))))
                .isEmpty();
        HivePartitionFilters filters = filters(call(
                BuiltInFunctionDefinitions.AND,
                call(BuiltInFunctionDefinitions.GREATER_THAN, HR, lit(5)),
                call(BuiltInFunctionDefinitions.EQUALS, ID, lit(1L))));
        assertThat(filters.matches(partition("x", "__HIVE_DEFAULT_PARTITION__")))
                .isTrue();
        assertThat(filters.matches(partition("x", null))).isTrue();
        assertThat(filters.matches(partition("x", "4"))).isFalse();
    }

    /** The first version's payload (values per pinned column), as a job graph of an older plugin holds it. */
    @Test
    void theFirstVersionIsStillRead() throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeInt(1);
        out.writeUTF("dt");
        out.writeInt(2);
        out.writeUTF("a");
        out.writeUTF("b");
        HivePartitionFilters filters = HivePartitionFilters.read(new Payload(1, out.getCopyOfBuffer()));
        assertThat(filters.matches(partition("b", "1"))).isTrue();
        assertThat(filters.matches(partition("c", "1"))).isFalse();
    }

    @Test
    void aPayloadOfAnotherVersionIsRefusedNamingBoth() {
        assertThatThrownBy(() -> HivePartitionFilters.read(new Payload(3, new byte[0])))
                .hasMessageContaining("version 3")
                .hasMessageContaining("versions 1 and 2");
    }
}
