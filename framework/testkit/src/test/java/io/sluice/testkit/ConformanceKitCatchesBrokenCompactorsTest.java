package io.sluice.testkit;

import io.sluice.spi.compact.CompactionInputs;
import io.sluice.spi.compact.CompactionOutput;
import io.sluice.spi.compact.CompactorContext;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.compact.FileCompactorFactory;
import io.sluice.spi.compact.RowReader;
import io.sluice.spi.compact.RowWriter;

import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compactor kit must catch broken compactors: each nested class runs it against a compactor
 * with one defect, and exactly the checks that defect breaks must fail. (Surefire skips nested
 * classes, so the failing runs stay in here.)
 */
class ConformanceKitCatchesBrokenCompactorsTest {

    private static final String OUTPUT = "theOutputHoldsExactlyTheRowsOfTheInputs";
    private static final String SINGLE = "aSingleInputComesOutAsExpected";
    private static final String EVERY_UNIT = "aCompactorThatChangesRowsSeesEveryUnit";
    private static final String REFUSALS = "atLeastOneFormatIsAcceptedAndRefusalsNameTheFormat";
    private static final String NO_READER = "withoutAReaderTheCompactorRefusesOrNeverAsksForRows";
    private static final String FAILURE = "aFailingInputFailsTheCompactionAndTheRetryIsComplete";
    private static final String OPTIONS = "rejectsInvalidOptions";

    private static Set<String> failedChecks(Class<?> testClass) {
        return ConformanceRuns.failedChecks(
                testClass, OUTPUT, SINGLE, EVERY_UNIT, REFUSALS, NO_READER, FAILURE, OPTIONS);
    }

    @Test
    void withoutInvalidOptionsTheirCheckIsSkippedNotPassed() {
        assertThat(ConformanceRuns.skippedChecks(
                        WithoutInvalidOptions.class, OUTPUT, SINGLE, EVERY_UNIT, REFUSALS, NO_READER, FAILURE, OPTIONS))
                .contains(OPTIONS);
    }

    @Test
    void correctCompactorsPassEverything() {
        assertThat(failedChecks(CorrectConcat.class)).isEmpty();
        assertThat(failedChecks(CorrectRecordWise.class)).isEmpty();
    }

    @Test
    void concatenatingBulkFiles() {
        assertThat(failedChecks(ConcatAcceptingBulk.class)).containsExactlyInAnyOrder(OUTPUT, NO_READER, FAILURE);
    }

    @Test
    void swallowingAnInputThatCannotBeRead() {
        assertThat(failedChecks(SwallowingErrors.class)).containsExactlyInAnyOrder(FAILURE);
    }

    @Test
    void droppingTheLastInput() {
        assertThat(failedChecks(DroppingLastInput.class))
                .containsExactlyInAnyOrder(OUTPUT, SINGLE, EVERY_UNIT, FAILURE);
    }

    @Test
    void aDeduplicatingCompactorThatSaysSoPasses() {
        assertThat(failedChecks(CorrectDeduplicating.class)).isEmpty();
    }

    @Test
    void deduplicatingWithoutSeeingEveryUnit() {
        assertThat(failedChecks(DeduplicatingOnlyMergedUnits.class)).containsExactlyInAnyOrder(EVERY_UNIT);
    }

    @Test
    void deduplicatingWithoutDeclaringTheExpectedRows() {
        assertThat(failedChecks(DeduplicatingUndeclared.class)).containsExactlyInAnyOrder(OUTPUT, SINGLE, FAILURE);
    }

    @Test
    void readingRowsWithoutAReader() {
        assertThat(failedChecks(RowsWithoutReader.class)).containsExactlyInAnyOrder(NO_READER);
    }

    @Test
    void acceptingInvalidOptions() {
        assertThat(failedChecks(AcceptsAnyOptions.class)).containsExactlyInAnyOrder(OPTIONS);
    }

    /** The defects a test compactor can have. */
    enum Defect {
        NONE,
        ACCEPTS_BULK,
        SWALLOWS_ERRORS,
        DROPS_LAST,
        IGNORES_READABILITY,
        /** Removes repeated rows, not a defect in itself; says it must see every unit. */
        DEDUPLICATES,
        /** Removes repeated rows, but does not say it must see every unit. */
        DEDUPLICATES_ONLY_MERGED
    }

    /** Byte concatenation, or rows copied one by one, with one defect. */
    static final class TestCompactorFactory implements FileCompactorFactory {
        private final boolean rows;
        private final Defect defect;

        TestCompactorFactory(boolean rows, Defect defect) {
            this.rows = rows;
            this.defect = defect;
        }

        @Override
        public String identifier() {
            return rows ? "test-rows" : "test-concat";
        }

        @Override
        public void validate(CompactorContext context) {
            if (!rows && context.bulkFormat() && defect != Defect.ACCEPTS_BULK) {
                throw new IllegalArgumentException("cannot concatenate " + context.format());
            }
            if (rows && !context.readableFormat() && defect != Defect.IGNORES_READABILITY) {
                throw new IllegalArgumentException("no reader for " + context.format());
            }
            if (context.options()
                            .getOptional(
                                    ConfigOptions.key("test.level").intType().noDefaultValue())
                            .orElse(1)
                    < 0) {
                throw new IllegalArgumentException("Invalid 'test.level'");
            }
        }

        @Override
        public FileCompactor createCompactor(CompactorContext context) {
            boolean deduplicates = defect == Defect.DEDUPLICATES || defect == Defect.DEDUPLICATES_ONLY_MERGED;
            java.util.Set<String> seen = new java.util.HashSet<>();
            return new FileCompactor() {
                @Override
                public boolean mustSeeEveryUnit() {
                    return defect == Defect.DEDUPLICATES;
                }

                @Override
                public void compact(CompactionInputs inputs, CompactionOutput output) throws IOException {
                    List<Path> files = inputs.files();
                    if (defect == Defect.DROPS_LAST) {
                        files = files.subList(0, files.size() - 1);
                    }
                    OutputStream bytes = rows ? null : output.stream();
                    RowWriter writer = rows ? output.rows() : null;
                    for (Path file : files) {
                        try {
                            if (rows) {
                                try (RowReader in = inputs.readRows(file)) {
                                    for (RowData row = in.next(); row != null; row = in.next()) {
                                        if (!deduplicates
                                                || seen.add(row.getString(0).toString())) {
                                            writer.write(row);
                                        }
                                    }
                                }
                            } else {
                                try (InputStream in = inputs.open(file)) {
                                    in.transferTo(bytes);
                                }
                            }
                        } catch (IOException e) {
                            if (defect != Defect.SWALLOWS_ERRORS) {
                                throw e;
                            }
                        }
                    }
                }
            };
        }
    }

    abstract static class Kit extends FileCompactorConformance {
        private final FileCompactorFactory factory;

        Kit(boolean rows, Defect defect) {
            this.factory = new TestCompactorFactory(rows, defect);
        }

        @Override
        protected FileCompactorFactory compactorFactory() {
            return factory;
        }

        @Override
        protected Map<String, String> invalidOptions() {
            return Collections.singletonMap("test.level", "-1");
        }
    }

    static final class CorrectConcat extends Kit {
        CorrectConcat() {
            super(false, Defect.NONE);
        }
    }

    static final class WithoutInvalidOptions extends Kit {
        WithoutInvalidOptions() {
            super(false, Defect.NONE);
        }

        @Override
        protected Map<String, String> invalidOptions() {
            return null; // the kit's default
        }
    }

    static final class CorrectRecordWise extends Kit {
        CorrectRecordWise() {
            super(true, Defect.NONE);
        }
    }

    static final class ConcatAcceptingBulk extends Kit {
        ConcatAcceptingBulk() {
            super(false, Defect.ACCEPTS_BULK);
        }
    }

    static final class SwallowingErrors extends Kit {
        SwallowingErrors() {
            super(true, Defect.SWALLOWS_ERRORS);
        }
    }

    static final class DroppingLastInput extends Kit {
        DroppingLastInput() {
            super(true, Defect.DROPS_LAST);
        }
    }

    /** Every row once, in the order of its first occurrence. */
    private static List<String> distinct(List<List<String>> inputs) {
        java.util.LinkedHashSet<String> rows = new java.util.LinkedHashSet<>();
        inputs.forEach(rows::addAll);
        return new java.util.ArrayList<>(rows);
    }

    static final class CorrectDeduplicating extends Kit {
        CorrectDeduplicating() {
            super(true, Defect.DEDUPLICATES);
        }

        @Override
        protected List<String> expectedRows(List<List<String>> inputs) {
            return distinct(inputs);
        }
    }

    static final class DeduplicatingOnlyMergedUnits extends Kit {
        DeduplicatingOnlyMergedUnits() {
            super(true, Defect.DEDUPLICATES_ONLY_MERGED);
        }

        @Override
        protected List<String> expectedRows(List<List<String>> inputs) {
            return distinct(inputs);
        }
    }

    static final class DeduplicatingUndeclared extends Kit {
        DeduplicatingUndeclared() {
            super(true, Defect.DEDUPLICATES);
        }
    }

    static final class RowsWithoutReader extends Kit {
        RowsWithoutReader() {
            super(true, Defect.IGNORES_READABILITY);
        }
    }

    static final class AcceptsAnyOptions extends FileCompactorConformance {
        @Override
        protected FileCompactorFactory compactorFactory() {
            return new TestCompactorFactory(true, Defect.NONE);
        }

        @Override
        protected Map<String, String> invalidOptions() {
            return Collections.singletonMap("test.unknown", "x"); // the factory has no such option to check
        }
    }
}
