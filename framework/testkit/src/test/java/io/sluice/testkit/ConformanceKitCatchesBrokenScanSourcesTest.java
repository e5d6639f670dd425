package io.sluice.testkit;

import io.sluice.spi.source.ScanSourceFactory;
import io.sluice.testkit.InMemoryScanSourceFactory.Defect;

import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scan source kit must catch broken scan sources: each nested class runs it against the
 * in-memory scan source with one defect, through the JUnit launcher, and exactly the checks that
 * defect breaks must fail. (Surefire skips nested classes, so the failing runs stay in here.)
 */
class ConformanceKitCatchesBrokenScanSourcesTest {

    private static final String BOUNDED = "boundedReadYieldsExactlyTheCommittedRows";
    private static final String CONTINUOUS = "continuousReadPlansEachCommitOnceFromThePositionItIsGiven";
    private static final String EMPTY = "continuousReadOfAnEmptyTableMissesNoCommit";
    private static final String RESUME = "reopeningASplitAtAPositionYieldsExactlyTheRowsAfterIt";
    private static final String BYTES = "positionsAndSplitsWorkAsCopiedBytesInNewPlannersAndReaders";
    private static final String READER = "oneReaderReadsManySplitsOpenedAndClosedInTurn";
    private static final String OPTIONS = "rejectsInvalidOptions";
    private static final String ROW_TYPE = "tableRowTypeHasTheColumnsOfTheRows";

    private static Set<String> failedChecks(Class<?> testClass) {
        return ConformanceRuns.failedChecks(
                testClass, BOUNDED, CONTINUOUS, EMPTY, RESUME, BYTES, READER, OPTIONS, ROW_TYPE);
    }

    @Test
    void correctSourcesPassEverything() {
        assertThat(failedChecks(Correct.class)).isEmpty();
        assertThat(failedChecks(CorrectFromLatest.class)).isEmpty();
    }

    @Test
    void reusingTheRowObjectIsAllowed() {
        assertThat(failedChecks(ReusesRowObject.class)).isEmpty();
    }

    @Test
    void plannerIgnoringThePosition() {
        // every plan repeats every commit: caught in the running read, after a restore, and on an empty table
        assertThat(failedChecks(IgnoresPosition.class)).containsExactlyInAnyOrder(CONTINUOUS, EMPTY, BYTES);
    }

    @Test
    void newPositionWhenNothingIsNew() {
        assertThat(failedChecks(NewPositionWhenNothingIsNew.class)).containsExactlyInAnyOrder(CONTINUOUS);
    }

    @Test
    void readerIgnoringRecordsToSkip() {
        assertThat(failedChecks(IgnoresRecordsToSkip.class)).containsExactlyInAnyOrder(RESUME);
    }

    @Test
    void positionsOffByOne() {
        assertThat(failedChecks(PositionOffByOne.class)).containsExactlyInAnyOrder(RESUME);
    }

    @Test
    void splitsFoundByPayloadIdentity() {
        // in one JVM with the same objects everything works; only copies of the bytes tell
        assertThat(failedChecks(SplitsByIdentity.class)).containsExactlyInAnyOrder(BYTES);
    }

    @Test
    void readerBlockedBySplitClosedBeforeItsEnd() {
        assertThat(failedChecks(SplitClosedEarlyBlocksReader.class)).containsExactlyInAnyOrder(READER);
    }

    @Test
    void invalidOptionsAccepted() {
        assertThat(failedChecks(AcceptsAnyOptions.class)).containsExactlyInAnyOrder(OPTIONS);
    }

    @Test
    void wrongTableRowType() {
        assertThat(failedChecks(WrongTableRowType.class)).containsExactlyInAnyOrder(ROW_TYPE);
    }

    @Test
    void nullPositionForAnEmptyTableReadFromTheLatestCommit() {
        assertThat(failedChecks(NullPositionForEmptyTable.class)).containsExactlyInAnyOrder(EMPTY);
    }

    @Test
    void nullPositionForAnEmptyTableReadFromTheEarliestCommitIsHarmless() {
        // given null again, the planner reads from the first commit: nothing is missed
        assertThat(failedChecks(NullPositionForEmptyTableFromEarliest.class)).isEmpty();
    }

    /** The kit over the in-memory source with one defect, reading continuously from the earliest commit. */
    abstract static class Kit extends ScanSourceConformance {
        private final Defect defect;

        Kit(Defect defect) {
            this.defect = defect;
        }

        @Override
        protected ScanSourceFactory sourceFactory() {
            return new InMemoryScanSourceFactory(defect);
        }

        @Override
        protected Map<String, String> createTable(Path dir) {
            return InMemoryScanSourceFactory.createTable();
        }

        @Override
        protected void append(Map<String, String> table, List<RowData> rows) {
            InMemoryScanSourceFactory.append(table, rows);
        }

        @Override
        protected Map<String, String> continuousOptions() {
            return Collections.singletonMap(InMemoryScanSourceFactory.CONTINUOUS, "true");
        }

        @Override
        protected Map<String, String> invalidOptions() {
            return Collections.singletonMap(InMemoryScanSourceFactory.START, "yesterday");
        }
    }

    /** The same, reading continuously from the latest commit on. */
    abstract static class FromLatest extends Kit {
        FromLatest(Defect defect) {
            super(defect);
        }

        @Override
        protected Map<String, String> continuousOptions() {
            Map<String, String> options = new HashMap<>(super.continuousOptions());
            options.put(InMemoryScanSourceFactory.START, "latest");
            return options;
        }

        @Override
        protected boolean firstContinuousPlanIncludesExistingRows() {
            return false;
        }
    }

    static final class Correct extends Kit {
        Correct() {
            super(Defect.NONE);
        }
    }

    static final class CorrectFromLatest extends FromLatest {
        CorrectFromLatest() {
            super(Defect.NONE);
        }
    }

    static final class ReusesRowObject extends Kit {
        ReusesRowObject() {
            super(Defect.REUSES_ROW_OBJECT);
        }
    }

    static final class IgnoresPosition extends Kit {
        IgnoresPosition() {
            super(Defect.IGNORES_POSITION);
        }
    }

    static final class NewPositionWhenNothingIsNew extends Kit {
        NewPositionWhenNothingIsNew() {
            super(Defect.NEW_POSITION_WHEN_NOTHING_IS_NEW);
        }
    }

    static final class IgnoresRecordsToSkip extends Kit {
        IgnoresRecordsToSkip() {
            super(Defect.IGNORES_RECORDS_TO_SKIP);
        }
    }

    static final class PositionOffByOne extends Kit {
        PositionOffByOne() {
            super(Defect.POSITION_OFF_BY_ONE);
        }
    }

    static final class SplitsByIdentity extends Kit {
        SplitsByIdentity() {
            super(Defect.SPLITS_BY_IDENTITY);
        }
    }

    static final class SplitClosedEarlyBlocksReader extends Kit {
        SplitClosedEarlyBlocksReader() {
            super(Defect.SPLIT_CLOSED_EARLY_BLOCKS_READER);
        }
    }

    static final class AcceptsAnyOptions extends Kit {
        AcceptsAnyOptions() {
            super(Defect.ACCEPTS_ANY_OPTIONS);
        }
    }

    static final class WrongTableRowType extends Kit {
        WrongTableRowType() {
            super(Defect.WRONG_TABLE_ROW_TYPE);
        }
    }

    static final class NullPositionForEmptyTable extends FromLatest {
        NullPositionForEmptyTable() {
            super(Defect.NULL_POSITION_FOR_EMPTY_TABLE);
        }
    }

    static final class NullPositionForEmptyTableFromEarliest extends Kit {
        NullPositionForEmptyTableFromEarliest() {
            super(Defect.NULL_POSITION_FOR_EMPTY_TABLE);
        }
    }
}
