package io.sluice.partfiles;

import io.sluice.partfiles.testing.CleanupRecordingFileSystem;
import io.sluice.partfiles.testing.PartFileTesting;
import io.sluice.spi.Payload;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testshared.CheckedInBytes;

import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

import static io.sluice.partfiles.testing.PartFileTesting.NEVER;
import static io.sluice.partfiles.testing.PartFileTesting.T0;
import static io.sluice.partfiles.testing.PartFileTesting.at;
import static io.sluice.partfiles.testing.PartFileTesting.commit;
import static io.sluice.partfiles.testing.PartFileTesting.hidden;
import static io.sluice.partfiles.testing.PartFileTesting.row;
import static io.sluice.partfiles.testing.PartFileTesting.visible;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a file system that keeps an in-progress file's recoverable state apart (S3's multipart
 * uploads), what resumed a file at checkpoint n is removed once checkpoint n + 1 has completed,
 * and never before: {@link ObsoleteResumable}. On {@code file://} nothing is handed over.
 */
class RecoverableStateRemovalTest {

    @TempDir
    Path tmp;

    @AfterEach
    void forget() {
        CleanupRecordingFileSystem.forget();
    }

    private PartFiles engine(String scheme, Path table) {
        return PartFiles.builder(new org.apache.flink.core.fs.Path(
                        scheme + "://" + table.toUri().getPath()))
                .writers(() -> PartWriters.create(
                        PartFileTesting.lineFormats(),
                        "lines",
                        PartFileTesting.LINE,
                        Collections.emptyMap(),
                        Collections.emptyList()))
                .bucketAssigner((r, c) -> "")
                .rollingPolicy(NEVER)
                .build();
    }

    @Test
    void theStateOfACheckpointIsRemovedWhenTheNextCheckpointCommitsAndNotBefore() throws Exception {
        Path table = tmp.resolve("t");
        PartFiles engine = engine(CleanupRecordingFileSystem.SCHEME, table);
        List<Payload> state2;
        String persisted1;
        String persisted2;
        try (TargetWriter writer = engine.createWriter(Collections.emptyList());
                TargetCommitter committer = engine.createCommitter()) {
            writer.write(row("one"), at(T0));
            commit(committer, 1, writer.prepareCommit(false));
            List<Payload> state1 = writer.snapshotState(1);
            persisted1 = CleanupRecordingFileSystem.describe(openResumable(state1));
            assertThat(CleanupRecordingFileSystem.removed())
                    .as("checkpoint 1 may still be restored")
                    .isEmpty();

            writer.write(row("two"), at(T0 + 1));
            List<PendingCommit> forCheckpoint2 = writer.prepareCommit(false);
            assertThat(forCheckpoint2)
                    .extracting(p -> p.payload().version())
                    .containsExactly(ObsoleteResumable.VERSION);
            assertThat(forCheckpoint2.get(0).partition())
                    .as("makes no partition visible")
                    .isNull();
            state2 = writer.snapshotState(2);
            persisted2 = CleanupRecordingFileSystem.describe(openResumable(state2));
            assertThat(CleanupRecordingFileSystem.removed())
                    .as("checkpoint 2 has not completed")
                    .isEmpty();

            commit(committer, 2, forCheckpoint2);
            assertThat(CleanupRecordingFileSystem.removed()).containsExactly(persisted1);
            // a commit retried after a failure removes it again: harmless
            commit(committer, 2, forCheckpoint2);
            assertThat(CleanupRecordingFileSystem.removed()).containsExactly(persisted1, persisted1);
        }
        CleanupRecordingFileSystem.forget();

        // restored from checkpoint 2: the file resumes from persisted2, which the next checkpoint supersedes
        try (TargetWriter restored = engine.createWriter(state2);
                TargetCommitter committer = engine.createCommitter()) {
            restored.write(row("three"), at(T0 + 2));
            List<PendingCommit> last = restored.prepareCommit(true);
            assertThat(CleanupRecordingFileSystem.removed()).isEmpty();
            commit(committer, 3, last);
            assertThat(CleanupRecordingFileSystem.removed()).containsExactly(persisted2);
        }
        assertThat(persisted2).isNotEqualTo(persisted1);
        assertThat(visible(table).values()).containsExactly("one\ntwo\nthree\n");
        assertThat(hidden(table)).isEmpty();
    }

    @Test
    void aFileRolledAfterItWasPersistedHasItsStateRemovedWithThatCheckpoint() throws Exception {
        Path table = tmp.resolve("t");
        PartFiles engine = engine(CleanupRecordingFileSystem.SCHEME, table);
        try (TargetWriter writer = engine.createWriter(Collections.emptyList());
                TargetCommitter committer = engine.createCommitter()) {
            writer.write(row("one"), at(T0));
            writer.prepareCommit(false);
            String persisted = CleanupRecordingFileSystem.describe(openResumable(writer.snapshotState(1)));
            List<PendingCommit> last = writer.prepareCommit(true); // rolls the file
            assertThat(last)
                    .extracting(p -> p.payload().version())
                    .containsExactlyInAnyOrder(PendingFile.VERSION, ObsoleteResumable.VERSION);
            commit(committer, 2, last);
            assertThat(CleanupRecordingFileSystem.removed()).containsExactly(persisted);
        }
        assertThat(visible(table).values()).containsExactly("one\n");
    }

    @Test
    void aLocalFileSystemGetsNothingToRemove() throws Exception {
        PartFiles engine = engine("file", tmp.resolve("t"));
        try (TargetWriter writer = engine.createWriter(Collections.emptyList())) {
            writer.write(row("one"), at(T0));
            writer.prepareCommit(false);
            writer.snapshotState(1);
            writer.write(row("two"), at(T0 + 1));
            assertThat(writer.prepareCommit(false)).isEmpty();
            writer.snapshotState(2);
            assertThat(writer.prepareCommit(true))
                    .extracting(p -> p.payload().version())
                    .containsExactly(PendingFile.VERSION);
        }
    }

    private static final String RESOURCE = "pending-file-migration/obsolete-resumable/v3.b64";

    /** Version 3 of the pending payloads reads to the resumable it held, and writes back to its bytes. */
    @Test
    void version3ReadsToWhatItHeld() throws IOException {
        RecoverableWriter local = PartFiles.recoverableWriter(new org.apache.flink.core.fs.Path("file:///"));
        Payload checkedIn = new Payload(3, CheckedInBytes.read(RESOURCE));
        ObsoleteResumable read = ObsoleteResumable.of(checkedIn, local);

        assertThat(read.resumable().toString())
                .matches("LocalRecoverable /tmp/sluice-migration/obsolete-v3/"
                        + "\\.part-x-0\\.inprogress\\.[0-9a-f-]{36} @ 4 -> /tmp/sluice-migration/obsolete-v3/part-x-0");
        assertThat(read.toPayload(local)).isEqualTo(checkedIn);
    }

    /** Checks in the bytes of version 3 once (run with -Dsluice.migration.write=true): temp names are random. */
    @Test
    @EnabledIfSystemProperty(named = CheckedInBytes.WRITE_PROPERTY, matches = "true")
    void writeVersion3() throws IOException {
        if (CheckedInBytes.exists(RESOURCE)) {
            return;
        }
        RecoverableWriter local = PartFiles.recoverableWriter(new org.apache.flink.core.fs.Path("file:///"));
        RecoverableFsDataOutputStream out =
                local.open(new org.apache.flink.core.fs.Path("file:///tmp/sluice-migration/obsolete-v3/part-x-0"));
        out.write("abc\n".getBytes(StandardCharsets.UTF_8));
        RecoverableWriter.ResumeRecoverable resumable = out.persist();
        out.close();
        CheckedInBytes.write(
                RESOURCE, new ObsoleteResumable(resumable).toPayload(local).bytes());
    }

    /** The resumable of the one open file in a writer's state. */
    private RecoverableWriter.ResumeRecoverable openResumable(List<Payload> state) throws IOException {
        RecoverableWriter fsWriter = PartFiles.recoverableWriter(
                new org.apache.flink.core.fs.Path(CleanupRecordingFileSystem.SCHEME + ":///"));
        FileWriterState read = FileWriterState.of(state.get(0), fsWriter.getResumeRecoverableSerializer());
        List<FileWriterState.OpenFile> open = read.buckets().stream()
                .map(FileWriterState.BucketState::open)
                .filter(java.util.Objects::nonNull)
                .collect(Collectors.toList());
        assertThat(open).hasSize(1);
        return open.get(0).resumable();
    }
}
