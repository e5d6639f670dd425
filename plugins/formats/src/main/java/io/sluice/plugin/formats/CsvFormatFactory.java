package io.sluice.plugin.formats;

import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.FormatFactory;

import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.formats.csv.CsvFormatOptions;
import org.apache.flink.formats.csv.CsvRowDataSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.pf4j.Extension;

import java.util.Set;

/**
 * The {@code csv} row format, written by Flink's {@link CsvRowDataSerializationSchema}: one record
 * per line.
 *
 * <p>The options are Flink's CSV format options ({@link CsvFormatOptions}), so names and defaults
 * are the upstream ones; a table option {@code csv.field-delimiter} arrives as {@code
 * field-delimiter}. {@code allow-comments} and {@code ignore-parse-errors} only affect reading and
 * are accepted so that one set of table options serves both directions.
 */
@Extension
public final class CsvFormatFactory implements FormatFactory {

    /** The name users select this format by. */
    public static final String IDENTIFIER = "csv";

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(
                CsvFormatOptions.FIELD_DELIMITER,
                CsvFormatOptions.DISABLE_QUOTE_CHARACTER,
                CsvFormatOptions.QUOTE_CHARACTER,
                CsvFormatOptions.ALLOW_COMMENTS,
                CsvFormatOptions.IGNORE_PARSE_ERRORS,
                CsvFormatOptions.ARRAY_ELEMENT_DELIMITER,
                CsvFormatOptions.ESCAPE_CHARACTER,
                CsvFormatOptions.NULL_LITERAL,
                CsvFormatOptions.WRITE_BIGDECIMAL_IN_SCIENTIFIC_NOTATION);
    }

    @Override
    public boolean isBulk() {
        return false;
    }

    @Override
    public Encoder<RowData> createEncoder(FormatContext context) {
        return new SerializationSchemaEncoder(schema(context));
    }

    private static CsvRowDataSerializationSchema schema(FormatContext context) {
        ReadableConfig options = context.options();
        CsvRowDataSerializationSchema.Builder builder =
                new CsvRowDataSerializationSchema.Builder(context.rowType());

        builder.setFieldDelimiter(
                OptionValues.singleChar(IDENTIFIER, options, CsvFormatOptions.FIELD_DELIMITER));
        configureQuoting(options, builder);
        if (options.getOptional(CsvFormatOptions.ESCAPE_CHARACTER).isPresent()) {
            builder.setEscapeCharacter(
                    OptionValues.singleChar(
                            IDENTIFIER, options, CsvFormatOptions.ESCAPE_CHARACTER));
        }
        builder.setArrayElementDelimiter(options.get(CsvFormatOptions.ARRAY_ELEMENT_DELIMITER));
        options.getOptional(CsvFormatOptions.NULL_LITERAL).ifPresent(builder::setNullLiteral);
        builder.setWriteBigDecimalInScientificNotation(
                options.get(CsvFormatOptions.WRITE_BIGDECIMAL_IN_SCIENTIFIC_NOTATION));
        return builder.build();
    }

    private static void configureQuoting(
            ReadableConfig options, CsvRowDataSerializationSchema.Builder builder) {
        boolean disabled = options.get(CsvFormatOptions.DISABLE_QUOTE_CHARACTER);
        boolean quoteGiven = options.getOptional(CsvFormatOptions.QUOTE_CHARACTER).isPresent();
        if (disabled && quoteGiven) {
            // as upstream: a quote character that would silently be ignored is a mistake
            throw OptionValues.invalid(
                    IDENTIFIER,
                    CsvFormatOptions.QUOTE_CHARACTER,
                    options.get(CsvFormatOptions.QUOTE_CHARACTER),
                    "cannot be set while '"
                            + CsvFormatOptions.DISABLE_QUOTE_CHARACTER.key()
                            + "' is true");
        }
        if (disabled) {
            builder.disableQuoteCharacter();
        } else {
            builder.setQuoteCharacter(
                    OptionValues.singleChar(
                            IDENTIFIER, options, CsvFormatOptions.QUOTE_CHARACTER));
        }
    }
}
