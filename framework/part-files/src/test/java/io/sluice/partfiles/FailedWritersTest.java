package io.sluice.partfiles;

import io.sluice.spi.sink.WriterLineage;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Which writers' parts a restored writer takes for leftovers, by uid, lineage and opening. */
class FailedWritersTest {

    private static final String LINEAGE = "5f0c6f1e-8a2b-3c4d-9e8f-0123456789ab";
    private static final String OTHER_LINEAGE = "77aa0c1e-8a2b-3c4d-9e8f-0123456789ab";

    @Test
    void aSingleTableWritersUidIsItsLineagesIdAndEveryOpeningGetsAUidOfItsOwn() {
        assertThat(FailedWriters.uid(WriterLineage.of(LINEAGE, List.of()))).isEqualTo(LINEAGE);
        Set<String> uids = new HashSet<>();
        for (int opening = 0; opening < 10_000; opening++) {
            String uid = FailedWriters.uid(LINEAGE, opening);
            assertThat(uid).hasSize(PartFileNames.UID_LENGTH).startsWith(LINEAGE.substring(0, 24));
            assertThat(UUID.fromString(uid).toString()).isEqualTo(uid);
            assertThat(FailedWriters.opening(uid, LINEAGE)).isEqualTo(opening);
            assertThat(FailedWriters.opening(uid, OTHER_LINEAGE)).isEqualTo(-1);
            uids.add(uid);
        }
        assertThat(uids).hasSize(10_000);
    }

    @Test
    void openingsFromTheOneGivenOnAreLeftoversWithEveryPartAndExactWritersFromTheirCounter() {
        String restored = FailedWriters.uid(LINEAGE, 2);
        FailedWriters failed = new FailedWriters().openings(LINEAGE, 3).writer(restored, 7);
        assertThat(failed.firstCounter(FailedWriters.uid(LINEAGE, 0))).isNull();
        assertThat(failed.firstCounter(FailedWriters.uid(LINEAGE, 1))).isNull();
        assertThat(failed.firstCounter(restored)).as("named by its state").isEqualTo(7L);
        assertThat(failed.firstCounter(FailedWriters.uid(LINEAGE, 3))).isEqualTo(0L);
        assertThat(failed.firstCounter(FailedWriters.uid(LINEAGE, 4711))).isEqualTo(0L);
        assertThat(failed.firstCounter(FailedWriters.uid(OTHER_LINEAGE, 5)))
                .as("another lineage")
                .isNull();
        assertThat(failed.firstCounter(UUID.randomUUID().toString())).isNull();
        assertThat(failed.anyPart().firstCounter(restored)).isEqualTo(0L);
        assertThat(failed.anyPart().firstCounter(FailedWriters.uid(LINEAGE, 1))).isNull();
    }

    @Test
    void theLowestOpeningOfALineageNamedTwiceWins() {
        FailedWriters failed = new FailedWriters().openings(LINEAGE, 5).openings(LINEAGE, 2);
        assertThat(failed.firstCounter(FailedWriters.uid(LINEAGE, 2))).isEqualTo(0L);
        assertThat(failed.firstCounter(FailedWriters.uid(LINEAGE, 1))).isNull();
    }

    @Test
    void anIdThatIsNoUuidIsMatchedAtOpeningZeroOnly() {
        String id = "writer of a test";
        String later = FailedWriters.uid(id, 1);
        assertThat(later).hasSize(PartFileNames.UID_LENGTH).isNotEqualTo(FailedWriters.uid(id, 2));
        FailedWriters failed = new FailedWriters().openings(id, 0);
        assertThat(failed.firstCounter(id)).isEqualTo(0L);
        assertThat(failed.firstCounter(later)).isNull();
        assertThat(new FailedWriters().openings(id, 1).isEmpty()).isTrue();
    }

    @Test
    void aPartNameOfALaterOpeningIsAnInProgressLeftover() {
        PartFileNames names = new PartFileNames("part", ".csv");
        FailedWriters failed = new FailedWriters().openings(LINEAGE, 1);
        String opening1 = FailedWriters.uid(LINEAGE, 1);
        String opening0 = FailedWriters.uid(LINEAGE, 0);
        assertThat(names.isInProgressPart(".part-" + opening1 + "-0.csv.inprogress.a1", failed))
                .isTrue();
        assertThat(names.isUploadedPart("part-" + opening1 + "-3.csv", failed)).isTrue();
        assertThat(names.isInProgressPart(".part-" + opening0 + "-0.csv.inprogress.a1", failed))
                .isFalse();
    }
}
