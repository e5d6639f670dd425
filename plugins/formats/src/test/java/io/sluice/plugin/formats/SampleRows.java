package io.sluice.plugin.formats;

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
final class SampleRows {

    static final RowType ROW_TYPE = RowType.of(
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

    static final String TEXT = "a, \"quoted\" välue";
    static final int INT = 42;
    static final long LONG = 9_000_000_000L;
    static final double DOUBLE = 1.5;
    static final BigDecimal DECIMAL = new BigDecimal("12.34");
    static final LocalDate DATE = LocalDate.of(2024, 2, 29);
    static final LocalDateTime TIMESTAMP = LocalDateTime.of(2024, 2, 29, 13, 45, 1, 123_000_000);

    static final BigDecimal NEGATIVE_DECIMAL = new BigDecimal("-0.05");
    static final LocalDate NEGATIVE_DATE = LocalDate.of(1969, 12, 31);
    static final LocalDateTime NEGATIVE_TIMESTAMP = LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000);

    /** Every column set. */
    static final RowData FULL = GenericRowData.of(
            StringData.fromString(TEXT),
            INT,
            LONG,
            DOUBLE,
            true,
            DecimalData.fromBigDecimal(DECIMAL, 10, 2),
            (int) DATE.toEpochDay(),
            TimestampData.fromLocalDateTime(TIMESTAMP));

    /** Every column null. */
    static final RowData NULLS = new GenericRowData(ROW_TYPE.getFieldCount());

    /** Negative numbers and values before the epoch. */
    static final RowData NEGATIVE = GenericRowData.of(
            StringData.fromString("plain"),
            -7,
            -1L,
            -0.25,
            false,
            DecimalData.fromBigDecimal(NEGATIVE_DECIMAL, 10, 2),
            (int) NEGATIVE_DATE.toEpochDay(),
            TimestampData.fromLocalDateTime(NEGATIVE_TIMESTAMP));

    static final List<RowData> ALL = List.of(FULL, NULLS, NEGATIVE);

    private SampleRows() {}

    /** The bytes an encoder writes for the rows, one after another into one stream. */
    static byte[] encode(Encoder<RowData> encoder, List<RowData> rows) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (RowData row : rows) {
            encoder.encode(row, out);
        }
        return out.toByteArray();
    }
}
