package io.sluice.plugin.hive;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinition;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MetastorePartitionFilterTest {

    private static final Map<String, String> KEYS =
            new java.util.LinkedHashMap<>(Map.of("dt", "string", "region", "varchar(8)", "hr", "int"));
    private static final FieldReferenceExpression DT = new FieldReferenceExpression("dt", DataTypes.STRING(), 0, 0);
    private static final FieldReferenceExpression REGION =
            new FieldReferenceExpression("region", DataTypes.VARCHAR(8), 0, 1);
    private static final FieldReferenceExpression HR = new FieldReferenceExpression("hr", DataTypes.INT(), 0, 2);

    private static CallExpression call(BuiltInFunctionDefinition f, ResolvedExpression... args) {
        return CallExpression.permanent(f, List.of(args), DataTypes.BOOLEAN());
    }

    private static ValueLiteralExpression lit(Object v) {
        return new ValueLiteralExpression(v);
    }

    @Test
    void equalitiesOfStringColumnsBecomeTheMetastoresFilter() {
        List<Expression> filters = List.of(
                call(BuiltInFunctionDefinitions.IN, DT, lit("2024-01-01"), lit("it's")),
                call(
                        BuiltInFunctionDefinitions.OR,
                        call(BuiltInFunctionDefinitions.EQUALS, lit("eu"), REGION),
                        call(BuiltInFunctionDefinitions.EQUALS, DT, lit("say \"x\""))));
        MetastorePartitionFilter filter =
                MetastorePartitionFilter.of(KEYS, filters).orElseThrow();
        assertThat(filter.expression())
                .isEqualTo("(dt = \"2024-01-01\" or dt = \"it's\") and (region = \"eu\" or dt = 'say \"x\"')");
        assertThat(filter.matches(Map.of("dt", "2024-01-01", "region", "eu", "hr", "1")))
                .isTrue();
        assertThat(filter.matches(Map.of("dt", "2024-01-01", "region", "EU", "hr", "1")))
                .as("exact, whatever the metastore's collation")
                .isFalse();
        assertThat(filter.matches(Map.of("dt", "2024-01-02", "region", "eu", "hr", "1")))
                .isFalse();
    }

    /** Ranges, other types, negations, functions and unquotable values are left to the planner. */
    @Test
    void anythingButEqualitiesOfStringsIsNotExpressed() {
        for (ResolvedExpression refused : List.of(
                call(BuiltInFunctionDefinitions.GREATER_THAN, DT, lit("2024-01-01")),
                call(BuiltInFunctionDefinitions.EQUALS, HR, lit(1)),
                call(BuiltInFunctionDefinitions.NOT, call(BuiltInFunctionDefinitions.EQUALS, DT, lit("a"))),
                call(BuiltInFunctionDefinitions.LIKE, DT, lit("2024%")),
                call(BuiltInFunctionDefinitions.EQUALS, DT, lit("both ' and \"")))) {
            List<Expression> filters = List.of(call(BuiltInFunctionDefinitions.EQUALS, REGION, lit("eu")), refused);
            assertThat(MetastorePartitionFilter.of(KEYS, filters))
                    .as(refused.asSummaryString())
                    .isEmpty();
        }
    }
}
