package com.example.sluice.rolling;

import io.sluice.spi.sink.PartFileState;
import io.sluice.spi.sink.RollingPolicy;
import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.RowType;

import org.pf4j.Extension;

import java.util.Set;

/**
 * {@code marker}: a new file starts at each row whose column {@code sink.rolling-policy.marker.column}
 * starts with {@code sink.rolling-policy.marker.prefix}, so that each file holds one group of rows
 * that a marker row opens (a header, a batch start). Files never roll at a checkpoint or on time:
 * a row format keeps them open across checkpoints (a bulk format still rolls at each).
 */
@Extension
public final class MarkerRollingPolicyFactory implements RollingPolicyFactory {

    static final ConfigOption<String> COLUMN = ConfigOptions.key("sink.rolling-policy.marker.column")
            .stringType()
            .noDefaultValue()
            .withDescription("The character column whose value may open a group.");

    static final ConfigOption<String> PREFIX = ConfigOptions.key("sink.rolling-policy.marker.prefix")
            .stringType()
            .noDefaultValue()
            .withDescription("A value starting with it opens a group: the row starts a new file.");

    @Override
    public String identifier() {
        return "marker";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(COLUMN, PREFIX);
    }

    @Override
    public RollingPolicy create(SinkContext context) {
        String column = required(context, COLUMN);
        String prefix = required(context, PREFIX);
        if (prefix.isEmpty()) {
            throw new IllegalArgumentException("Invalid '" + PREFIX.key() + "' '': every row would open a group");
        }
        RowType rowType = context.rowType();
        int index = rowType.getFieldNames().indexOf(column);
        if (index < 0 || !rowType.getTypeAt(index).is(LogicalTypeFamily.CHARACTER_STRING)) {
            throw new IllegalArgumentException("Invalid '" + COLUMN.key() + "' '" + column
                    + "': not a character column of " + rowType.getFieldNames());
        }
        return new RollingPolicy() {
            @Override
            public boolean shouldRollOnCheckpoint(PartFileState partFile) {
                return false;
            }

            @Override
            public boolean shouldRollOnEvent(PartFileState partFile, RowData element) {
                // an empty file already starts the group
                return partFile.size() > 0
                        && !element.isNullAt(index)
                        && element.getString(index).toString().startsWith(prefix);
            }

            @Override
            public boolean shouldRollOnProcessingTime(PartFileState partFile, long currentTime) {
                return false;
            }
        };
    }

    private static String required(SinkContext context, ConfigOption<String> option) {
        return context.options().getOptional(option).orElseThrow(
                () -> new IllegalArgumentException("Missing '" + option.key() + "' for rolling policy 'marker'"));
    }
}
