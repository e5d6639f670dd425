package io.sluice.testkit;

import io.sluice.spi.source.FileEnumeratorFactory;
import io.sluice.testkit.ChunkingEnumeratorFactory.Defect;

import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A conformance kit that passes everything is worth nothing: each nested class runs the kit
 * against an enumerator with one defect, through the JUnit launcher, and exactly the checks that
 * defect breaks must fail. (Surefire skips nested classes, so the failing runs stay in here.)
 */
class ConformanceKitCatchesBrokenEnumeratorsTest {

    private static final String LISTS = "listsEveryExpectedFileOnceWithItsSizeAndModificationTime";
    private static final String HIDDEN = "neverListsHiddenInProgressOrUnderscoreFiles";
    private static final String CONTINUOUS = "continuousReadHandsOutEveryNewFileExactlyOnce";
    private static final String RESTORE = "restoredReadNeitherRepeatsNorSkipsFiles";
    private static final String OPTIONS = "rejectsInvalidOptions";
    private static final String REFUSES = "refusesAContinuousReadIfItSaysSo";

    @Test
    void overlappingSplits() {
        assertThat(failedChecks(OverlappingSplits.class)).containsExactlyInAnyOrder(LISTS, CONTINUOUS, RESTORE);
    }

    @Test
    void hiddenFilesListed() {
        assertThat(failedChecks(ListsHiddenFiles.class)).containsExactlyInAnyOrder(LISTS, HIDDEN, CONTINUOUS, RESTORE);
    }

    @Test
    void wrongModificationTime() {
        assertThat(failedChecks(WrongModificationTime.class)).containsExactlyInAnyOrder(LISTS, CONTINUOUS, RESTORE);
    }

    @Test
    void newFilesNeverListed() {
        // a restored job creates a new enumerator, which lists afresh: only the running read misses files
        assertThat(failedChecks(FirstListingOnly.class)).containsExactlyInAnyOrder(CONTINUOUS);
    }

    @Test
    void invalidOptionsAccepted() {
        assertThat(failedChecks(AcceptsAnyOptions.class)).containsExactlyInAnyOrder(OPTIONS);
    }

    @Test
    void splitIdsReused() {
        // through the framework's split enumerator ids no longer matter: it gives splits its own
        assertThat(failedChecks(ReusesSplitIds.class)).containsExactlyInAnyOrder(LISTS);
    }

    @Test
    void refusingContinuousReadsFailsTheContinuousChecksUnlessDeclared() {
        // the kit creates the factory for a continuous read as the framework does, so the refusal shows
        assertThat(failedChecks(RefusesContinuousReads.class)).containsExactlyInAnyOrder(CONTINUOUS, RESTORE);
        assertThat(failedChecks(DeclaredBoundedOnly.class)).isEmpty();
    }

    @Test
    void declaredBoundedOnlyButServingContinuousReads() {
        assertThat(failedChecks(ClaimsToRefuseContinuousReads.class)).containsExactlyInAnyOrder(REFUSES);
    }

    @Test
    void correctEnumeratorPassesEverything() {
        assertThat(failedChecks(Correct.class)).isEmpty();
    }

    private static Set<String> failedChecks(Class<?> testClass) {
        return ConformanceRuns.failedChecks(testClass, LISTS, HIDDEN, CONTINUOUS, RESTORE, OPTIONS, REFUSES);
    }

    /** The kit over the chunking enumerator with one defect. */
    abstract static class Broken extends FileEnumeratorConformance {
        private final Defect defect;

        Broken(Defect defect) {
            this.defect = defect;
        }

        @Override
        protected FileEnumeratorFactory enumeratorFactory() {
            return new ChunkingEnumeratorFactory(defect);
        }

        @Override
        protected Map<String, String> options() {
            return Collections.singletonMap(ChunkingEnumeratorFactory.CHUNK_SIZE, "1000");
        }

        @Override
        protected Map<String, String> invalidOptions() {
            return Collections.singletonMap(ChunkingEnumeratorFactory.CHUNK_SIZE, "0");
        }
    }

    static class Correct extends Broken {
        Correct() {
            super(Defect.NONE);
        }
    }

    static class OverlappingSplits extends Broken {
        OverlappingSplits() {
            super(Defect.OVERLAPPING_SPLITS);
        }
    }

    static class ListsHiddenFiles extends Broken {
        ListsHiddenFiles() {
            super(Defect.LISTS_HIDDEN_FILES);
        }
    }

    static class WrongModificationTime extends Broken {
        WrongModificationTime() {
            super(Defect.WRONG_MODIFICATION_TIME);
        }
    }

    static class FirstListingOnly extends Broken {
        FirstListingOnly() {
            super(Defect.FIRST_LISTING_ONLY);
        }
    }

    static class AcceptsAnyOptions extends Broken {
        AcceptsAnyOptions() {
            super(Defect.ACCEPTS_ANY_OPTIONS);
        }
    }

    static class RefusesContinuousReads extends Broken {
        RefusesContinuousReads() {
            super(Defect.REFUSES_CONTINUOUS_READS);
        }
    }

    static class DeclaredBoundedOnly extends Broken {
        DeclaredBoundedOnly() {
            super(Defect.REFUSES_CONTINUOUS_READS);
        }

        @Override
        protected boolean readsContinuously() {
            return false;
        }
    }

    static class ClaimsToRefuseContinuousReads extends Broken {
        ClaimsToRefuseContinuousReads() {
            super(Defect.NONE);
        }

        @Override
        protected boolean readsContinuously() {
            return false;
        }
    }

    static class ReusesSplitIds extends Broken {
        ReusesSplitIds() {
            super(Defect.REUSES_SPLIT_IDS);
        }
    }
}
