package io.sluice.plugin.formats.csv;

import io.sluice.plugin.formats.testing.SampleRows;
import io.sluice.plugin.formats.testing.TestFormatContext;

import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.formats.csv.CsvFormatOptions;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CsvFormatFactoryTest {

    private static final RowType TWO_STRINGS = RowType.of(
            new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH), new VarCharType(VarCharType.MAX_LENGTH)},
            new String[] {"a", "b"});

    private final CsvFormatFactory factory = new CsvFormatFactory();

    @Test
    void declaresTheUpstreamOptionsWithoutPrefix() {
        assertThat(factory.identifier()).isEqualTo("csv");
        assertThat(factory)
                .isInstanceOf(io.sluice.spi.format.RowEncodingFormat.class)
                .isNotInstanceOf(io.sluice.spi.format.BulkWritingFormat.class);
        assertThat(factory.optionalOptions().stream().map(ConfigOption::key))
                .containsExactlyInAnyOrder(
                        "field-delimiter",
                        "disable-quote-character",
                        "quote-character",
                        "allow-comments",
                        "ignore-parse-errors",
                        "array-element-delimiter",
                        "escape-character",
                        "null-literal",
                        "write-bigdecimal-in-scientific-notation");
        assertThat(CsvFormatOptions.FIELD_DELIMITER.defaultValue()).isEqualTo(",");
        assertThat(CsvFormatOptions.QUOTE_CHARACTER.defaultValue()).isEqualTo("\"");
    }

    @Test
    void writesEveryColumnTypeAndNulls() throws Exception {
        List<String> lines = write(TestFormatContext.of(SampleRows.ROW_TYPE));

        assertThat(lines).hasSize(3);
        assertThat(CsvLines.fields(lines.get(0)))
                .containsExactly(
                        SampleRows.TEXT,
                        "42",
                        "9000000000",
                        "1.5",
                        "true",
                        "12.34",
                        "2024-02-29",
                        "2024-02-29 13:45:01.123");
        assertThat(CsvLines.fields(lines.get(1))).hasSize(8).containsOnly("");
        assertThat(CsvLines.fields(lines.get(2)))
                .containsExactly(
                        "plain", "-7", "-1", "-0.25", "false", "-0.05", "1969-12-31", "1969-12-31 23:59:59.999");
    }

    @Test
    void endsEveryRecordWithExactlyOneNewline() throws Exception {
        Encoder<RowData> encoder = factory.createEncoder(TestFormatContext.of(TWO_STRINGS));

        String text = new String(SampleRows.encode(encoder, List.of(row("x", "y"))), StandardCharsets.UTF_8);

        assertThat(text).isEqualTo("x,y\n");
    }

    @Test
    void appliesDelimiterQuoteAndNullLiteral() throws Exception {
        List<String> lines = write(TestFormatContext.of(
                SampleRows.ROW_TYPE, "field-delimiter", "\\t", "quote-character", "'", "null-literal", "N/A"));

        assertThat(lines.get(0)).contains("\t").doesNotContain(",42,");
        assertThat(CsvLines.fields(lines.get(0), '\t', '\'', null)).startsWith(SampleRows.TEXT, "42", "9000000000");
        assertThat(CsvLines.fields(lines.get(1), '\t', '\'', null)).hasSize(8).containsOnly("N/A");
    }

    @Test
    void disablesQuoting() throws Exception {
        Encoder<RowData> encoder =
                factory.createEncoder(TestFormatContext.of(TWO_STRINGS, "disable-quote-character", "true"));

        String text = new String(SampleRows.encode(encoder, List.of(row("a \"b\"", "c"))), StandardCharsets.UTF_8);

        assertThat(text).isEqualTo("a \"b\",c\n");
    }

    @Test
    void escapesWithTheEscapeCharacter() throws Exception {
        Encoder<RowData> encoder = factory.createEncoder(TestFormatContext.of(TWO_STRINGS, "escape-character", "\\"));

        String text = new String(
                SampleRows.encode(encoder, List.of(row("say \"hi\"", "back\\slash"))), StandardCharsets.UTF_8);

        // the escape character escapes itself; quotes are still doubled
        assertThat(text).isEqualTo("\"say \"\"hi\"\"\",\"back\\\\slash\"\n");
        assertThat(CsvLines.fields(text.substring(0, text.length() - 1), ',', '"', '\\'))
                .containsExactly("say \"hi\"", "back\\slash");
    }

    @Test
    void acceptsTheReadSideOptions() throws Exception {
        List<String> lines = write(TestFormatContext.of(
                SampleRows.ROW_TYPE,
                "allow-comments",
                "true",
                "ignore-parse-errors",
                "true",
                "array-element-delimiter",
                "|",
                "write-bigdecimal-in-scientific-notation",
                "false"));

        assertThat(lines).hasSize(3);
    }

    @Test
    void rejectsMultiCharacterDelimiter() {
        assertBadOption("field-delimiter", "::");
    }

    @Test
    void rejectsMultiCharacterQuoteAndEscape() {
        assertBadOption("quote-character", "''");
        assertBadOption("escape-character", "ab");
    }

    @Test
    void rejectsAQuoteCharacterWhenQuotingIsDisabled() {
        assertThatThrownBy(() -> factory.createEncoder(
                        TestFormatContext.of(TWO_STRINGS, "disable-quote-character", "true", "quote-character", "'")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'quote-character'")
                .hasMessageContaining("'disable-quote-character'");
    }

    @Test
    void rejectsANonBooleanFlag() {
        assertThatThrownBy(() ->
                        factory.createEncoder(TestFormatContext.of(TWO_STRINGS, "disable-quote-character", "maybe")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("disable-quote-character")
                .hasMessageContaining("maybe");
    }

    private void assertBadOption(String key, String value) {
        assertThatThrownBy(() -> factory.createEncoder(TestFormatContext.of(TWO_STRINGS, key, value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + key + "'")
                .hasMessageContaining("'" + value + "'")
                .hasMessageContaining("'csv'");
    }

    private List<String> write(TestFormatContext context) throws Exception {
        Encoder<RowData> encoder = factory.createEncoder(context);
        String text = new String(SampleRows.encode(encoder, SampleRows.ALL), StandardCharsets.UTF_8);
        // one record per line, each ended by exactly one newline
        assertThat(text).endsWith("\n").doesNotContain("\n\n").doesNotContain("\r");
        return text.lines().collect(Collectors.toList());
    }

    private static RowData row(String a, String b) {
        return GenericRowData.of(StringData.fromString(a), StringData.fromString(b));
    }
}
