package io.sluice.plugin.formats.testing;

import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

/** Rows of every common column type, with the values the readers should find. */
public final class SampleRows {

    public static final RowType ROW_TYPE = RowType.of(
            new LogicalType[] {
                new VarCharType(VarCharType.MAX_LENGTH),
                new IntType(),
                new BigIntType(),
                new DoubleType(),
                new BooleanType(),
                new DecimalType(10, 2),
                new DateType(),
                new TimestampType(3)
            },
            new String[] {"s", "i", "l", "d", "b", "dec", "dt", "ts"});

    public static final String TEXT = "a, \"quoted\" välue";
    public static final int INT = 42;
    public static final long LONG = 9_000_000_000L;
    public static final double DOUBLE = 1.5;
    public static final BigDecimal DECIMAL = new BigDecimal("12.34");
    public static final LocalDate DATE = LocalDate.of(2024, 2, 29);
    public static final LocalDateTime TIMESTAMP = LocalDateTime.of(2024, 2, 29, 13, 45, 1, 123_000_000);

    public static final BigDecimal NEGATIVE_DECIMAL = new BigDecimal("-0.05");
    public static final LocalDate NEGATIVE_DATE = LocalDate.of(1969, 12, 31);
    public static final LocalDateTime NEGATIVE_TIMESTAMP = LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000);

    /** Every column set. */
    public static final RowData FULL = GenericRowData.of(
            StringData.fromString(TEXT),
            INT,
            LONG,
            DOUBLE,
            true,
            DecimalData.fromBigDecimal(DECIMAL, 10, 2),
            (int) DATE.toEpochDay(),
            TimestampData.fromLocalDateTime(TIMESTAMP));

    /** Every column null. */
    public static final RowData NULLS = new GenericRowData(ROW_TYPE.getFieldCount());

    /** Negative numbers and values before the epoch. */
    public static final RowData NEGATIVE = GenericRowData.of(
            StringData.fromString("plain"),
            -7,
            -1L,
            -0.25,
            false,
            DecimalData.fromBigDecimal(NEGATIVE_DECIMAL, 10, 2),
            (int) NEGATIVE_DATE.toEpochDay(),
            TimestampData.fromLocalDateTime(NEGATIVE_TIMESTAMP));

    public static final List<RowData> ALL = List.of(FULL, NULLS, NEGATIVE);

    private SampleRows() {}

    /** The bytes an encoder writes for the rows, one after another into one stream. */
    public static byte[] encode(Encoder<RowData> encoder, List<RowData> rows) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (RowData row : rows) {
            encoder.encode(row, out);
        }
        return out.toByteArray();
    }
}
