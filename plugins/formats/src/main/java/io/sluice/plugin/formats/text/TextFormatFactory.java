package io.sluice.plugin.formats.text;

import io.sluice.plugin.formats.FileFormats;
import io.sluice.plugin.formats.OptionValues;
import io.sluice.spi.format.FormatContext;

import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.RowType;
import org.pf4j.Extension;

import java.nio.charset.Charset;
import java.util.Set;

/**
 * The {@code text} row format: one line per row, the value of the row's only column, ended by
 * {@code \n}; read back line by line ({@link TextLineFormat}). The row type must have exactly one
 * character string column ({@code STRING}, {@code VARCHAR} or {@code CHAR}).
 */
@Extension
public final class TextFormatFactory implements FileFormats.RowFile {

    /** The name users select this format by. */
    public static final String IDENTIFIER = "text";

    /** The character set the lines are written in. */
    public static final ConfigOption<String> CHARSET = ConfigOptions.key("charset")
            .stringType()
            .defaultValue("UTF-8")
            .withDescription("Character set of the written lines. Prefer UTF-16BE or UTF-16LE to"
                    + " UTF-16, which puts a byte order mark before every line.");

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(CHARSET);
    }

    @Override
    public Encoder<RowData> createEncoder(FormatContext context) {
        requireSingleStringColumn(context.rowType());
        Charset charset = OptionValues.charset(IDENTIFIER, context.options(), CHARSET);
        return new TextLineEncoder(charset);
    }

    @Override
    public StreamFormat<RowData> createStreamFormat(FormatContext context) {
        requireSingleStringColumn(context.rowType());
        Charset charset = OptionValues.charset(IDENTIFIER, context.options(), CHARSET);
        return new TextLineFormat(context.rowType(), charset);
    }

    private static void requireSingleStringColumn(RowType rowType) {
        if (rowType.getFieldCount() != 1 || !rowType.getTypeAt(0).is(LogicalTypeFamily.CHARACTER_STRING)) {
            throw new IllegalArgumentException(String.format(
                    "Format '%s' holds rows of exactly one STRING (VARCHAR or CHAR)"
                            + " column, but the row type is %s",
                    IDENTIFIER, rowType.asSummaryString()));
        }
    }
}
