package io.sluice.testkit;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.compact.CompactionInputs;
import io.sluice.spi.compact.CompactionOutput;
import io.sluice.spi.compact.CompactorContext;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.compact.FileCompactorFactory;
import io.sluice.spi.compact.RowReader;
import io.sluice.spi.compact.RowWriter;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Conformance tests for a {@link FileCompactorFactory}: extend this class in a plugin's tests,
 * return the factory from {@link #compactorFactory()}, and JUnit 5 runs every check below against
 * it. The compactor works on files of two formats the kit defines:
 *
 * <ul>
 *   <li>{@code kit-lines}, a row format: one row (one string column) per line. Files concatenate
 *       byte by byte.
 *   <li>{@code kit-blocks}, a bulk format: a {@code BEGIN} line, one line per row, an {@code END n}
 *       line with the row count. Concatenated files are corrupt: a compactor has to read and
 *       write rows, or refuse the format in {@code validate}.
 * </ul>
 *
 * <p>The checks:
 *
 * <ul>
 *   <li>the output holds exactly the rows {@link #expectedRows} says (by default the rows of the
 *       inputs; in their order, unless {@link #preservesOrder()} is {@code false}), including for
 *       empty inputs, rows repeated across inputs and a single input with a repeated row;
 *   <li>a compactor whose output differs from its inputs' rows (as it declares in {@link
 *       #expectedRows} or as the kit sees) says {@link FileCompactor#mustSeeEveryUnit()}: without
 *       it, a unit of a single file is published as it is, and the change never happens there;
 *   <li>for each format the compactor either refuses it in {@code validate} with an {@link
 *       IllegalArgumentException} naming the format, or produces a well-formed output file;
 *   <li>a compactor of a format without a reader either refuses it or never asks for rows;
 *   <li>a failure while reading an input propagates out of {@code compact} (a compactor that
 *       swallowed it would publish a file with rows missing); run again on the same inputs, as
 *       the framework does after the failure, it produces the full output: exactly once;
 *   <li>invalid options ({@link #invalidOptions()}) fail {@code createCompactor} or {@code
 *       validate} with an {@link IllegalArgumentException} naming the option.
 * </ul>
 */
public abstract class FileCompactorConformance {

    /** Sub-classes are JUnit test classes. */
    protected FileCompactorConformance() {}

    // ---------------------------------------------------------------- what a plugin author supplies

    /** The factory under test, created directly (a new instance each call is fine). */
    protected abstract FileCompactorFactory compactorFactory();

    /** The options the factory gets in every check but the invalid-options one. */
    protected Map<String, String> options() {
        return Collections.emptyMap();
    }

    /** Options the factory must reject; {@code null} (the default) skips that check, reported as skipped. */
    protected Map<String, String> invalidOptions() {
        return null;
    }

    /** Whether the output keeps the inputs' rows in order; a sorting compactor returns false. */
    protected boolean preservesOrder() {
        return true;
    }

    /**
     * The rows the compaction of {@code inputs} (each the rows of one input file, in order) must
     * write: by default every row of every input, in order. A compactor that removes duplicates,
     * drops or rewrites rows says what it makes of them here.
     */
    protected List<String> expectedRows(List<List<String>> inputs) {
        List<String> all = new ArrayList<>();
        inputs.forEach(all::addAll);
        return all;
    }

    // ---------------------------------------------------------------- the checks

    @Test
    void theOutputHoldsExactlyTheRowsOfTheInputs(@TempDir java.nio.file.Path dir) throws Exception {
        for (KitFormat format : KitFormat.values()) {
            if (!accepts(format, true)) {
                continue;
            }
            List<String> out = compact(format, dir.resolve(format.name()), SEVERAL_INPUTS, -1);
            assertRows(format, out, SEVERAL_INPUTS);
        }
    }

    @Test
    void aSingleInputComesOutAsExpected(@TempDir java.nio.file.Path dir) throws Exception {
        for (KitFormat format : KitFormat.values()) {
            if (accepts(format, true)) {
                assertRows(format, compact(format, dir.resolve(format.name()), SINGLE_INPUT, -1), SINGLE_INPUT);
            }
        }
    }

    @Test
    void aCompactorThatChangesRowsSeesEveryUnit(@TempDir java.nio.file.Path dir) throws Exception {
        for (KitFormat format : KitFormat.values()) {
            if (!accepts(format, true)) {
                continue;
            }
            boolean mustSeeEveryUnit = compactorFactory()
                    .createCompactor(context(format, true, options()))
                    .mustSeeEveryUnit();
            for (List<List<String>> inputs : Arrays.asList(SINGLE_INPUT, SEVERAL_INPUTS)) {
                List<String> copied = new ArrayList<>();
                inputs.forEach(copied::addAll);
                boolean declaresChange = !sameRows(expectedRows(inputs), copied);
                List<String> out;
                try {
                    out = compact(format, dir.resolve(format.name() + "-" + inputs.size()), inputs, -1);
                } catch (IOException unreadable) {
                    out = copied; // a corrupt output is the other checks' finding; here only what is declared counts
                }
                boolean changes = !sameRows(out, copied);
                assertThat(mustSeeEveryUnit || !(declaresChange || changes))
                        .as(
                                "%s: the compactor %s rows %s into %s, so it must see every unit (mustSeeEveryUnit):"
                                        + " a single file is published without it",
                                format.id,
                                declaresChange ? "declares it turns" : "turns",
                                copied,
                                declaresChange ? expectedRows(inputs) : out)
                        .isTrue();
            }
        }
    }

    @Test
    void atLeastOneFormatIsAcceptedAndRefusalsNameTheFormat() {
        int accepted = 0;
        for (KitFormat format : KitFormat.values()) {
            for (boolean readable : new boolean[] {true, false}) {
                Throwable refused =
                        catchThrowable(() -> compactorFactory().validate(context(format, readable, options())));
                if (refused == null) {
                    accepted++;
                } else {
                    assertThat(refused)
                            .as("refusal of %s", format.id)
                            .isInstanceOf(IllegalArgumentException.class)
                            .hasMessageContaining(format.id);
                }
            }
        }
        assertThat(accepted).as("formats the compactor accepts").isPositive();
    }

    @Test
    void withoutAReaderTheCompactorRefusesOrNeverAsksForRows(@TempDir java.nio.file.Path dir) throws Exception {
        for (KitFormat format : KitFormat.values()) {
            if (accepts(format, false)) {
                KitFiles files = new KitFiles(format, dir.resolve(format.name()), false);
                List<List<String>> inputs = Arrays.asList(Arrays.asList("a"), Arrays.asList("b"));
                files.write(inputs);
                FileCompactor compactor = compactorFactory().createCompactor(context(format, false, options()));
                compactor.compact(files.inputs(-1), files.output());
                assertRows(format, files.finish(), inputs);
            }
        }
    }

    @Test
    void aFailingInputFailsTheCompactionAndTheRetryIsComplete(@TempDir java.nio.file.Path dir) throws Exception {
        for (KitFormat format : KitFormat.values()) {
            if (!accepts(format, true)) {
                continue;
            }
            List<List<String>> inputs =
                    Arrays.asList(Arrays.asList("a1", "a2"), Arrays.asList("b1", "a2"), Arrays.asList("c1", "c2"));
            for (int failAt = 1; failAt <= inputs.size(); failAt++) {
                java.nio.file.Path attempt = dir.resolve(format.name() + "-" + failAt);
                KitFiles files = new KitFiles(format, attempt, true);
                files.write(inputs);
                FileCompactor compactor = compactorFactory().createCompactor(context(format, true, options()));
                int n = failAt;
                assertThatThrownBy(() -> compactor.compact(files.inputs(n), files.output()))
                        .as("%s: reading input %d fails", format.id, n)
                        .isInstanceOf(IOException.class);
                // the framework discards the output and runs the unit again, with a new compactor
                List<String> out = compact(format, attempt.resolve("retry"), inputs, -1);
                assertRows(format, out, inputs);
            }
        }
    }

    @Test
    void rejectsInvalidOptions() {
        Map<String, String> invalid = invalidOptions();
        assumeTrue(
                invalid != null, "invalidOptions() is null: the factory has no options to get wrong, nothing to check");
        for (KitFormat format : KitFormat.values()) {
            if (!accepts(format, true)) {
                continue; // refused for its format already
            }
            CompactorContext context = context(format, true, invalid);
            Throwable t = catchThrowable(() -> {
                compactorFactory().validate(context);
                compactorFactory().createCompactor(context);
            });
            assertThat(t).as("invalid options %s", invalid).isInstanceOf(IllegalArgumentException.class);
            assertThat(invalid.keySet()).anySatisfy(key -> assertThat(t).hasMessageContaining(key));
        }
    }

    // ---------------------------------------------------------------- machinery

    /** Inputs with an empty one, an empty row and rows repeated within and across inputs. */
    private static final List<List<String>> SEVERAL_INPUTS = Arrays.asList(
            Arrays.asList("a1", "a2", "a3"),
            Collections.emptyList(),
            Arrays.asList("c1", "a2"),
            Arrays.asList("d1", "d2", "", "d4 with spaces, and a comma", "d1"));

    /** A unit of one file, with a repeated row. */
    private static final List<List<String>> SINGLE_INPUT = Collections.singletonList(Arrays.asList("x", "y", "x"));

    private boolean accepts(KitFormat format, boolean readable) {
        try {
            compactorFactory().validate(context(format, readable, options()));
            return true;
        } catch (IllegalArgumentException refused) {
            return false;
        }
    }

    private List<String> compact(KitFormat format, java.nio.file.Path dir, List<List<String>> inputs, int failAt)
            throws IOException {
        KitFiles files = new KitFiles(format, dir, true);
        files.write(inputs);
        FileCompactor compactor = compactorFactory().createCompactor(context(format, true, options()));
        compactor.compact(files.inputs(failAt), files.output());
        return files.finish();
    }

    /** Whether two row lists are equal, in order unless {@link #preservesOrder()} is false. */
    private boolean sameRows(List<String> a, List<String> b) {
        if (preservesOrder()) {
            return a.equals(b);
        }
        List<String> x = new ArrayList<>(a);
        List<String> y = new ArrayList<>(b);
        Collections.sort(x);
        Collections.sort(y);
        return x.equals(y);
    }

    private void assertRows(KitFormat format, List<String> actual, List<List<String>> inputs) {
        List<String> expected = expectedRows(inputs);
        if (preservesOrder()) {
            assertThat(actual).as("rows of the %s output", format.id).containsExactlyElementsOf(expected);
        } else {
            assertThat(actual).as("rows of the %s output", format.id).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    private static CompactorContext context(KitFormat format, boolean readable, Map<String, String> options) {
        Configuration config = Configuration.fromMap(options);
        return new CompactorContext() {
            @Override
            public String format() {
                return format.id;
            }

            @Override
            public boolean bulkFormat() {
                return format == KitFormat.BLOCKS;
            }

            @Override
            public boolean readableFormat() {
                return readable;
            }

            @Override
            public ReadableConfig options() {
                return config;
            }

            @Override
            public ExtensionLookup extensions() {
                return new ExtensionLookup() {
                    @Override
                    public <T extends SluiceFactory> T find(Class<T> type, String identifier) {
                        throw new IllegalArgumentException("The compactor conformance kit offers no extensions");
                    }

                    @Override
                    public List<String> identifiers(Class<? extends SluiceFactory> type) {
                        return Collections.emptyList();
                    }
                };
            }
        };
    }

    /** The kit's two file formats. */
    private enum KitFormat {
        LINES("kit-lines"),
        BLOCKS("kit-blocks");

        final String id;

        KitFormat(String id) {
            this.id = id;
        }

        byte[] encode(List<String> rows) {
            StringBuilder s = new StringBuilder(this == BLOCKS ? "BEGIN\n" : "");
            rows.forEach(r -> s.append(r).append('\n'));
            if (this == BLOCKS) {
                s.append("END ").append(rows.size()).append('\n');
            }
            return s.toString().getBytes(StandardCharsets.UTF_8);
        }

        /** @throws IOException for a malformed file (e.g. concatenated blocks) */
        List<String> decode(byte[] bytes, String what) throws IOException {
            List<String> lines =
                    new ArrayList<>(Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\n", -1)));
            if (lines.get(lines.size() - 1).isEmpty()) {
                lines.remove(lines.size() - 1);
            } else {
                throw new IOException(what + " does not end with a line break");
            }
            if (this == LINES) {
                return lines;
            }
            if (lines.size() < 2
                    || !lines.get(0).equals("BEGIN")
                    || !lines.get(lines.size() - 1).equals("END " + (lines.size() - 2))) {
                throw new IOException(what + " is not one well-formed kit-blocks file: " + lines);
            }
            return lines.subList(1, lines.size() - 1);
        }
    }

    /** Input files on disk and the output of one compaction, in a kit format. */
    private static final class KitFiles {
        private final KitFormat format;
        private final java.nio.file.Path dir;
        private final boolean readable;
        private final List<Path> files = new ArrayList<>();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private List<String> rows;

        KitFiles(KitFormat format, java.nio.file.Path dir, boolean readable) {
            this.format = format;
            this.dir = dir;
            this.readable = readable;
        }

        void write(List<List<String>> inputs) throws IOException {
            Files.createDirectories(dir);
            for (int i = 0; i < inputs.size(); i++) {
                java.nio.file.Path file = dir.resolve(".uncompacted-part-" + i);
                Files.write(file, format.encode(inputs.get(i)));
                files.add(new Path(file.toUri()));
            }
        }

        /** @param failAt the 1-based input whose reading fails, or -1 */
        CompactionInputs inputs(int failAt) {
            return new CompactionInputs() {
                @Override
                public List<Path> files() {
                    return Collections.unmodifiableList(files);
                }

                @Override
                public InputStream open(Path file) throws IOException {
                    return new java.io.ByteArrayInputStream(read(file));
                }

                @Override
                public RowReader readRows(Path file) throws IOException {
                    if (!readable) {
                        throw new AssertionError("the compactor asked for rows of a format without a reader");
                    }
                    Iterable<String> decoded = format.decode(read(file), file.toString());
                    java.util.Iterator<String> it = decoded.iterator();
                    return new RowReader() {
                        @Override
                        public RowData next() {
                            return it.hasNext() ? GenericRowData.of(StringData.fromString(it.next())) : null;
                        }

                        @Override
                        public void close() {}
                    };
                }

                private byte[] read(Path file) throws IOException {
                    if (files.indexOf(file) + 1 == failAt) {
                        throw new IOException("kit: injected failure reading " + file);
                    }
                    return Files.readAllBytes(java.nio.file.Paths.get(file.toUri()));
                }
            };
        }

        CompactionOutput output() {
            return new CompactionOutput() {
                @Override
                public OutputStream stream() {
                    if (rows != null) {
                        throw new IllegalStateException("A compactor writes either bytes or rows, not both");
                    }
                    return bytes;
                }

                @Override
                public RowWriter rows() {
                    if (bytes.size() > 0) {
                        throw new IllegalStateException("A compactor writes either bytes or rows, not both");
                    }
                    if (rows == null) {
                        rows = new ArrayList<>();
                    }
                    return row -> rows.add(row.getString(0).toString());
                }
            };
        }

        /** The rows of the finished output file, read back with the format's own reader. */
        List<String> finish() throws IOException {
            byte[] file = rows != null ? format.encode(rows) : bytes.toByteArray();
            return format.decode(file, "the compacted " + format.id + " file");
        }
    }
}
