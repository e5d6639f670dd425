package io.sluice.plugin.formats.csv;

import io.sluice.plugin.formats.delimited.CountingRead;
import io.sluice.plugin.formats.testing.FormatFiles;
import io.sluice.plugin.formats.testing.JavaValues;
import io.sluice.plugin.formats.testing.SampleRows;
import io.sluice.plugin.formats.testing.TestFormatContext;

import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CsvReaderTest {

    private static final RowType NAME_AND_COUNT = RowType.of(
            new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH), new IntType()}, new String[] {"name", "n"});

    @TempDir
    Path dir;

    private final CsvFormatFactory factory = new CsvFormatFactory();

    @Test
    void readsRecordByRecordFromOneStream() {
        assertThat(factory)
                .isInstanceOf(io.sluice.spi.format.StreamReadingFormat.class)
                .isNotInstanceOf(io.sluice.spi.format.BulkReadingFormat.class);
        StreamFormat<RowData> format = factory.createStreamFormat(TestFormatContext.of(NAME_AND_COUNT));
        assertThat(format.isSplittable()).isFalse();
        assertThat(format.getProducedType().toString()).contains("name").contains("n");
    }

    @Test
    void roundTripsEveryColumnTypeAndNullsWithANullLiteral() throws Exception {
        TestFormatContext context = TestFormatContext.of(SampleRows.ROW_TYPE, "null-literal", "\\N");

        assertThat(roundTrip(context, SampleRows.ALL)).isEqualTo(JavaValues.of(SampleRows.ROW_TYPE, SampleRows.ALL));
    }

    @Test
    void readsAnEmptyStringFieldBackAsEmptyWithoutANullLiteral() throws Exception {
        // upstream: null is written as an empty field, and an empty field reads as "" (and fails
        // for a number); the null literal is how nulls survive
        RowType strings = RowType.of(new VarCharType(VarCharType.MAX_LENGTH), new IntType());
        RowData row = GenericRowData.of(null, 1);

        assertThat(roundTrip(TestFormatContext.of(strings), List.of(row))).containsExactly(Arrays.asList("", 1));
    }

    @Test
    void keepsAQuotedValueWithLineBreaksInOneRecord() throws Exception {
        List<RowData> rows = List.of(row("two\nlines, \"quoted\"", 1), row("crlf\r\ninside", 2), row("plain", 3));

        assertThat(roundTrip(TestFormatContext.of(NAME_AND_COUNT), rows))
                .isEqualTo(JavaValues.of(NAME_AND_COUNT, rows));
    }

    @Test
    void roundTripsArraysAndTheDelimiterQuoteAndEscapeOptions() throws Exception {
        RowType withArray = RowType.of(
                new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH), new ArrayType(new IntType())},
                new String[] {"name", "numbers"});
        List<RowData> rows = List.of(
                GenericRowData.of(
                        StringData.fromString("it's\ta \\ test"), new GenericArrayData(new Integer[] {1, -2, 3})),
                GenericRowData.of(StringData.fromString(""), new GenericArrayData(new Integer[] {})));
        TestFormatContext context = TestFormatContext.of(
                withArray,
                "field-delimiter",
                "\\t",
                "quote-character",
                "'",
                "escape-character",
                "\\",
                "array-element-delimiter",
                "|");

        assertThat(roundTrip(context, rows)).isEqualTo(JavaValues.of(withArray, rows));
    }

    @Test
    void skipsCommentLinesWhenAllowed() throws Exception {
        Path file = file("# a comment\nx,1\n#another\ny,2\n");

        assertThat(read(file, TestFormatContext.of(NAME_AND_COUNT, "allow-comments", "true")))
                .containsExactly(List.of("x", 1), List.of("y", 2));
    }

    @Test
    void failsOnAMalformedLineNamingTheLineAndOffset() throws Exception {
        Path file = file("a,1\n\"multi\nline\",2\nb,not-a-number\nc,3\n");

        assertThatThrownBy(() -> read(file, TestFormatContext.of(NAME_AND_COUNT)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("csv record at line 4 (byte offset 19)")
                .hasMessageContaining("not-a-number");
    }

    @Test
    void withIgnoreParseErrorsSetsBadFieldsNullAndSkipsBadRecords() throws Exception {
        Path file = file("a,1\nb,not-a-number\n\"unclosed,2\n");
        TestFormatContext context = TestFormatContext.of(NAME_AND_COUNT, "ignore-parse-errors", "true");

        try (CountingRead read = new CountingRead(factory.createStreamFormat(context), file)) {
            assertThat(read.rows(NAME_AND_COUNT)).containsExactly(List.of("a", 1), Arrays.asList("b", null));
            assertThat(read.skipped()).isEqualTo(1);
        }
    }

    @Test
    void rejectsAQuoteCharacterWhenQuotingIsDisabled() {
        assertThatThrownBy(() -> factory.createStreamFormat(TestFormatContext.of(
                        NAME_AND_COUNT, "disable-quote-character", "true", "quote-character", "'")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'quote-character'");
    }

    private List<List<Object>> roundTrip(TestFormatContext context, List<RowData> rows) throws Exception {
        Path file = dir.resolve("part-" + System.nanoTime() + ".csv");
        FormatFiles.write(factory.createEncoder(context), file, rows);
        return read(file, context);
    }

    private List<List<Object>> read(Path file, TestFormatContext context) throws Exception {
        return FormatFiles.read(factory.createStreamFormat(context), context.rowType(), file);
    }

    private Path file(String content) throws IOException {
        Path file = dir.resolve("input-" + System.nanoTime() + ".csv");
        Files.write(file, content.getBytes(StandardCharsets.UTF_8));
        return file;
    }

    private static RowData row(String name, int n) {
        return GenericRowData.of(StringData.fromString(name), n);
    }
}
