package io.sluice.plugin.formats.text;

import io.sluice.plugin.formats.testing.SampleRows;
import io.sluice.plugin.formats.testing.TestFormatContext;

import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TextFormatFactoryTest {

    private static final RowType LINE = RowType.of(new VarCharType(VarCharType.MAX_LENGTH));

    private final TextFormatFactory factory = new TextFormatFactory();

    @Test
    void describesItself() {
        assertThat(factory.identifier()).isEqualTo("text");
        assertThat(factory)
                .isInstanceOf(io.sluice.spi.format.RowEncodingFormat.class)
                .isNotInstanceOf(io.sluice.spi.format.BulkWritingFormat.class);
        assertThat(factory.optionalOptions()).containsExactly(TextFormatFactory.CHARSET);
        assertThat(TextFormatFactory.CHARSET.defaultValue()).isEqualTo("UTF-8");
    }

    @Test
    void writesOneLinePerRowInUtf8() throws Exception {
        Encoder<RowData> encoder = factory.createEncoder(TestFormatContext.of(LINE));

        byte[] bytes = SampleRows.encode(encoder, rows("first", null, "wörld €", ""));

        String text = new String(bytes, StandardCharsets.UTF_8);
        assertThat(text).endsWith("\n");
        assertThat(text.split("\n", -1)).containsExactly("first", "", "wörld €", "", "");
    }

    @Test
    void writesInTheConfiguredCharset() throws Exception {
        Encoder<RowData> encoder = factory.createEncoder(TestFormatContext.of(LINE, "charset", "ISO-8859-1"));

        byte[] bytes = SampleRows.encode(encoder, rows("wörld", "ß"));

        assertThat(bytes).hasSize("wörld\nß\n".length());
        assertThat(new String(bytes, StandardCharsets.ISO_8859_1)).isEqualTo("wörld\nß\n");
    }

    @Test
    void encodesTheDelimiterInTheCharsetToo() throws Exception {
        Encoder<RowData> encoder = factory.createEncoder(TestFormatContext.of(LINE, "charset", "UTF-16BE"));

        byte[] bytes = SampleRows.encode(encoder, rows("ab"));

        assertThat(new String(bytes, StandardCharsets.UTF_16BE)).isEqualTo("ab\n");
    }

    @Test
    void acceptsAFixedLengthStringColumn() throws Exception {
        Encoder<RowData> encoder = factory.createEncoder(TestFormatContext.of(RowType.of(new CharType(3))));

        assertThat(new String(SampleRows.encode(encoder, rows("abc")), StandardCharsets.UTF_8))
                .isEqualTo("abc\n");
    }

    @Test
    void rejectsRowTypesOtherThanOneStringColumn() {
        RowType twoColumns = RowType.of(
                new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH), new IntType()}, new String[] {"line", "n"});
        assertThatThrownBy(() -> factory.createEncoder(TestFormatContext.of(twoColumns)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'text'")
                .hasMessageContaining(twoColumns.asSummaryString());

        RowType intColumn = RowType.of(new LogicalType[] {new IntType()}, new String[] {"n"});
        assertThatThrownBy(() -> factory.createEncoder(TestFormatContext.of(intColumn)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'text'")
                .hasMessageContaining("`n` INT");
    }

    @Test
    void rejectsAnUnknownCharset() {
        assertThatThrownBy(() -> factory.createEncoder(TestFormatContext.of(LINE, "charset", "no-such-charset")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'charset'")
                .hasMessageContaining("'no-such-charset'");
    }

    private static List<RowData> rows(String... lines) {
        return Arrays.stream(lines)
                .map(line -> (RowData) GenericRowData.of(StringData.fromString(line)))
                .collect(Collectors.toList());
    }
}
