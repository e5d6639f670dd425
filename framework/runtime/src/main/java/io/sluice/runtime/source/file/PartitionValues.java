package io.sluice.runtime.source.file;

import io.sluice.spi.partition.PartitionPaths;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The partition columns of a file, read from its {@code k=v} directories and converted to the
 * columns' types; {@code partition.default-name} stands for null.
 */
final class PartitionValues {

    private final List<String> keys;
    private final List<LogicalType> types;
    private final String defaultName;

    PartitionValues(List<String> keys, List<LogicalType> types, String defaultName) {
        this.keys = keys;
        this.types = types;
        this.defaultName = defaultName;
    }

    /**
     * The partition values of the file at {@code path}, in key order.
     *
     * @throws IllegalArgumentException if a key is missing from the path or a value does not fit
     *     its column's type, naming the file
     */
    GenericRowData of(Path path) {
        LinkedHashMap<String, String> spec = new LinkedHashMap<>();
        for (Path p = path.getParent(); p != null && !p.getName().isEmpty(); p = p.getParent()) {
            String name = p.getName();
            int eq = name.indexOf('=');
            if (eq > 0) {
                LinkedHashMap<String, String> one = PartitionPaths.spec(name);
                one.forEach(spec::putIfAbsent);
            }
        }
        GenericRowData row = new GenericRowData(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            if (!spec.containsKey(key)) {
                throw new IllegalArgumentException("File " + path + " is not under a '" + key + "=...' directory");
            }
            String value = spec.get(key);
            try {
                row.setField(i, value.equals(defaultName) ? null : convert(value, types.get(i)));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(
                        "Partition value " + key + "='" + value + "' of file " + path + " is not a " + types.get(i), e);
            }
        }
        return row;
    }

    private static Object convert(String value, LogicalType type) {
        switch (type.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
                return StringData.fromString(value);
            case BOOLEAN:
                return Boolean.parseBoolean(value);
            case TINYINT:
                return Byte.parseByte(value);
            case SMALLINT:
                return Short.parseShort(value);
            case INTEGER:
                return Integer.parseInt(value);
            case BIGINT:
                return Long.parseLong(value);
            case FLOAT:
                return Float.parseFloat(value);
            case DOUBLE:
                return Double.parseDouble(value);
            case DECIMAL:
                DecimalType d = (DecimalType) type;
                return DecimalData.fromBigDecimal(new BigDecimal(value), d.getPrecision(), d.getScale());
            case DATE:
                return (int) LocalDate.parse(value).toEpochDay();
            case TIME_WITHOUT_TIME_ZONE:
                return (int) (LocalTime.parse(value).toNanoOfDay() / 1_000_000L);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return TimestampData.fromLocalDateTime(LocalDateTime.parse(value.replace(' ', 'T')));
            default:
                throw new IllegalArgumentException("partition columns of type " + type + " are not supported");
        }
    }
}
