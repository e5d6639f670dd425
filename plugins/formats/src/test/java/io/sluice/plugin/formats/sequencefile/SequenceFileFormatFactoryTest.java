package io.sluice.plugin.formats.sequencefile;

import io.sluice.plugin.formats.testing.BulkFiles;
import io.sluice.plugin.formats.testing.FormatFiles;
import io.sluice.plugin.formats.testing.JavaValues;
import io.sluice.plugin.formats.testing.TestFormatContext;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SequenceFileFormatFactoryTest {

    private static final RowType LINE = RowType.of(new VarCharType(VarCharType.MAX_LENGTH));
    private static final RowType BLOB = RowType.of(new VarBinaryType(VarBinaryType.MAX_LENGTH));

    @TempDir
    Path dir;

    private final SequenceFileFormatFactory factory = new SequenceFileFormatFactory();

    @Test
    void describesItself() {
        assertThat(factory.identifier()).isEqualTo("sequence-file");
        assertThat(factory)
                .isInstanceOf(io.sluice.spi.format.BulkWritingFormat.class)
                .isNotInstanceOf(io.sluice.spi.format.RowEncodingFormat.class);
        assertThat(factory)
                .isInstanceOf(io.sluice.spi.format.StreamReadingFormat.class)
                .isNotInstanceOf(io.sluice.spi.format.BulkReadingFormat.class);
        assertThat(factory.createStreamFormat(TestFormatContext.of(LINE)).isSplittable())
                .isFalse();
        assertThat(factory.optionalOptions().stream().map(ConfigOption::key))
                .containsExactlyInAnyOrder("compression.codec", "compression.type");
        assertThat(SequenceFileFormatFactory.COMPRESSION_CODEC.defaultValue()).isEqualTo("none");
        assertThat(SequenceFileFormatFactory.COMPRESSION_TYPE.defaultValue()).isEqualTo("BLOCK");
    }

    @Test
    void roundTripsStringsWithNullAsEmpty() throws Exception {
        Path file = write(LINE, strings("first", "wörld €", "", null, "line\nbreak"));

        assertThat(read(file, LINE))
                .containsExactly(
                        List.of("first"), List.of("wörld €"), List.of(""), List.of(""), List.of("line\nbreak"));
    }

    @Test
    void roundTripsBytes() throws Exception {
        List<RowData> rows =
                List.of(GenericRowData.of((Object) new byte[] {0, 1, -1}), GenericRowData.of((Object) new byte[0]));

        assertThat(read(write(BLOB, rows), BLOB)).isEqualTo(JavaValues.of(BLOB, rows));
    }

    @ParameterizedTest
    @CsvSource({
        "none, BLOCK",
        "default, BLOCK",
        "default, RECORD",
        "deflate, BLOCK",
        "bzip2, BLOCK",
        "lz4, RECORD",
        "snappy, BLOCK"
    })
    void compressesWithTheCodecsThatNeedNoNativeLibrary(String codec, String type) throws Exception {
        List<RowData> rows = strings("a", "bb", "ccc");
        Path file = write(LINE, rows, "compression.codec", codec, "compression.type", type);

        try (SequenceFile.Reader reader = hadoopReader(file)) {
            boolean compressed = !"none".equals(codec);
            assertThat(reader.isCompressed()).isEqualTo(compressed);
            assertThat(reader.isBlockCompressed()).isEqualTo(compressed && "BLOCK".equals(type));
        }
        assertThat(read(file, LINE)).isEqualTo(JavaValues.of(LINE, rows));
    }

    @Test
    void writesFilesHadoopsOwnReaderUnderstands() throws Exception {
        Path file = write(LINE, strings("x", "y"), "compression.codec", "default");

        List<String> values = new ArrayList<>();
        try (SequenceFile.Reader reader = hadoopReader(file)) {
            assertThat(reader.getKeyClass()).isEqualTo(BytesWritable.class);
            assertThat(reader.getValueClass()).isEqualTo(Text.class);
            BytesWritable key = new BytesWritable();
            Text value = new Text();
            while (reader.next(key, value)) {
                assertThat(key.getLength()).isZero();
                values.add(value.toString());
            }
        }
        assertThat(values).containsExactly("x", "y");
    }

    @Test
    void readsFilesWithAnyKeyClass() throws Exception {
        Path file = dir.resolve("hadoop.seq");
        try (SequenceFile.Writer writer = SequenceFile.createWriter(
                new Configuration(),
                SequenceFile.Writer.file(hadoopPath(file)),
                SequenceFile.Writer.keyClass(LongWritable.class),
                SequenceFile.Writer.valueClass(Text.class))) {
            writer.append(new LongWritable(7), new Text("seven"));
            writer.append(new LongWritable(8), new Text("eight"));
        }

        assertThat(read(file, LINE)).containsExactly(List.of("seven"), List.of("eight"));
    }

    @Test
    void refusesValuesOfAnotherClass() throws Exception {
        Path file = write(BLOB, List.of(GenericRowData.of((Object) new byte[] {1})));

        assertThatThrownBy(() -> read(file, LINE))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(BytesWritable.class.getName())
                .hasMessageContaining(Text.class.getName());
    }

    @Test
    void namesTheOffsetOfACorruptRecord() throws Exception {
        Path file = write(LINE, strings("a".repeat(200), "b".repeat(200), "c".repeat(200)));
        BulkFiles.truncate(file, 0.7);

        assertThatThrownBy(() -> read(file, LINE))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("sequence-file record after byte offset");
    }

    @Test
    void rejectsUnknownCodecsTypesAndRowTypes() {
        assertBadOption("compression.codec", "nope");
        assertBadOption("compression.type", "NONE");
        assertBadOption("compression.type", "SOMETIMES");
        RowType twoColumns = RowType.of(new VarCharType(10), new IntType());
        assertThatThrownBy(() -> factory.createBulkWriterFactory(TestFormatContext.of(twoColumns)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'sequence-file'");
    }

    private void assertBadOption(String key, String value) {
        assertThatThrownBy(() -> factory.createBulkWriterFactory(TestFormatContext.of(LINE, key, value)))
                .as(key + "=" + value)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(key)
                .hasMessageContaining(value);
    }

    private Path write(RowType type, List<RowData> rows, String... options) throws Exception {
        Path file = dir.resolve("part-" + System.nanoTime() + ".seq");
        FormatFiles.write(factory.createBulkWriterFactory(TestFormatContext.of(type, options)), file, rows);
        return file;
    }

    private List<List<Object>> read(Path file, RowType type) throws Exception {
        return FormatFiles.read(factory.createStreamFormat(TestFormatContext.of(type)), type, file);
    }

    private static List<RowData> strings(String... values) {
        return Arrays.stream(values)
                .map(v -> (RowData) GenericRowData.of(v == null ? null : StringData.fromString(v)))
                .collect(Collectors.toList());
    }

    private static SequenceFile.Reader hadoopReader(Path file) throws IOException {
        return new SequenceFile.Reader(new Configuration(), SequenceFile.Reader.file(hadoopPath(file)));
    }

    private static org.apache.hadoop.fs.Path hadoopPath(Path file) {
        return new org.apache.hadoop.fs.Path(file.toUri());
    }
}
