package io.sluice.plugin.formats.json;

import io.sluice.plugin.formats.testing.SampleRows;
import io.sluice.plugin.formats.testing.TestFormatContext;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonFormatFactoryTest {

    private static final ObjectMapper JACKSON = new ObjectMapper();

    private static final RowType STRING_TO_INT = RowType.of(
            new LogicalType[] {new MapType(new VarCharType(VarCharType.MAX_LENGTH), new IntType())},
            new String[] {"m"});

    private final JsonFormatFactory factory = new JsonFormatFactory();

    @Test
    void declaresTheUpstreamOptionsWithoutPrefix() {
        assertThat(factory.identifier()).isEqualTo("json");
        assertThat(factory)
                .isInstanceOf(io.sluice.spi.format.RowEncodingFormat.class)
                .isNotInstanceOf(io.sluice.spi.format.BulkWritingFormat.class);
        assertThat(factory.optionalOptions().stream().map(ConfigOption::key))
                .containsExactlyInAnyOrder(
                        "timestamp-format.standard",
                        "map-null-key.mode",
                        "map-null-key.literal",
                        "encode.decimal-as-plain-number",
                        "encode.ignore-null-fields",
                        "fail-on-missing-field",
                        "ignore-parse-errors");
    }

    @Test
    void writesOneObjectPerLineWithEveryColumnType() throws Exception {
        List<JsonNode> objects = write(TestFormatContext.of(SampleRows.ROW_TYPE), SampleRows.ALL);

        assertThat(objects).hasSize(3);
        JsonNode full = objects.get(0);
        assertThat(full.get("s").textValue()).isEqualTo(SampleRows.TEXT);
        assertThat(full.get("i").isInt()).isTrue();
        assertThat(full.get("i").intValue()).isEqualTo(SampleRows.INT);
        assertThat(full.get("l").longValue()).isEqualTo(SampleRows.LONG);
        assertThat(full.get("d").doubleValue()).isEqualTo(SampleRows.DOUBLE);
        assertThat(full.get("b").booleanValue()).isTrue();
        assertThat(full.get("dec").isNumber()).isTrue();
        assertThat(full.get("dec").decimalValue()).isEqualByComparingTo(SampleRows.DECIMAL);
        assertThat(full.get("dt").textValue()).isEqualTo("2024-02-29");
        assertThat(full.get("ts").textValue()).isEqualTo("2024-02-29 13:45:01.123");

        JsonNode nulls = objects.get(1);
        assertThat(fieldNames(nulls)).containsExactly("s", "i", "l", "d", "b", "dec", "dt", "ts");
        nulls.forEach(value -> assertThat(value.isNull()).isTrue());

        JsonNode negative = objects.get(2);
        assertThat(negative.get("i").intValue()).isEqualTo(-7);
        assertThat(negative.get("b").booleanValue()).isFalse();
        assertThat(negative.get("dec").decimalValue()).isEqualByComparingTo(SampleRows.NEGATIVE_DECIMAL);
        assertThat(negative.get("dt").textValue()).isEqualTo("1969-12-31");
        assertThat(negative.get("ts").textValue()).isEqualTo("1969-12-31 23:59:59.999");
    }

    @Test
    void writesIsoTimestampsAndLeavesNullFieldsOut() throws Exception {
        List<JsonNode> objects = write(
                TestFormatContext.of(
                        SampleRows.ROW_TYPE,
                        "timestamp-format.standard",
                        "ISO-8601",
                        "encode.ignore-null-fields",
                        "true",
                        "encode.decimal-as-plain-number",
                        "true"),
                SampleRows.ALL);

        assertThat(objects.get(0).get("ts").textValue()).isEqualTo("2024-02-29T13:45:01.123");
        assertThat(objects.get(1).size()).isZero();
    }

    @Test
    void appliesTheMapNullKeyMode() throws Exception {
        Map<StringData, Integer> map = new HashMap<>();
        map.put(null, 1);
        map.put(StringData.fromString("k"), 2);
        RowData row = GenericRowData.of(new GenericMapData(map));

        JsonNode literal = write(
                        TestFormatContext.of(
                                STRING_TO_INT, "map-null-key.mode", "LITERAL", "map-null-key.literal", "none"),
                        List.of(row))
                .get(0)
                .get("m");
        assertThat(literal.get("none").intValue()).isEqualTo(1);
        assertThat(literal.get("k").intValue()).isEqualTo(2);

        JsonNode dropped = write(TestFormatContext.of(STRING_TO_INT, "map-null-key.mode", "drop"), List.of(row))
                .get(0)
                .get("m");
        assertThat(fieldNames(dropped)).containsExactly("k");

        Encoder<RowData> failing = factory.createEncoder(TestFormatContext.of(STRING_TO_INT));
        // FAIL, the default, refuses the row
        assertThatThrownBy(() -> SampleRows.encode(failing, List.of(row))).hasStackTraceContaining("null keys");
    }

    @Test
    void acceptsTheReadSideOptions() throws Exception {
        List<JsonNode> objects = write(
                TestFormatContext.of(
                        SampleRows.ROW_TYPE, "fail-on-missing-field", "true", "ignore-parse-errors", "false"),
                SampleRows.ALL);

        assertThat(objects).hasSize(3);
    }

    @Test
    void rejectsAnUnknownTimestampFormat() {
        assertBadOption("timestamp-format.standard", "RFC-3339");
    }

    @Test
    void rejectsAnUnknownMapNullKeyMode() {
        assertBadOption("map-null-key.mode", "IGNORE");
    }

    private void assertBadOption(String key, String value) {
        assertThatThrownBy(() -> factory.createEncoder(TestFormatContext.of(SampleRows.ROW_TYPE, key, value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + key + "'")
                .hasMessageContaining("'" + value + "'")
                .hasMessageContaining("'json'");
    }

    private List<JsonNode> write(TestFormatContext context, List<RowData> rows) throws Exception {
        Encoder<RowData> encoder = factory.createEncoder(context);
        String text = new String(SampleRows.encode(encoder, rows), StandardCharsets.UTF_8);
        assertThat(text).endsWith("\n").doesNotContain("\n\n");
        List<JsonNode> objects = new ArrayList<>();
        for (String line : text.split("\n")) {
            JsonNode node = JACKSON.readTree(line);
            assertThat(node.isObject()).as(line).isTrue();
            objects.add(node);
        }
        return objects;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
