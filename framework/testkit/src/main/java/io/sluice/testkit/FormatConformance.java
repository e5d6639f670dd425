package io.sluice.testkit;

import io.sluice.spi.format.BulkReadingFormat;
import io.sluice.spi.format.BulkWritingFormat;
import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.FormatFactory;
import io.sluice.spi.format.RowEncodingFormat;
import io.sluice.spi.format.StreamReadingFormat;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FSDataOutputStreamWrapper;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Conformance tests for a format: extend this class in a plugin's tests and return the format from
 * {@link #formatFactory()}; JUnit 5 runs every check below against the capabilities it implements.
 * Rows are of {@link #rowType()} ({@code id BIGINT, name STRING} unless overridden; the kit makes
 * up values for BIGINT, INT and STRING columns, strings with commas, quotes, non-ASCII characters,
 * an empty string and, where {@link #nullableStrings()}, nulls).
 *
 * <p>The checks:
 *
 * <ul>
 *   <li>the format offers at least one capability and does not write both row by row and in bulk;
 *   <li>what its writer writes, its reader reads back: the same rows in the same order, whether
 *       written by one encoder or bulk writer (a part file of several rows) or one row per file;
 *   <li>an empty file (a writer that wrote nothing) reads as no rows, or the format says
 *       {@link #writesEmptyFiles()} is false and the kit does not ask;
 *   <li>each row is taken as text as soon as the reader returns it, as the framework copies it: a
 *       reader may reuse one row object for all its rows;
 *   <li>invalid options ({@link #invalidOptions()}) fail the capability with an {@link
 *       IllegalArgumentException} naming the option.
 * </ul>
 */
public abstract class FormatConformance {

    @TempDir
    protected java.nio.file.Path tmp;

    /** The format, created directly. */
    protected abstract FormatFactory formatFactory();

    /** The rows the kit writes; the format must be able to write and read them. */
    protected RowType rowType() {
        return (RowType)
                DataTypes.ROW(DataTypes.FIELD("id", DataTypes.BIGINT()), DataTypes.FIELD("name", DataTypes.STRING()))
                        .getLogicalType();
    }

    /** The format's options, prefix removed (as a {@link FormatContext} has them). */
    protected Map<String, String> options() {
        return Collections.emptyMap();
    }

    /** Options that the format must refuse, naming the first key; {@code null} skips the check. */
    protected Map<String, String> invalidOptions() {
        return null;
    }

    /** Whether a null string survives a round trip (csv needs its null literal for that). */
    protected boolean nullableStrings() {
        return true;
    }

    /** Whether a file with no rows is a valid file of the format (a bulk format's empty file has a footer). */
    protected boolean writesEmptyFiles() {
        return true;
    }

    // ------------------------------------------------------------------ checks

    @Test
    void offersACapabilityAndWritesOneWayOnly() {
        FormatFactory f = formatFactory();
        assertThat(f instanceof RowEncodingFormat
                        || f instanceof BulkWritingFormat
                        || f instanceof StreamReadingFormat
                        || f instanceof BulkReadingFormat)
                .as("%s offers at least one capability", f.identifier())
                .isTrue();
        assertThat(f instanceof RowEncodingFormat && f instanceof BulkWritingFormat)
                .as("%s writes either row by row or in bulk", f.identifier())
                .isFalse();
    }

    @Test
    void whatTheWriterWritesTheReaderReadsBack() throws Exception {
        assumeTrue(writes() && reads(), "the format both writes and reads");
        List<RowData> rows = rows(37);
        Path file = write("many", rows);
        assertThat(read(file))
                .as("rows read back from one file of %s", formatFactory().identifier())
                .containsExactlyElementsOf(texts(rows));
        for (int i = 0; i < 3; i++) {
            List<RowData> one = rows.subList(i, i + 1);
            assertThat(read(write("one-" + i, one))).as("a file of one row").containsExactlyElementsOf(texts(one));
        }
    }

    @Test
    void anEmptyFileReadsAsNoRows() throws Exception {
        assumeTrue(writes() && reads() && writesEmptyFiles(), "the format writes and reads empty files");
        assertThat(read(write("empty", Collections.emptyList()))).isEmpty();
    }

    @Test
    void invalidOptionsAreRefusedByName() {
        Map<String, String> invalid = invalidOptions();
        assumeTrue(
                invalid != null, "invalidOptions() is null: the format has no options to get wrong, nothing to check");
        String key = invalid.keySet().iterator().next();
        FormatContext context = context(invalid);
        FormatFactory f = formatFactory();
        Throwable error = f instanceof RowEncodingFormat
                ? catchThrowable(() -> ((RowEncodingFormat) f).createEncoder(context))
                : f instanceof BulkWritingFormat
                        ? catchThrowable(() -> create((BulkWritingFormat) f, context))
                        : f instanceof StreamReadingFormat
                                ? catchThrowable(() -> ((StreamReadingFormat) f).createStreamFormat(context))
                                : catchThrowable(() -> ((BulkReadingFormat) f).createBulkFormat(context));
        assertThat(error).as("a capability created with %s", invalid).isInstanceOf(IllegalArgumentException.class);
        assertThat(error.getMessage()).as("the message names the option").contains(key);
    }

    // ------------------------------------------------------------------ helpers

    private boolean writes() {
        return formatFactory() instanceof RowEncodingFormat || formatFactory() instanceof BulkWritingFormat;
    }

    private boolean reads() {
        return formatFactory() instanceof StreamReadingFormat || formatFactory() instanceof BulkReadingFormat;
    }

    private FormatContext context(Map<String, String> options) {
        RowType type = rowType();
        Configuration config = Configuration.fromMap(options);
        return new FormatContext() {
            @Override
            public RowType rowType() {
                return type;
            }

            @Override
            public ReadableConfig options() {
                return config;
            }
        };
    }

    private static void create(BulkWritingFormat f, FormatContext context) throws IOException {
        f.createBulkWriterFactory(context);
    }

    private Path write(String name, List<RowData> rows) throws IOException {
        Path file =
                new Path(tmp.resolve(name + "." + formatFactory().identifier()).toUri());
        FormatContext context = context(options());
        FileSystem fs = file.getFileSystem();
        try (FSDataOutputStream out = fs.create(file, FileSystem.WriteMode.OVERWRITE)) {
            if (formatFactory() instanceof RowEncodingFormat) {
                Encoder<RowData> encoder = ((RowEncodingFormat) formatFactory()).createEncoder(context);
                for (RowData row : rows) {
                    encoder.encode(row, out);
                }
            } else {
                BulkWriter.Factory<RowData> factory =
                        ((BulkWritingFormat) formatFactory()).createBulkWriterFactory(context);
                BulkWriter<RowData> writer = factory.create(new Unclosable(out));
                for (RowData row : rows) {
                    writer.addElement(row);
                }
                writer.finish();
            }
        }
        return file;
    }

    private List<String> read(Path file) throws IOException {
        FormatContext context = context(options());
        FileSystem fs = file.getFileSystem();
        long length = fs.getFileStatus(file).getLen();
        List<String> rows = new ArrayList<>();
        Configuration config = new Configuration();
        if (formatFactory() instanceof StreamReadingFormat) {
            StreamFormat<RowData> format = ((StreamReadingFormat) formatFactory()).createStreamFormat(context);
            FSDataInputStream in = fs.open(file);
            try (StreamFormat.Reader<RowData> reader = format.createReader(config, in, length, length)) {
                for (RowData row; (row = reader.read()) != null; ) {
                    rows.add(text(row));
                }
            }
        } else {
            BulkFormat<RowData, FileSourceSplit> format =
                    ((BulkReadingFormat) formatFactory()).createBulkFormat(context);
            FileSourceSplit split = new FileSourceSplit(
                    "kit", file, 0, length, fs.getFileStatus(file).getModificationTime(), length);
            try (BulkFormat.Reader<RowData> reader = format.createReader(config, split)) {
                for (BulkFormat.RecordIterator<RowData> batch; (batch = reader.readBatch()) != null; ) {
                    for (RecordAndPosition<RowData> r; (r = batch.next()) != null; ) {
                        rows.add(text(r.getRecord()));
                    }
                    batch.releaseBatch();
                }
            }
        }
        return rows;
    }

    /** Rows of {@link #rowType()}: ids 0..n-1, strings with the characters formats find hard. */
    private List<RowData> rows(int n) {
        String[] hard = {"plain", "with, comma", "\"quoted\"", "über ☃", "", "tab\tinside", "semi;colon"};
        List<LogicalType> types = rowType().getChildren();
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            GenericRowData row = new GenericRowData(types.size());
            for (int c = 0; c < types.size(); c++) {
                LogicalTypeRoot root = types.get(c).getTypeRoot();
                if (root == LogicalTypeRoot.BIGINT) {
                    row.setField(c, (long) i * 1_000_003L - 7);
                } else if (root == LogicalTypeRoot.INTEGER) {
                    row.setField(c, i - 5);
                } else if (root == LogicalTypeRoot.VARCHAR || root == LogicalTypeRoot.CHAR) {
                    boolean isNull = nullableStrings() && types.size() > 1 && i % 11 == 5;
                    row.setField(
                            c,
                            isNull ? null : StringData.fromString(hard[i % hard.length] + (types.size() > 1 ? "" : i)));
                } else {
                    throw new IllegalStateException(
                            "The format kit makes up BIGINT, INT and STRING columns, not " + types.get(c));
                }
            }
            rows.add(row);
        }
        return rows;
    }

    private List<String> texts(List<RowData> rows) {
        List<String> texts = new ArrayList<>();
        rows.forEach(r -> texts.add(text(r)));
        return texts;
    }

    /** The row's values as text, read at once: a reader may reuse the row object for the next row. */
    private String text(RowData row) {
        List<LogicalType> types = rowType().getChildren();
        StringBuilder b = new StringBuilder();
        for (int c = 0; c < types.size(); c++) {
            if (c > 0) {
                b.append(" | ");
            }
            b.append(
                    row.isNullAt(c)
                            ? "<null>"
                            : String.valueOf(
                                    RowData.createFieldGetter(types.get(c), c).getFieldOrNull(row)));
        }
        return b.toString();
    }

    /** Bulk writers must not close the stream (the part file's owner does); the kit closes it once. */
    private static final class Unclosable extends FSDataOutputStreamWrapper {
        Unclosable(FSDataOutputStream out) {
            super(out);
        }

        @Override
        public void close() {
            // the owner closes
        }
    }
}
