package io.sluice.plugin.filesystem;

import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.FormatFactory;

import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.nio.charset.StandardCharsets;

/**
 * Test row format {@code lines}: writes the first column of each row plus {@code "\n"}, behind the
 * optional {@code lines.line-prefix}. Remembers the row type it was asked to encode.
 */
final class LinesFormatFactory implements FormatFactory {

    static final ConfigOption<String> LINE_PREFIX = ConfigOptions.key("line-prefix").stringType().defaultValue("");

    volatile RowType lastRowType;

    @Override
    public String identifier() {
        return "lines";
    }

    @Override
    public boolean isBulk() {
        return false;
    }

    @Override
    public Encoder<RowData> createEncoder(FormatContext context) {
        lastRowType = context.rowType();
        String prefix = context.options().get(LINE_PREFIX);
        return (row, stream) -> stream.write((prefix + row.getString(0) + "\n").getBytes(StandardCharsets.UTF_8));
    }
}
