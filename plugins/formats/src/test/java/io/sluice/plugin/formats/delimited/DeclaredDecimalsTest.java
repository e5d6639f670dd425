package io.sluice.plugin.formats.delimited;

import io.sluice.plugin.formats.csv.CsvFormatFactory;
import io.sluice.plugin.formats.json.JsonFormatFactory;
import io.sluice.plugin.formats.testing.FormatFiles;
import io.sluice.plugin.formats.testing.TestFormatContext;

import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A csv or json number with more digits than its declared {@code DECIMAL(p, s)} holds is an error
 * naming the column, the value, the file's line (Flink's converters would read it as null), or null
 * with {@code ignore-parse-errors}; a number that fits reads back exactly, rounded to the scale as
 * Flink rounds it.
 */
class DeclaredDecimalsTest {

    private static final RowType ROW = RowType.of(
            new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH), new DecimalType(5, 2)},
            new String[] {"name", "amount"});

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"csv", "json"})
    void aNumberTooWideForItsDeclaredDecimalIsAnErrorNotNull(String format) throws Exception {
        Path file = file(format, List.of(new String[] {"a", "123.45"}, new String[] {"b", "1234.5"}));

        assertThatThrownBy(() -> read(format, file))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("line 2")
                .hasMessageContaining("Column 'amount' holds 1234.50")
                .hasMessageContaining("DECIMAL(5, 2)");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"csv", "json"})
    void withIgnoreParseErrorsTheValueIsNullAsUpstream(String format) throws Exception {
        Path file = file(format, List.of(new String[] {"a", "123.45"}, new String[] {"b", "1234.5"}));

        assertThat(read(format, file, "ignore-parse-errors", "true"))
                .containsExactly(List.of("a", new BigDecimal("123.45")), Arrays.asList("b", null));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"csv", "json"})
    void numbersThatFitReadBackRoundedToTheScale(String format) throws Exception {
        Path file = file(
                format,
                List.of(new String[] {"a", "-999.99"}, new String[] {"b", "0.125"}, new String[] {"c", "999.994"}));

        assertThat(read(format, file))
                .containsExactly(
                        List.of("a", new BigDecimal("-999.99")),
                        List.of("b", new BigDecimal("0.13")),
                        List.of("c", new BigDecimal("999.99")));
    }

    /** Decimals inside rows, arrays and maps of a json record: the error names the path. */
    private static final RowType NESTED = (RowType) org.apache.flink.table.api.DataTypes.ROW(
                    org.apache.flink.table.api.DataTypes.FIELD("name", org.apache.flink.table.api.DataTypes.STRING()),
                    org.apache.flink.table.api.DataTypes.FIELD(
                            "order",
                            org.apache.flink.table.api.DataTypes.ROW(org.apache.flink.table.api.DataTypes.FIELD(
                                    "items",
                                    org.apache.flink.table.api.DataTypes.ARRAY(org.apache.flink.table.api.DataTypes.ROW(
                                            org.apache.flink.table.api.DataTypes.FIELD(
                                                    "price", org.apache.flink.table.api.DataTypes.DECIMAL(5, 2))))))),
                    org.apache.flink.table.api.DataTypes.FIELD(
                            "rates",
                            org.apache.flink.table.api.DataTypes.MAP(
                                    org.apache.flink.table.api.DataTypes.STRING(),
                                    org.apache.flink.table.api.DataTypes.DECIMAL(3, 1))))
            .getLogicalType();

    @org.junit.jupiter.api.Test
    void nestedDecimalsTooWideAreErrorsNamingThePath() throws Exception {
        Path fits = dir.resolve("nested-fits.json");
        Files.writeString(
                fits,
                "{\"name\":\"a\",\"order\":{\"items\":[{\"price\":1.5},{\"price\":999.99}]},"
                        + "\"rates\":{\"x\":12.3}}\n");
        List<List<Object>> rows = FormatFiles.read(
                new JsonFormatFactory().createStreamFormat(TestFormatContext.of(NESTED)), NESTED, fits);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).toString()).contains("1.50").contains("999.99").contains("12.3");

        Path arrayTooWide = dir.resolve("nested-array.json");
        Files.writeString(arrayTooWide, "{\"name\":\"a\",\"order\":{\"items\":[{\"price\":1.5},{\"price\":1000}]}}\n");
        assertThatThrownBy(() -> FormatFiles.read(
                        new JsonFormatFactory().createStreamFormat(TestFormatContext.of(NESTED)), NESTED, arrayTooWide))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Column 'order.items[1].price' holds 1000")
                .hasMessageContaining("DECIMAL(5, 2)");

        Path mapTooWide = dir.resolve("nested-map.json");
        Files.writeString(mapTooWide, "{\"name\":\"a\",\"rates\":{\"x\":123.4}}\n");
        assertThatThrownBy(() -> FormatFiles.read(
                        new JsonFormatFactory().createStreamFormat(TestFormatContext.of(NESTED)), NESTED, mapTooWide))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Column 'rates[x]' holds 123.4");

        List<List<Object>> ignored = FormatFiles.read(
                new JsonFormatFactory().createStreamFormat(TestFormatContext.of(NESTED, "ignore-parse-errors", "true")),
                NESTED,
                arrayTooWide);
        assertThat(ignored)
                .as("with ignore-parse-errors the column holding the value is null")
                .containsExactly(Arrays.asList("a", null, null));
    }

    private List<List<Object>> read(String format, Path file, String... options) throws Exception {
        TestFormatContext context = TestFormatContext.of(ROW, options);
        var factory = format.equals("csv") ? new CsvFormatFactory() : new JsonFormatFactory();
        return FormatFiles.read(factory.createStreamFormat(context), ROW, file);
    }

    private Path file(String format, List<String[]> rows) throws IOException {
        StringBuilder content = new StringBuilder();
        for (String[] r : rows) {
            content.append(
                            format.equals("csv")
                                    ? r[0] + "," + r[1]
                                    : "{\"name\":\"" + r[0] + "\",\"amount\":" + r[1] + "}")
                    .append('\n');
        }
        Path file = dir.resolve("input-" + System.nanoTime() + "." + format);
        Files.write(file, content.toString().getBytes(StandardCharsets.UTF_8));
        return file;
    }
}
