package io.sluice.plugin.formats.json;

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
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonFormatOptions.MapNullKeyMode;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.pf4j.Extension;

import java.util.Set;

/**
 * The {@code json} row format, written by Flink's {@link JsonRowDataSerializationSchema}: one JSON
 * object per line; read back line by line with Flink's {@link
 * JsonParserRowDataDeserializationSchema} (blank lines are skipped).
 *
 * <p>The options are Flink's JSON format options ({@link JsonFormatOptions}), so names and
 * defaults are the upstream ones; a table option {@code json.encode.ignore-null-fields} arrives as
 * {@code encode.ignore-null-fields}. {@code fail-on-missing-field} and {@code ignore-parse-errors}
 * only affect reading, the {@code encode.*} and {@code map-null-key.*} options only writing; all
 * are accepted in both directions so that one set of table options serves both. With {@code
 * ignore-parse-errors} a line that is not a JSON object of the row type is dropped, counted and
 * logged (see {@link DelimitedRowReader}).
 */
@Extension
public final class JsonFormatFactory implements FileFormats.RowFile {

    /** The name users select this format by. */
    public static final String IDENTIFIER = "json";

    private static final String SQL = "SQL";
    private static final String ISO_8601 = "ISO-8601";

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(
                JsonFormatOptions.TIMESTAMP_FORMAT,
                JsonFormatOptions.MAP_NULL_KEY_MODE,
                JsonFormatOptions.MAP_NULL_KEY_LITERAL,
                JsonFormatOptions.ENCODE_DECIMAL_AS_PLAIN_NUMBER,
                JsonFormatOptions.ENCODE_IGNORE_NULL_FIELDS,
                JsonFormatOptions.FAIL_ON_MISSING_FIELD,
                JsonFormatOptions.IGNORE_PARSE_ERRORS);
    }

    @Override
    public Encoder<RowData> createEncoder(FormatContext context) {
        ReadableConfig options = context.options();
        JsonRowDataSerializationSchema schema = new JsonRowDataSerializationSchema(
                context.rowType(),
                timestampFormat(options),
                OptionValues.enumValue(IDENTIFIER, options, JsonFormatOptions.MAP_NULL_KEY_MODE, MapNullKeyMode.class),
                options.get(JsonFormatOptions.MAP_NULL_KEY_LITERAL),
                options.get(JsonFormatOptions.ENCODE_DECIMAL_AS_PLAIN_NUMBER),
                options.get(JsonFormatOptions.ENCODE_IGNORE_NULL_FIELDS));
        return new SerializationSchemaEncoder(schema);
    }

    @Override
    public StreamFormat<RowData> createStreamFormat(FormatContext context) {
        ReadableConfig options = context.options();
        boolean failOnMissingField = options.get(JsonFormatOptions.FAIL_ON_MISSING_FIELD);
        boolean ignoreParseErrors = options.get(JsonFormatOptions.IGNORE_PARSE_ERRORS);
        if (failOnMissingField && ignoreParseErrors) {
            // as upstream: ignoring parse errors would swallow the failure asked for
            throw OptionValues.invalid(
                    IDENTIFIER,
                    JsonFormatOptions.FAIL_ON_MISSING_FIELD,
                    true,
                    "cannot be true while '" + JsonFormatOptions.IGNORE_PARSE_ERRORS.key() + "' is true");
        }
        // the streaming-parser variant, which Flink's json format uses by default
        DeserializationSchema<RowData> schema = DeclaredDecimals.of(
                context.rowType(),
                ignoreParseErrors,
                rowType -> new JsonParserRowDataDeserializationSchema(
                        rowType,
                        InternalTypeInfo.of(rowType),
                        failOnMissingField,
                        ignoreParseErrors,
                        timestampFormat(options)));
        return new DelimitedRowFormat(IDENTIFIER, schema, RecordSyntax.linesSkippingBlanks(), context.skippedRecords());
    }

    private static TimestampFormat timestampFormat(ReadableConfig options) {
        // users spell it "ISO-8601" as upstream; the enum constant cannot have a dash
        String name = OptionValues.oneOf(IDENTIFIER, options, JsonFormatOptions.TIMESTAMP_FORMAT, SQL, ISO_8601);
        return SQL.equals(name) ? TimestampFormat.SQL : TimestampFormat.ISO_8601;
    }
}
