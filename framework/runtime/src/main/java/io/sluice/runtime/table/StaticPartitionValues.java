package io.sluice.runtime.table;

import io.sluice.spi.PathNames;
import io.sluice.spi.partition.PartitionPaths;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;

/**
 * Checks the values of {@code INSERT ... PARTITION (k = 'v')} against the partition columns'
 * types before a job starts. The planner casts each value to its column's type inside the job,
 * where a value that is no number fails every task with a bare {@code NumberFormatException}
 * that names neither the column nor the statement; here the error names both the column and the
 * value, and nothing is written.
 */
final class StaticPartitionValues {

    private StaticPartitionValues() {}

    static void check(RowType rowType, Map<String, String> partition) {
        for (Map.Entry<String, String> e : partition.entrySet()) {
            int index = rowType.getFieldIndex(e.getKey());
            if (index < 0 || e.getValue() == null) {
                continue; // the planner reports unknown columns itself
            }
            String directory = PartitionPaths.escape(e.getKey()) + "=" + PartitionPaths.escape(e.getValue());
            if (PathNames.utf8Length(directory) > PathNames.MAX_NAME_BYTES) {
                // the writer checks dynamic values alike, at their first row
                throw new ValidationException("Static partition value of column '" + e.getKey()
                        + "' is too long for a file name: its directory " + PathNames.nameProblem(directory)
                        + " (the value is " + PathNames.utf8Length(e.getValue()) + " bytes)");
            }
            LogicalType type = rowType.getTypeAt(index);
            if (!fits(e.getValue().trim(), type)) {
                throw new ValidationException("Static partition value '" + e.getValue() + "' of column '" + e.getKey()
                        + "' is not a value of its type " + type.asSummaryString());
            }
        }
    }

    private static boolean fits(String value, LogicalType type) {
        try {
            switch (type.getTypeRoot()) {
                case TINYINT:
                    return inRange(Long.parseLong(value), Byte.MIN_VALUE, Byte.MAX_VALUE);
                case SMALLINT:
                    return inRange(Long.parseLong(value), Short.MIN_VALUE, Short.MAX_VALUE);
                case INTEGER:
                    return inRange(Long.parseLong(value), Integer.MIN_VALUE, Integer.MAX_VALUE);
                case BIGINT:
                    Long.parseLong(value);
                    return true;
                case FLOAT:
                case DOUBLE:
                    Double.parseDouble(value);
                    return true;
                case DECIMAL:
                    DecimalType decimal = (DecimalType) type;
                    BigDecimal parsed = new BigDecimal(value);
                    // digits before the point beyond precision - scale do not fit; more after it are rounded
                    return parsed.precision() - parsed.scale() <= decimal.getPrecision() - decimal.getScale();
                case BOOLEAN:
                    String b = value.toLowerCase(Locale.ROOT);
                    return b.equals("true") || b.equals("false");
                case DATE:
                    LocalDate.parse(value);
                    return true;
                default:
                    return true; // strings, and types whose casts the planner reports itself
            }
        } catch (NumberFormatException | DateTimeParseException e) {
            return false;
        }
    }

    private static boolean inRange(long v, long min, long max) {
        return v >= min && v <= max;
    }
}
