package io.sluice.plugin.formats.csv;

import io.sluice.plugin.formats.FileFormats;
import io.sluice.plugin.formats.OptionValues;
import io.sluice.plugin.formats.delimited.DeclaredDecimals;
import io.sluice.plugin.formats.delimited.DelimitedRowFormat;
import io.sluice.plugin.formats.delimited.RecordSyntax;
import io.sluice.plugin.formats.delimited.SerializationSchemaEncoder;
import io.sluice.spi.format.FormatContext;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.formats.csv.CsvFormatOptions;
import org.apache.flink.formats.csv.CsvRowDataDeserializationSchema;
import org.apache.flink.formats.csv.CsvRowDataSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.pf4j.Extension;

import java.util.Set;

/**
 * The {@code csv} row format, written by Flink's {@link CsvRowDataSerializationSchema}: one record
 * per line; read back record by record with Flink's {@link CsvRowDataDeserializationSchema} (a
 * quoted value may span lines).
 *
 * <p>The options are Flink's CSV format options ({@link CsvFormatOptions}), so names, defaults and
 * meanings are the upstream ones; a table option {@code csv.field-delimiter} arrives as {@code
 * field-delimiter}. {@code allow-comments} and {@code ignore-parse-errors} only affect reading,
 * {@code write-bigdecimal-in-scientific-notation} only writing; all are accepted in both
 * directions so that one set of table options serves both. As upstream, {@code
 * ignore-parse-errors} turns a field that does not parse into null and drops a record that does
 * not parse at all; dropped records are counted and logged (see {@link DelimitedRowReader}).
 *
 * <p>Also as upstream, without a {@code null-literal} a null is written as an empty field, which
 * reads back as an empty string, or fails to parse for a non-string column: set a null literal
 * (such as {@code \N}) for nulls to survive a round trip.
 */
@Extension
public final class CsvFormatFactory implements FileFormats.RowFile {

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
    public Encoder<RowData> createEncoder(FormatContext context) {
        return new SerializationSchemaEncoder(serializationSchema(context));
    }

    @Override
    public StreamFormat<RowData> createStreamFormat(FormatContext context) {
        ReadableConfig options = context.options();
        Character quote = quoteCharacter(options);
        Character escape = escapeCharacter(options);
        boolean allowComments = options.get(CsvFormatOptions.ALLOW_COMMENTS);
        return new DelimitedRowFormat(
                IDENTIFIER,
                deserializationSchema(context, quote, escape, allowComments),
                RecordSyntax.csv(quote, escape, allowComments),
                context.skippedRecords());
    }

    private static CsvRowDataSerializationSchema serializationSchema(FormatContext context) {
        ReadableConfig options = context.options();
        CsvRowDataSerializationSchema.Builder builder = new CsvRowDataSerializationSchema.Builder(context.rowType());

        builder.setFieldDelimiter(fieldDelimiter(options));
        Character quote = quoteCharacter(options);
        if (quote == null) {
            builder.disableQuoteCharacter();
        } else {
            builder.setQuoteCharacter(quote);
        }
        Character escape = escapeCharacter(options);
        if (escape != null) {
            builder.setEscapeCharacter(escape);
        }
        builder.setArrayElementDelimiter(options.get(CsvFormatOptions.ARRAY_ELEMENT_DELIMITER));
        options.getOptional(CsvFormatOptions.NULL_LITERAL).ifPresent(builder::setNullLiteral);
        builder.setWriteBigDecimalInScientificNotation(
                options.get(CsvFormatOptions.WRITE_BIGDECIMAL_IN_SCIENTIFIC_NOTATION));
        return builder.build();
    }

    private static DeserializationSchema<RowData> deserializationSchema(
            FormatContext context, Character quote, Character escape, boolean allowComments) {
        return DeclaredDecimals.of(
                context.rowType(),
                context.options().get(CsvFormatOptions.IGNORE_PARSE_ERRORS),
                rowType -> deserializationSchema(context.options(), rowType, quote, escape, allowComments));
    }

    private static CsvRowDataDeserializationSchema deserializationSchema(
            ReadableConfig options, RowType rowType, Character quote, Character escape, boolean allowComments) {
        CsvRowDataDeserializationSchema.Builder builder =
                new CsvRowDataDeserializationSchema.Builder(rowType, InternalTypeInfo.of(rowType));

        builder.setFieldDelimiter(fieldDelimiter(options));
        if (quote == null) {
            builder.disableQuoteCharacter();
        } else {
            builder.setQuoteCharacter(quote);
        }
        if (escape != null) {
            builder.setEscapeCharacter(escape);
        }
        builder.setAllowComments(allowComments);
        builder.setArrayElementDelimiter(options.get(CsvFormatOptions.ARRAY_ELEMENT_DELIMITER));
        options.getOptional(CsvFormatOptions.NULL_LITERAL).ifPresent(builder::setNullLiteral);
        // upstream semantics: a field that does not parse becomes null, a record that does not
        // parse at all is dropped (the reader counts those)
        builder.setIgnoreParseErrors(options.get(CsvFormatOptions.IGNORE_PARSE_ERRORS));
        return builder.build();
    }

    private static char fieldDelimiter(ReadableConfig options) {
        return OptionValues.singleChar(IDENTIFIER, options, CsvFormatOptions.FIELD_DELIMITER);
    }

    private static Character escapeCharacter(ReadableConfig options) {
        if (options.getOptional(CsvFormatOptions.ESCAPE_CHARACTER).isEmpty()) {
            return null;
        }
        return OptionValues.singleChar(IDENTIFIER, options, CsvFormatOptions.ESCAPE_CHARACTER);
    }

    /** The quote character, or null when quoting is disabled. */
    private static Character quoteCharacter(ReadableConfig options) {
        boolean disabled = options.get(CsvFormatOptions.DISABLE_QUOTE_CHARACTER);
        boolean quoteGiven =
                options.getOptional(CsvFormatOptions.QUOTE_CHARACTER).isPresent();
        if (disabled && quoteGiven) {
            // as upstream: a quote character that would silently be ignored is a mistake
            throw OptionValues.invalid(
                    IDENTIFIER,
                    CsvFormatOptions.QUOTE_CHARACTER,
                    options.get(CsvFormatOptions.QUOTE_CHARACTER),
                    "cannot be set while '" + CsvFormatOptions.DISABLE_QUOTE_CHARACTER.key() + "' is true");
        }
        return disabled ? null : OptionValues.singleChar(IDENTIFIER, options, CsvFormatOptions.QUOTE_CHARACTER);
    }
}
