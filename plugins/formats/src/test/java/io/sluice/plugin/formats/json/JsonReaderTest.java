package io.sluice.plugin.formats.json;

import io.sluice.plugin.formats.delimited.CountingRead;
import io.sluice.plugin.formats.testing.FormatFiles;
import io.sluice.plugin.formats.testing.JavaValues;
import io.sluice.plugin.formats.testing.NestedRows;
import io.sluice.plugin.formats.testing.TestFormatContext;

import org.apache.flink.table.data.RowData;
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

class JsonReaderTest {

    private static final RowType NAME_AND_COUNT = RowType.of(
            new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH), new IntType()}, new String[] {"name", "n"});

    @TempDir
    Path dir;

    private final JsonFormatFactory factory = new JsonFormatFactory();

    @Test
    void readsObjectByObjectFromOneStream() {
        assertThat(factory)
                .isInstanceOf(io.sluice.spi.format.StreamReadingFormat.class)
                .isNotInstanceOf(io.sluice.spi.format.BulkReadingFormat.class);
        assertThat(factory.createStreamFormat(TestFormatContext.of(NAME_AND_COUNT))
                        .isSplittable())
                .isFalse();
    }

    @Test
    void roundTripsEveryColumnTypeNullsAndNestedValues() throws Exception {
        assertThat(roundTrip(TestFormatContext.of(NestedRows.ROW_TYPE), NestedRows.ALL))
                .isEqualTo(JavaValues.of(NestedRows.ROW_TYPE, NestedRows.ALL));
    }

    @Test
    void roundTripsIsoTimestampsAndLeftOutNullFields() throws Exception {
        TestFormatContext context = TestFormatContext.of(
                NestedRows.ROW_TYPE, "timestamp-format.standard", "ISO-8601", "encode.ignore-null-fields", "true");

        assertThat(roundTrip(context, NestedRows.ALL)).isEqualTo(JavaValues.of(NestedRows.ROW_TYPE, NestedRows.ALL));
    }

    @Test
    void projectsFieldsByNameAndSkipsBlankLines() throws Exception {
        Path file = file("{\"n\": 1, \"name\": \"x\", \"extra\": true}\n\n  \n{\"name\": \"y\"}\n");

        assertThat(read(file, TestFormatContext.of(NAME_AND_COUNT)))
                .containsExactly(List.of("x", 1), Arrays.asList("y", null));
    }

    @Test
    void failsOnAMissingFieldWhenAsked() throws Exception {
        Path file = file("{\"name\": \"x\", \"n\": 1}\n{\"name\": \"y\"}\n");

        assertThatThrownBy(() -> read(file, TestFormatContext.of(NAME_AND_COUNT, "fail-on-missing-field", "true")))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("json record at line 2 (byte offset 22)");
    }

    @Test
    void failsOnAMalformedLineNamingTheLineAndOffset() throws Exception {
        Path file = file("{\"name\": \"x\", \"n\": 1}\n\n{\"name\": \"y\", \"n\": \n");

        assertThatThrownBy(() -> read(file, TestFormatContext.of(NAME_AND_COUNT)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("json record at line 3 (byte offset 23)");
    }

    @Test
    void withIgnoreParseErrorsSkipsAndCountsMalformedLines() throws Exception {
        Path file = file("{\"name\": \"x\", \"n\": 1}\nnot json\n{\"name\": \"y\", \"n\": 2}\n[1]\n");
        TestFormatContext context = TestFormatContext.of(NAME_AND_COUNT, "ignore-parse-errors", "true");

        try (CountingRead read = new CountingRead(factory.createStreamFormat(context), file)) {
            assertThat(read.rows(NAME_AND_COUNT)).containsExactly(List.of("x", 1), List.of("y", 2));
            assertThat(read.skipped()).isEqualTo(2);
        }
    }

    @Test
    void rejectsFailingOnMissingFieldsWhileIgnoringParseErrors() {
        assertThatThrownBy(() -> factory.createStreamFormat(TestFormatContext.of(
                        NAME_AND_COUNT, "fail-on-missing-field", "true", "ignore-parse-errors", "true")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'fail-on-missing-field'")
                .hasMessageContaining("'ignore-parse-errors'");
    }

    private List<List<Object>> roundTrip(TestFormatContext context, List<RowData> rows) throws Exception {
        Path file = dir.resolve("part-" + System.nanoTime() + ".json");
        FormatFiles.write(factory.createEncoder(context), file, rows);
        return read(file, context);
    }

    private List<List<Object>> read(Path file, TestFormatContext context) throws Exception {
        return FormatFiles.read(factory.createStreamFormat(context), context.rowType(), file);
    }

    private Path file(String content) throws IOException {
        Path file = dir.resolve("input-" + System.nanoTime() + ".json");
        Files.write(file, content.getBytes(StandardCharsets.UTF_8));
        return file;
    }
}
