package io.sluice.partfiles;

import io.sluice.spi.PathNames;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Part file names: whose in-progress file a name is, and the check of prefix and suffix, naming the target's options. */
class PartFileNamesTest {

    @Test
    void partFileNamesProveWhoseInProgressFileItIs() {
        PartFileNames names = new PartFileNames("part", ".csv");
        String uid = "0b8e6d0c-3f5e-4f5a-9d8e-0c1d2e3f4a5b";
        assertThat(names.isInProgressPart(
                        ".part-" + uid + "-7.csv.inprogress.1234", new FailedWriters().writer(uid, 7L)))
                .isTrue();
        assertThat(names.isInProgressPart(
                        "." + UnitCompaction.HIDDEN_PREFIX + "part-" + uid + "-9.csv.inprogress.x",
                        new FailedWriters().writer(uid, 7L)))
                .isTrue();
        assertThat(names.isInProgressPart(
                        ".part-" + uid + "-6.csv.inprogress.1234", new FailedWriters().writer(uid, 7L)))
                .as("before the checkpoint")
                .isFalse();
        assertThat(names.isInProgressPart("part-" + uid + "-7.csv", new FailedWriters().writer(uid, 7L)))
                .as("committed")
                .isFalse();
        assertThat(names.isInProgressPart(
                        ".part-" + uid + "-7.csv.inprogress.1",
                        new FailedWriters().writer("1b8e6d0c-3f5e-4f5a-9d8e-0c1d2e3f4a5b", 0L)))
                .as("another writer's")
                .isFalse();
        assertThat(names.isInProgressPart(
                        ".part-" + uid + "-17x.csv.inprogress.1", new FailedWriters().writer(uid, 0L)))
                .isFalse();
    }

    @Test
    void onS3AnUploadsKeyAndItsPersistedLastPartProveWhoseFileItIs() {
        PartFileNames names = new PartFileNames("part", ".csv");
        String uid = "0b8e6d0c-3f5e-4f5a-9d8e-0c1d2e3f4a5b";
        assertThat(names.isUploadedPart("part-" + uid + "-7.csv", new FailedWriters().writer(uid, 7L)))
                .isTrue();
        assertThat(names.isUploadedPart(
                        UnitCompaction.HIDDEN_PREFIX + "part-" + uid + "-9.csv", new FailedWriters().writer(uid, 7L)))
                .isTrue();
        assertThat(names.isUploadedPart("part-" + uid + "-6.csv", new FailedWriters().writer(uid, 7L)))
                .as("before the checkpoint: pending in the committer or resumed")
                .isFalse();
        assertThat(names.isUploadedPart(
                        "part-" + uid + "-7.csv",
                        new FailedWriters().writer("1b8e6d0c-3f5e-4f5a-9d8e-0c1d2e3f4a5b", 0L)))
                .as("another writer's")
                .isFalse();
        assertThat(names.isUploadedPart("part-" + uid + "-7.csv.bak", new FailedWriters().writer(uid, 0L)))
                .isFalse();
        assertThat(names.isStagedPart("_part-" + uid + "-8.csv_tmp_ff26547d", new FailedWriters().writer(uid, 7L)))
                .isTrue();
        assertThat(names.isStagedPart(
                        "_" + UnitCompaction.HIDDEN_PREFIX + "part-" + uid + "-8.csv_tmp_1",
                        new FailedWriters().writer(uid, 7L)))
                .isTrue();
        assertThat(names.isStagedPart("_part-" + uid + "-6.csv_tmp_1", new FailedWriters().writer(uid, 7L)))
                .as("the persisted part of a file the checkpoint resumes")
                .isFalse();
        assertThat(names.isStagedPart("part-" + uid + "-8.csv_tmp_1", new FailedWriters().writer(uid, 7L)))
                .isFalse();
    }

    @Test
    void aNameIsMatchedAgainstManyWritersAtOnce() {
        PartFileNames names = new PartFileNames("part", ".csv");
        FailedWriters writers = new FailedWriters();
        for (int attempt = 0; attempt < 1000; attempt++) {
            writers.openings(
                    java.util
                            .UUID
                            .nameUUIDFromBytes(new byte[] {(byte) attempt, (byte) (attempt >> 8)})
                            .toString(),
                    0);
        }
        String dead = java.util
                .UUID
                .nameUUIDFromBytes(new byte[] {(byte) 999, (byte) (999 >> 8)})
                .toString();
        String live = "0b8e6d0c-3f5e-4f5a-9d8e-0c1d2e3f4a5b";
        assertThat(names.isInProgressPart(".part-" + dead + "-0.csv.inprogress.1", writers))
                .isTrue();
        assertThat(names.isUploadedPart("part-" + dead + "-12.csv", writers)).isTrue();
        assertThat(names.isStagedPart("_part-" + dead + "-12.csv_tmp_9", writers))
                .isTrue();
        assertThat(names.isInProgressPart(".part-" + live + "-0.csv.inprogress.1", writers))
                .isFalse();
        assertThat(names.isUploadedPart("part-" + dead.substring(1) + "-12.csv", writers))
                .as("a uid one character short")
                .isFalse();
        assertThat(names.isUploadedPart("part-" + dead, writers))
                .as("cut after the uid")
                .isFalse();
    }

    @Test
    void namesAreThoseOfFlinksFileSink() {
        assertThat(new PartFileNames("part", ".csv").name("u", 3)).isEqualTo("part-u-3.csv");
    }

    @Test
    void theCheckNamesTheTargetsOptions() {
        assertThatThrownBy(() -> PartFileNames.check("hive.prefix", "../x", "hive.suffix", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hive.prefix")
                .hasMessageContaining("../x");
        assertThatThrownBy(() -> PartFileNames.check("hive.prefix", "part", "hive.suffix", "a/b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hive.suffix");
        assertThatThrownBy(() -> PartFileNames.check("hive.prefix", "_part", "hive.suffix", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hidden");
        int room = PathNames.MAX_NAME_BYTES - PartFileNames.DECORATION_BYTES;
        assertThatCode(() -> PartFileNames.check("p", "p".repeat(room), "s", ""))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> PartFileNames.check("p", "p".repeat(room), "s", "s"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("too long");
    }
}
