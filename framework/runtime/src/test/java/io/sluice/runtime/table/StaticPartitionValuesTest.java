package io.sluice.runtime.table;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StaticPartitionValuesTest {

    private static final RowType ROW = RowType.of(
            new LogicalType[] {
                new VarCharType(VarCharType.MAX_LENGTH),
                new IntType(),
                new SmallIntType(),
                new BigIntType(),
                new DecimalType(5, 2),
                new BooleanType(),
                new DateType()
            },
            new String[] {"s", "i", "small", "big", "d", "b", "day"});

    @Test
    void valuesOfTheColumnsTypesPass() {
        assertThatCode(() -> StaticPartitionValues.check(
                        ROW,
                        Map.of(
                                "s", "any ../thing",
                                "i", "-2147483648",
                                "small", "32767",
                                "big", "9000000000",
                                "d", "123.456",
                                "b", "TRUE",
                                "day", "2026-12-01")))
                .doesNotThrowAnyException();
    }

    @Test
    void aValueOutsideItsTypeIsRefusedNamingColumnValueAndType() {
        assertRefused("i", "twenty", "INT");
        assertRefused("i", "2147483648", "INT");
        assertRefused("small", "40000", "SMALLINT");
        assertRefused("big", "1.5", "BIGINT");
        assertRefused("d", "1234.5", "DECIMAL(5, 2)");
        assertRefused("b", "yes", "BOOLEAN");
        assertRefused("day", "2026-13-01", "DATE");
    }

    private static void assertRefused(String column, String value, String type) {
        assertThatThrownBy(() -> StaticPartitionValues.check(ROW, Map.of(column, value)))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'" + column + "'")
                .hasMessageContaining("'" + value + "'")
                .hasMessageContaining(type);
    }
}
