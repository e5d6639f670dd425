package io.sluice.plugin.filesystem;

import io.sluice.spi.FileOptions;
import io.sluice.spi.PathNames;
import io.sluice.spi.partition.PartitionPaths;
import io.sluice.spi.sink.BucketAssigner;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.pf4j.Extension;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * {@code partition}: Hive-style {@code k1=v1/k2=v2} directories from the partition keys. Values are
 * escaped ({@link PartitionPaths}), so a value holding {@code /} or {@code ..} stays one directory
 * below the base path; null and empty values go to {@code partition.default-name}.
 */
@Extension
public final class PartitionBucketAssignerFactory implements BucketAssignerFactory {

    @Override
    public String identifier() {
        return "partition";
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Collections.singleton(FileSystemOptions.PARTITION_DEFAULT_NAME);
    }

    @Override
    public BucketAssigner create(SinkContext context) {
        List<String> keys = context.partitionKeys();
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("Invalid '" + FileOptions.BUCKET_ASSIGNER.key()
                    + "' 'partition': the sink has no partition keys (PARTITIONED BY)");
        }
        RowType rowType = context.rowType();
        int[] positions = new int[keys.size()];
        RowData.FieldGetter[] getters = new RowData.FieldGetter[keys.size()];
        LogicalType[] types = new LogicalType[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            positions[i] = rowType.getFieldIndex(keys.get(i));
            if (positions[i] < 0) {
                throw new IllegalArgumentException("Partition key '" + keys.get(i) + "' is not a column of " + rowType);
            }
            types[i] = rowType.getTypeAt(positions[i]);
            getters[i] = RowData.createFieldGetter(types[i], positions[i]);
        }
        String defaultName = context.options().get(FileSystemOptions.PARTITION_DEFAULT_NAME);
        if (defaultName.isEmpty()) {
            // the filesystem target refuses it in validate; a target of another plugin that uses
            // this assigner gets the same answer instead of 'k=' directories
            throw PathNames.invalid(
                    FileSystemOptions.PARTITION_DEFAULT_NAME.key(),
                    defaultName,
                    "must not be empty: it names the directory of null and empty partition values");
        }
        String[] escapedKeys = keys.stream().map(PartitionPaths::escape).toArray(String[]::new);
        return (row, ctx) -> {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < getters.length; i++) {
                String value = format(getters[i].getFieldOrNull(row), types[i]);
                if (value == null || value.isEmpty()) {
                    value = defaultName;
                }
                if (i > 0) {
                    sb.append('/');
                }
                sb.append(escapedKeys[i]).append('=').append(PartitionPaths.escape(value));
            }
            return sb.toString();
        };
    }

    /** The partition value as SQL would print it. */
    static String format(Object value, LogicalType type) {
        if (value == null) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case DATE:
                return LocalDate.ofEpochDay((Integer) value).toString();
            case TIME_WITHOUT_TIME_ZONE:
                return sqlTime(LocalTime.ofNanoOfDay(((Integer) value) * 1_000_000L));
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                LocalDateTime t = ((TimestampData) value).toLocalDateTime();
                return t.toLocalDate() + " " + sqlTime(t.toLocalTime());
            case DECIMAL:
                return ((DecimalData) value).toBigDecimal().toPlainString();
            default:
                return value.toString();
        }
    }

    /**
     * java.time omits zero seconds ({@code 03:00}); SQL, and the default partition time
     * extractor's {@code yyyy-MM-dd HH:mm:ss}, always have them.
     */
    private static String sqlTime(LocalTime time) {
        return time.getSecond() == 0 && time.getNano() == 0 ? time + ":00" : time.toString();
    }
}
