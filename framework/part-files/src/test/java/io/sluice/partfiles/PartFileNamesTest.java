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
        assertThat(names.isInProgressPart(".part-" + uid + "-7.csv.inprogress.1234", uid, 7))
                .isTrue();
        assertThat(names.isInProgressPart(
                        "." + UnitCompaction.HIDDEN_PREFIX + "part-" + uid + "-9.csv.inprogress.x", uid, 7))
                .isTrue();
        assertThat(names.isInProgressPart(".part-" + uid + "-6.csv.inprogress.1234", uid, 7))
                .as("before the checkpoint")
                .isFalse();
        assertThat(names.isInProgressPart("part-" + uid + "-7.csv", uid, 7))
                .as("committed")
                .isFalse();
        assertThat(names.isInProgressPart(".part-" + uid + "-7.csv.inprogress.1", "another-uid", 0))
                .as("another writer's")
                .isFalse();
        assertThat(names.isInProgressPart(".part-" + uid + "-17x.csv.inprogress.1", uid, 0))
                .isFalse();
    }

    @Test
    void onS3AnUploadsKeyAndItsPersistedLastPartProveWhoseFileItIs() {
        PartFileNames names = new PartFileNames("part", ".csv");
        String uid = "0b8e6d0c-3f5e-4f5a-9d8e-0c1d2e3f4a5b";
        assertThat(names.isUploadedPart("part-" + uid + "-7.csv", uid, 7)).isTrue();
        assertThat(names.isUploadedPart(UnitCompaction.HIDDEN_PREFIX + "part-" + uid + "-9.csv", uid, 7))
                .isTrue();
        assertThat(names.isUploadedPart("part-" + uid + "-6.csv", uid, 7))
                .as("before the checkpoint: pending in the committer or resumed")
                .isFalse();
        assertThat(names.isUploadedPart("part-" + uid + "-7.csv", "another-uid", 0))
                .as("another writer's")
                .isFalse();
        assertThat(names.isUploadedPart("part-" + uid + "-7.csv.bak", uid, 0)).isFalse();
        assertThat(names.isStagedPart("_part-" + uid + "-8.csv_tmp_ff26547d", uid, 7))
                .isTrue();
        assertThat(names.isStagedPart("_" + UnitCompaction.HIDDEN_PREFIX + "part-" + uid + "-8.csv_tmp_1", uid, 7))
                .isTrue();
        assertThat(names.isStagedPart("_part-" + uid + "-6.csv_tmp_1", uid, 7))
                .as("the persisted part of a file the checkpoint resumes")
                .isFalse();
        assertThat(names.isStagedPart("part-" + uid + "-8.csv_tmp_1", uid, 7)).isFalse();
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
