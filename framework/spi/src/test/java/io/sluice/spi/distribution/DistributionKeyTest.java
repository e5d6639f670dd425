package io.sluice.spi.distribution;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The bytes of a distribution key sort as the values do, column by column, and are equal exactly
 * when the values are: checked on random rows from a printed seed.
 */
class DistributionKeyTest {

    private static final RowType TYPE = RowType.of(
            new org.apache.flink.table.types.logical.LogicalType[] {
                new IntType(),
                new BigIntType(),
                new DoubleType(),
                new VarCharType(VarCharType.MAX_LENGTH),
                new TimestampType(6),
                new DecimalType(12, 3)
            },
            new String[] {"i", "l", "d", "s", "ts", "dec"});

    /** One column at a time, then all six: sign of the byte comparison equals sign of the value comparison. */
    @Test
    void byteOrderIsValueOrderOnRandomRows() {
        long seed = Long.getLong("sluice.test.seed", System.nanoTime());
        System.out.println("DistributionKeyTest seed " + seed + " (-Dsluice.test.seed to rerun)");
        Random random = new Random(seed);
        List<GenericRowData> rows = new ArrayList<>();
        for (int n = 0; n < 400; n++) {
            rows.add(randomRow(random));
        }
        List<List<String>> keys = new ArrayList<>();
        for (String column : TYPE.getFieldNames()) {
            keys.add(List.of(column));
        }
        keys.add(List.of("s", "i"));
        keys.add(TYPE.getFieldNames());
        for (List<String> columns : keys) {
            DistributionKey key = DistributionKey.ofColumns(TYPE, columns);
            Comparator<GenericRowData> byValues = valueOrder(columns);
            for (int a = 0; a < rows.size(); a++) {
                for (int b = a; b < rows.size(); b += 7) {
                    int expected = Integer.signum(byValues.compare(rows.get(a), rows.get(b)));
                    int actual = Integer.signum(Arrays.compareUnsigned(key.of(rows.get(a)), key.of(rows.get(b))));
                    assertThat(actual)
                            .as("seed %d, key %s, rows %s and %s", seed, columns, rows.get(a), rows.get(b))
                            .isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void aStringThatIsAPrefixOfAnotherSortsFirstWhateverFollows() {
        DistributionKey key = DistributionKey.ofColumns(TYPE, List.of("s", "i"));
        byte[] shortFirst = key.of(row(Integer.MAX_VALUE, 0L, 0.0, "ab", 0L, 0L, 0));
        byte[] longer = key.of(row(Integer.MIN_VALUE, 0L, 0.0, "ab\u0000", 0L, 0L, 0));
        assertThat(Arrays.compareUnsigned(shortFirst, longer)).isNegative();
    }

    @Test
    void columnsThatCannotBeOrderedAreNamed() {
        RowType withArray = RowType.of(
                new org.apache.flink.table.types.logical.LogicalType[] {new ArrayType(new IntType())},
                new String[] {"tags"});
        assertThatThrownBy(() -> DistributionKey.ofColumns(withArray, List.of("tags")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'tags'");
        assertThatThrownBy(() -> DistributionKey.ofColumns(TYPE, List.of("missing")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'missing'");
        RowType wide = RowType.of(
                new org.apache.flink.table.types.logical.LogicalType[] {new DecimalType(30, 2)},
                new String[] {"amount"});
        assertThatThrownBy(() -> DistributionKey.ofColumns(wide, List.of("amount")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'amount'")
                .hasMessageContaining("18");
    }

    private static GenericRowData randomRow(Random random) {
        // small domains so that equal values occur; nulls in every column
        Integer i = random.nextInt(10) == 0
                ? null
                : random.nextInt(21) - 10 + (random.nextBoolean() ? 0 : Integer.MIN_VALUE / 2);
        Long l = random.nextInt(10) == 0
                ? null
                : (long) (random.nextInt(41) - 20) * (random.nextBoolean() ? 1 : Long.MAX_VALUE / 64);
        Double d = random.nextInt(10) == 0 ? null : (random.nextInt(21) - 10) * (random.nextBoolean() ? 0.25 : 1e300);
        String s = random.nextInt(10) == 0 ? null : randomString(random);
        Long ts = random.nextInt(10) == 0 ? null : (long) (random.nextInt(21) - 10) * 86_400_000L;
        Long dec = random.nextInt(10) == 0 ? null : (long) random.nextInt(2001) - 1000;
        Integer nanos = random.nextInt(3) * 1000;
        return row(i, l, d, s, ts, dec, nanos);
    }

    private static String randomString(Random random) {
        String alphabet = "a\u0000b\u00e9\uffff";
        StringBuilder b = new StringBuilder();
        int length = random.nextInt(4);
        for (int k = 0; k < length; k++) {
            b.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return b.toString();
    }

    private static GenericRowData row(
            Integer i, Long l, Double d, String s, Long tsMillis, Long decUnscaled, Integer nanos) {
        return GenericRowData.of(
                i,
                l,
                d,
                s == null ? null : StringData.fromString(s),
                tsMillis == null ? null : TimestampData.fromEpochMillis(tsMillis, nanos),
                decUnscaled == null ? null : DecimalData.fromUnscaledLong(decUnscaled, 12, 3));
    }

    /** Nulls first; strings by their UTF-8 bytes, unsigned (as Iceberg and Flink's binary order do). */
    private static Comparator<GenericRowData> valueOrder(List<String> columns) {
        Comparator<GenericRowData> order = (x, y) -> 0;
        for (String column : columns) {
            int pos = TYPE.getFieldIndex(column);
            Comparator<GenericRowData> one = (x, y) -> {
                Object a = x.getField(pos);
                Object b = y.getField(pos);
                if (a == null || b == null) {
                    return a == null ? (b == null ? 0 : -1) : 1;
                }
                if (a instanceof StringData) {
                    return Arrays.compareUnsigned(((StringData) a).toBytes(), ((StringData) b).toBytes());
                }
                if (a instanceof DecimalData) {
                    return ((DecimalData) a).toBigDecimal().compareTo(((DecimalData) b).toBigDecimal());
                }
                if (a instanceof Double) {
                    return Double.compare((Double) a, (Double) b);
                }
                @SuppressWarnings("unchecked")
                Comparable<Object> c = (Comparable<Object>) a;
                return c.compareTo(b);
            };
            order = order.thenComparing(one);
        }
        return order;
    }
}
