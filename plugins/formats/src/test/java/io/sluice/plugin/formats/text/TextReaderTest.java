package io.sluice.plugin.formats.text;

import io.sluice.plugin.formats.testing.FormatFiles;
import io.sluice.plugin.formats.testing.TestFormatContext;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TextReaderTest {

    private static final RowType LINE = RowType.of(new VarCharType(VarCharType.MAX_LENGTH));

    @TempDir
    Path dir;

    private final TextFormatFactory factory = new TextFormatFactory();

    @Test
    void readsLineByLine() {
        assertThat(factory)
                .isInstanceOf(io.sluice.spi.format.StreamReadingFormat.class)
                .isNotInstanceOf(io.sluice.spi.format.BulkReadingFormat.class);
        assertThat(factory.createStreamFormat(TestFormatContext.of(LINE)).isSplittable())
                .isFalse();
    }

    @Test
    void readsBackWhatTheEncoderWrote() throws Exception {
        List<String> lines = List.of("first", "wörld €", "", "tab\there", " spaces ");

        assertThat(roundTrip(lines)).isEqualTo(lines);
    }

    @Test
    void readsANullBackAsAnEmptyLine() throws Exception {
        assertThat(roundTrip(Arrays.asList("a", null, "b"))).containsExactly("a", "", "b");
    }

    @Test
    void roundTripsInAMultiByteCharset() throws Exception {
        List<String> lines = List.of("ab", "wörld", "");
        TestFormatContext context = TestFormatContext.of(LINE, "charset", "UTF-16LE");
        Path file = dir.resolve("utf16.txt");
        FormatFiles.write(factory.createEncoder(context), file, rows(lines));

        assertThat(read(file, context)).isEqualTo(lines);
    }

    @Test
    void readsWindowsLineEndsAndALastLineWithoutEnd() throws Exception {
        Path file = dir.resolve("crlf.txt");
        Files.write(file, "one\r\ntwo\r\nthree".getBytes(StandardCharsets.UTF_8));

        assertThat(read(file, TestFormatContext.of(LINE))).containsExactly("one", "two", "three");
    }

    @Test
    void readsAnEmptyFileAsNoRows() throws Exception {
        Path file = dir.resolve("empty.txt");
        Files.write(file, new byte[0]);

        assertThat(read(file, TestFormatContext.of(LINE))).isEmpty();
    }

    @Test
    void rejectsRowTypesOtherThanOneStringColumn() {
        assertThatThrownBy(() -> factory.createStreamFormat(TestFormatContext.of(RowType.of(new IntType()))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'text'");
    }

    private List<String> roundTrip(List<String> lines) throws Exception {
        Path file = dir.resolve("part-" + System.nanoTime() + ".txt");
        FormatFiles.write(factory.createEncoder(TestFormatContext.of(LINE)), file, rows(lines));
        return read(file, TestFormatContext.of(LINE));
    }

    private List<String> read(Path file, TestFormatContext context) throws Exception {
        return FormatFiles.read(factory.createStreamFormat(context), LINE, file).stream()
                .map(row -> (String) row.get(0))
                .collect(Collectors.toList());
    }

    private static List<RowData> rows(List<String> lines) {
        return lines.stream()
                .map(line -> (RowData) GenericRowData.of(line == null ? null : StringData.fromString(line)))
                .collect(Collectors.toList());
    }
}
