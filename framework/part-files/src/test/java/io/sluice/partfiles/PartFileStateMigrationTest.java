package io.sluice.partfiles;

import io.sluice.partfiles.testing.PartFileTesting;
import io.sluice.spi.Payload;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testshared.CheckedInBytes;

import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;

import static io.sluice.partfiles.testing.PartFileTesting.NEVER;
import static io.sluice.partfiles.testing.PartFileTesting.T0;
import static io.sluice.partfiles.testing.PartFileTesting.at;
import static io.sluice.partfiles.testing.PartFileTesting.commit;
import static io.sluice.partfiles.testing.PartFileTesting.hidden;
import static io.sluice.partfiles.testing.PartFileTesting.row;
import static io.sluice.partfiles.testing.PartFileTesting.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The part-file engine's payloads (those of the {@code filesystem} target, which had the engine
 * before the library) stay readable in every version they were written in: writer
 * states ({@code writer-state-migration/}: {@code v1} written by e26ab44, {@code v2} by 26cf8fe,
 * {@code v3} by f2cb40f) and pending files ({@code pending-file-migration/}: {@code v1} by e26ab44,
 * {@code v2} by 26cf8fe, {@code v4} by {@link #writeCurrentVersions} when version 4 came), all by
 * one writer of the code of that commit ({@code src/test/migration-generators/}) under {@code /tmp/sluice-migration/filesystem-v<N>/out}
 * on the local file system: rows {@code a old} (bucket {@code dt=2024-03-04}, rolled at the first
 * checkpoint: the pending file {@code partition}), then {@code b one}, {@code c two} (the base
 * path's bucket: the pending file {@code root-bucket} once rolled) and {@code b three} (bucket
 * {@code dt=2024-03-05}), open at the second checkpoint: the writer state {@code open-files}.
 * {@code no-open-files} is the state of a writer that wrote nothing.
 *
 * <p>Flink's local recoverables show their temporary file, offset and final file only in their
 * {@code toString}; nothing else of them is accessible from here.
 */
class PartFileStateMigrationTest {

    @TempDir
    Path tmp;

    private final RecoverableWriter fs = recoverableWriter();

    /** The uid of the generating writer and the random parts of its in-progress names, per version. */
    private static final String[][] WRITERS = {
        {},
        {
            "f0d9f680-56dc-4909-9d4d-4e23b1f974eb",
            "8c4d36cf-41d8-4a29-90ae-9d28c6b38146",
            "efe7ea8d-6be1-4e61-a432-1b88677a8877",
            "bfa8bee3-e1f4-40b7-aabc-031636ff8745"
        },
        {
            "e6df3120-99b9-4bc9-897c-9a72912927c9",
            "8d2b43de-1d6a-4013-9f2d-5b448ca646d7",
            "0b7b1954-b8da-450e-97ee-83ef6f4a6802",
            "f34f826b-edc8-4edb-a98a-27b1709a43dc"
        },
        {
            "04fd11a9-ec00-49d7-b4b1-5a37742250f3",
            "8175d0a3-926d-41f0-a82a-ed28ab7050d5",
            "4d2394ca-c60f-4959-85d9-680c3a4b4c0e"
        },
        {
            "9baeaa0d-f601-4810-b7a4-1c95a7096950",
            "1b8d532e-571c-47f8-b580-adca331b0a90",
            null,
            "ed082d88-2e41-450c-9f00-bfbad06217b5"
        },
    };

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void writerStatesWithOpenFilesOfEveryVersionReadToWhatTheyHeld(int version) throws IOException {
        FileWriterState state = FileWriterState.of(
                new Payload(version, CheckedInBytes.read(writerState("open-files", version))),
                fs.getResumeRecoverableSerializer());

        String out = "/tmp/sluice-migration/filesystem-v" + version + "/out";
        String uid = WRITERS[version][0];
        assertThat(state.uid()).isEqualTo(version >= 3 ? uid : null);
        assertThat(state.partCounter()).isEqualTo(version >= 3 ? 3 : 0);
        assertThat(state.recentBuckets())
                .isEqualTo(version >= 3 ? List.of("", "dt=2024-03-04", "dt=2024-03-05") : Collections.emptyList());
        assertThat(state.buckets()).extracting(FileWriterState.BucketState::id).containsExactly("", "dt=2024-03-05");

        FileWriterState.BucketState root = state.buckets().get(0);
        assertThat(root.creationTime()).isEqualTo(T0 + 20);
        assertThat(root.partCounter()).isEqualTo(3);
        assertOpen(
                root.open(),
                version,
                out + "/part-" + uid + "-2",
                out + "/.part-" + uid + "-2.inprogress." + WRITERS[version][1],
                6,
                T0 + 20,
                T0 + 20);
        FileWriterState.BucketState partition = state.buckets().get(1);
        assertThat(partition.creationTime()).isEqualTo(T0 + 10);
        assertThat(partition.partCounter()).isEqualTo(3);
        assertOpen(
                partition.open(),
                version,
                out + "/dt=2024-03-05/part-" + uid + "-1",
                out + "/dt=2024-03-05/.part-" + uid + "-1.inprogress." + WRITERS[version][2],
                14,
                T0 + 10,
                T0 + 30);
    }

    private static void assertOpen(
            FileWriterState.OpenFile open,
            int version,
            String target,
            String temp,
            long offset,
            long creation,
            long lastUpdate) {
        assertThat(open).isNotNull();
        // version 1 did not record the path
        assertThat(String.valueOf(open.path())).isEqualTo(version == 1 ? "null" : target);
        assertThat(open.resumable()).hasToString("LocalRecoverable " + temp + " @ " + offset + " -> " + target);
        assertThat(open.creationTime()).isEqualTo(creation);
        assertThat(open.lastUpdateTime()).isEqualTo(lastUpdate);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void writerStatesWithoutOpenFilesOfEveryVersionReadToWhatTheyHeld(int version) throws IOException {
        FileWriterState state = FileWriterState.of(
                new Payload(version, CheckedInBytes.read(writerState("no-open-files", version))),
                fs.getResumeRecoverableSerializer());

        assertThat(state.buckets()).isEmpty();
        assertThat(state.recentBuckets()).isEmpty();
        assertThat(state.partCounter()).isZero();
        if (version >= 3) {
            assertThat(state.uid()).isEqualTo("7f4305b5-2314-4d22-9f44-0eefad4413dc");
        } else {
            assertThat(state.uid()).isNull();
        }
    }

    @Test
    void theCurrentWriterStateVersionWritesItsCheckedInBytes() throws IOException {
        assertThat(FileWriterState.VERSION).isEqualTo(3);
        for (String scenario : List.of("no-open-files", "open-files")) {
            byte[] checkedIn = CheckedInBytes.read(writerState(scenario, 3));
            FileWriterState state = FileWriterState.of(new Payload(3, checkedIn), fs.getResumeRecoverableSerializer());
            assertThat(state.toPayload(fs.getResumeRecoverableSerializer()))
                    .as(scenario)
                    .isEqualTo(new Payload(3, checkedIn));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void pendingFilesOfEveryVersionReadToWhatTheyHeld(int version) throws IOException {
        String out = "/tmp/sluice-migration/filesystem-v" + version + "/out";
        String uid = WRITERS[version][0];

        PendingFile partition =
                PendingFile.of(new Payload(version, CheckedInBytes.read(pendingFile("partition", version))), fs);
        String target = out + "/dt=2024-03-04/part-" + uid + "-0";
        assertThat(String.valueOf(partition.path())).isEqualTo(version == 1 ? "null" : target);
        assertThat(partition.recoverable())
                .hasToString("LocalRecoverable " + out + "/dt=2024-03-04/.part-" + uid + "-0.inprogress."
                        + WRITERS[version][3] + " @ 6 -> " + target);
        // version 4 records it: the writer opened this file after its last snapshot (it had none)
        assertThat(partition.openedAfterSnapshot()).isEqualTo(version == 4);

        PendingFile root =
                PendingFile.of(new Payload(version, CheckedInBytes.read(pendingFile("root-bucket", version))), fs);
        target = out + "/part-" + uid + "-2";
        assertThat(String.valueOf(root.path())).isEqualTo(version == 1 ? "null" : target);
        assertThat(root.recoverable())
                .hasToString("LocalRecoverable " + out + "/.part-" + uid + "-2.inprogress." + WRITERS[version][1]
                        + " @ 6 -> " + target);
        // open at the writer's second snapshot: that snapshot refers to it
        assertThat(root.openedAfterSnapshot()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void pendingFilesAreWrittenBackToTheirCheckedInBytes(int version) throws IOException {
        // version 4 is the current one; version 1 is still written for files of version 1 writer states,
        // and a file read in version 2 is written back in it
        assertThat(PendingFile.VERSION).isEqualTo(4);
        for (String scenario : List.of("partition", "root-bucket")) {
            Payload checkedIn = new Payload(version, CheckedInBytes.read(pendingFile(scenario, version)));
            assertThat(PendingFile.of(checkedIn, fs).toPayload(fs)).as(scenario).isEqualTo(checkedIn);
        }
    }

    @Test
    void unknownVersionsAreErrorsNamingTheVersionsRead() {
        assertThatThrownBy(() -> FileWriterState.of(new Payload(4, new byte[0]), fs.getResumeRecoverableSerializer()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("filesystem target writer state of version 4")
                .hasMessageContaining("versions 1 to 3");
        assertThatThrownBy(() -> PendingFile.of(new Payload(3, new byte[0]), fs))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("filesystem target pending file of version 3")
                .hasMessageContaining("versions 1, 2 and 4");
        assertThatThrownBy(() -> PendingFile.of(new Payload(5, new byte[0]), fs))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("filesystem target pending file of version 5");
    }

    /**
     * A version 1 state does not say where its open files are published: the restored writer
     * finishes them at once, as pending files of version 1, and the committer publishes them
     * under the name inside the recoverable, with the rows of the checkpoint.
     */
    @Test
    void aWriterRestoredFromVersion1FinishesItsOpenFilesAndTheyCommit() throws Exception {
        Path base = tmp.resolve("out");
        PartFiles target = engine(base.toString());
        TargetWriter failing = target.createWriter(Collections.emptyList());
        failing.write(row("r1"), at(T0));
        failing.write(row("r2"), at(T0 + 1));
        assertThat(failing.prepareCommit(false)).isEmpty(); // the file stays open
        Payload version1 = asVersion1(failing.snapshotState(1).get(0));
        failing.write(row("lost"), at(T0 + 2));
        failing.close();

        try (TargetWriter restored = target.createWriter(List.of(version1));
                TargetCommitter committer = target.createCommitter()) {
            List<PendingCommit> pending = restored.prepareCommit(false);
            assertThat(pending).hasSize(1);
            assertThat(pending.get(0).payload().version()).isEqualTo(1);
            assertThat(pending.get(0).forCompaction()).isFalse();
            commit(committer, 2, pending);
        }
        assertThat(visible(base).values()).containsExactly("r1\nr2\n");
        assertThat(hidden(base)).isEmpty();
    }

    /** The engine writing {@code lines} under {@code base}, all rows in the root bucket, files rolled only at the end. */
    private static PartFiles engine(String base) {
        return PartFiles.builder(new org.apache.flink.core.fs.Path(base))
                .writers(PartFileStateMigrationTest::lines)
                .bucketAssigner((row, c) -> "")
                .rollingPolicy(NEVER)
                .build();
    }

    private static PartWriters lines() {
        return PartWriters.create(
                PartFileTesting.lineFormats(),
                "lines",
                PartFileTesting.LINE,
                Collections.emptyMap(),
                Collections.emptyList());
    }

    /** A writer state in the layout of version 1: buckets only, open files without their path. */
    private Payload asVersion1(Payload current) throws IOException {
        SimpleVersionedSerializer<RecoverableWriter.ResumeRecoverable> resumables = fs.getResumeRecoverableSerializer();
        FileWriterState state = FileWriterState.of(current, resumables);
        DataOutputSerializer out = new DataOutputSerializer(256);
        out.writeInt(state.buckets().size());
        for (FileWriterState.BucketState bucket : state.buckets()) {
            out.writeUTF(bucket.id());
            out.writeLong(bucket.creationTime());
            out.writeLong(bucket.partCounter());
            out.writeBoolean(bucket.open() != null);
            if (bucket.open() != null) {
                SimpleVersionedSerialization.writeVersionAndSerialize(
                        resumables, bucket.open().resumable(), out);
                out.writeLong(bucket.open().creationTime());
                out.writeLong(bucket.open().lastUpdateTime());
            }
        }
        return new Payload(1, out.getCopyOfBuffer());
    }

    /**
     * Checks in the bytes of the current versions that are not checked in yet (run with
     * -Dsluice.migration.write=true): by a writer as the class doc describes, under {@code
     * /tmp/sluice-migration/filesystem-v<N>}.
     */
    @Test
    @EnabledIfSystemProperty(named = CheckedInBytes.WRITE_PROPERTY, matches = "true")
    void writeCurrentVersions() throws Exception {
        // the newer of the two versions names the directory: each is generated once, on its own
        String out = "/tmp/sluice-migration/filesystem-v" + Math.max(FileWriterState.VERSION, PendingFile.VERSION);
        try (TargetWriter empty = engine(out + "/empty").createWriter(Collections.emptyList())) {
            checkInIfAbsent(
                    writerState("no-open-files", FileWriterState.VERSION),
                    empty.snapshotState(1).get(0).bytes());
        }
        org.apache.flink.core.fs.Path outPath = new org.apache.flink.core.fs.Path(out + "/out");
        FileTargetWriter w = new FileTargetWriter(
                outPath,
                id -> PartFiles.belowRoot(outPath, id),
                fs,
                lines(),
                (row, c) -> row.getString(0).toString().startsWith("a")
                        ? "dt=2024-03-04"
                        : row.getString(0).toString().startsWith("b") ? "dt=2024-03-05" : "",
                new io.sluice.spi.sink.RollingPolicy() {
                    @Override
                    public boolean shouldRollOnCheckpoint(io.sluice.spi.sink.PartFileState f) {
                        return f.bucketId().equals("dt=2024-03-04");
                    }

                    @Override
                    public boolean shouldRollOnEvent(
                            io.sluice.spi.sink.PartFileState f, org.apache.flink.table.data.RowData e) {
                        return false;
                    }

                    @Override
                    public boolean shouldRollOnProcessingTime(io.sluice.spi.sink.PartFileState f, long t) {
                        return false;
                    }
                },
                new PartFileNames("part", ""),
                60_000,
                false,
                false,
                Long.MAX_VALUE,
                null);
        w.write(row("a old"), at(T0));
        PendingCommit partition = w.prepareCommit(false).get(0);
        checkInIfAbsent(
                pendingFile("partition", partition.payload().version()),
                partition.payload().bytes());
        w.write(row("b one"), at(T0 + 10));
        w.write(row("c two"), at(T0 + 20));
        w.write(row("b three"), at(T0 + 30));
        checkInIfAbsent(
                writerState("open-files", FileWriterState.VERSION),
                w.snapshotState(2).get(0).bytes());
        for (PendingCommit p : w.prepareCommit(true)) {
            if (p.partition() == null) {
                checkInIfAbsent(
                        pendingFile("root-bucket", p.payload().version()),
                        p.payload().bytes());
            }
        }
        w.close();
    }

    /** The writer's uid and the in-progress names are random: the bytes of a version are checked in once. */
    private static void checkInIfAbsent(String resource, byte[] bytes) {
        if (!CheckedInBytes.exists(resource)) {
            CheckedInBytes.write(resource, bytes);
        }
    }

    private static String writerState(String scenario, int version) {
        return "writer-state-migration/" + scenario + "/v" + version + ".b64";
    }

    private static String pendingFile(String scenario, int version) {
        return "pending-file-migration/" + scenario + "/v" + version + ".b64";
    }

    private static RecoverableWriter recoverableWriter() {
        try {
            return PartFiles.recoverableWriter(new org.apache.flink.core.fs.Path("file:///tmp"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
