package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.spi.sink.WriterLineage;
import io.sluice.testkit.TestSinkContext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static io.sluice.plugin.iceberg.Writes.ids;
import static io.sluice.plugin.iceberg.Writes.request;
import static io.sluice.plugin.iceberg.Writes.write;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A restored writer deletes what earlier writers of its subtask wrote and nothing commits: the
 * files the restored writer wrote after the checkpoint, and every file of an earlier attempt from
 * the same checkpoint, and their temporary manifests that no committer reads; it keeps what a
 * snapshot lists or a restored committable will commit, and never touches files of another job or
 * outside the table's data location (manifests: its metadata directory).
 */
class LeftoverDataFilesTest {

    private static final String OPERATOR = "00000000000000000000000000000b0b";
    private static final String WRITER_A = "6f1c1a52-0000-3000-8000-00000000000a";
    private static final String WRITER_B = "6f1c1a52-0000-3000-8000-00000000000b";
    private static final String WRITER_C = "6f1c1a52-0000-3000-8000-00000000000c";

    @TempDir
    Path warehouse;

    private final IcebergTargetFactory target = new IcebergTargetFactory();

    @Test
    void restoredWriterDeletesOnlyWhatNothingCommits() throws Exception {
        TestSinkContext.Builder base = IcebergSinks.hadoop(warehouse, Writes.ROW);
        TestSinkContext a =
                base.writerLineage(WriterLineage.of(WRITER_A, List.of())).build();
        target.validate(a);
        Path data = warehouse.resolve("db/t/data");
        TargetCommitter committer = target.createCommitter(a);

        // attempt A: checkpoint 1 committed, checkpoint 2 taken but its commit still due
        TargetWriter writerA = target.createWriter(a, List.of());
        committer.commit(request(IcebergSinks.JOB, OPERATOR, 1, write(writerA, 1, 10)));
        Set<Path> committed = files(data);
        List<Payload> checkpoint2 = write(writerA, 11, 20);
        List<Payload> state = writerA.snapshotState(2);
        Set<Path> dueOnRestore = minus(files(data), committed);
        // after checkpoint 2: a file handed over and rows of the next one, then A dies
        write(writerA, 21, 30);
        for (long id = 31; id <= 35; id++) {
            writerA.write(Writes.row(id, "x"), Writes.NO_TIME);
        }
        Set<Path> deadA = minus(files(data), union(committed, dueOnRestore));

        // another job's uncommitted file, and files named like A's outside the data location
        TargetWriter otherJob = target.createWriter(
                base.jobId("0000000000000000000000000000000b")
                        .writerLineage(null)
                        .build(),
                List.of());
        write(otherJob, 100, 105);
        Set<Path> otherJobs = minus(files(data), union(committed, union(dueOnRestore, deadA)));
        String aName = "00000-0-" + WRITER_A + "-00099.parquet";
        Path besideData = Files.writeString(warehouse.resolve("db/t/" + aName), "x");
        Path otherTable =
                Files.createDirectories(warehouse.resolve("db/u/data")).resolve(aName);
        Files.writeString(otherTable, "x");

        assertThat(committed).isNotEmpty();
        assertThat(dueOnRestore).isNotEmpty();
        assertThat(deadA).hasSize(1);
        assertThat(otherJobs).hasSize(1);

        // attempt B, restored from checkpoint 2
        TargetWriter writerB = target.createWriter(
                base.jobId(IcebergSinks.JOB)
                        .writerLineage(WriterLineage.of(WRITER_B, List.of()))
                        .build(),
                state);
        assertThat(files(data)).containsAll(committed).containsAll(dueOnRestore).containsAll(otherJobs);
        assertThat(files(data)).doesNotContainAnyElementsOf(deadA);
        assertThat(besideData).exists();
        assertThat(otherTable).exists();
        committer.commit(request(IcebergSinks.JOB, OPERATOR, 2, checkpoint2));

        // B commits one checkpoint (a job restored from an older checkpoint may find it committed),
        // writes another and dies before checkpoint 3 completes
        Set<Path> before = files(data);
        committer.commit(request(IcebergSinks.JOB, OPERATOR, 3, write(writerB, 21, 30)));
        Set<Path> committedB = minus(files(data), before);
        write(writerB, 31, 35);
        Set<Path> deadB = minus(files(data), union(before, committedB));
        assertThat(deadB).hasSize(1);

        // attempt C, B's successor from the same checkpoint 2
        target.createWriter(
                        base.writerLineage(WriterLineage.of(WRITER_C, List.of(WRITER_B)))
                                .build(),
                        state)
                .close();
        assertThat(files(data)).containsAll(committedB).containsAll(otherJobs).doesNotContainAnyElementsOf(deadB);
        assertThat(ids(CatalogTable.load(a.options()).table()))
                .isEqualTo(LongStream.rangeClosed(1, 30).boxed().collect(Collectors.toList()));
        committer.close();
    }

    /**
     * A dynamic sink's writers of one table share their lineage's id within an attempt: opening 0
     * and 1 open before the checkpoint (one with state, one closed when idle after handing its file
     * over), opening 2 after it. The restored attempt knows from the checkpoint that 2 writers were
     * open then: it deletes what opening 2 wrote and what opening 0 wrote after its state, and keeps
     * the files handed over for the commit still due, and another table's writer's.
     */
    @Test
    void aRestoreDeletesTheFilesOfTheOpeningsAfterTheCheckpointOnly() throws Exception {
        TestSinkContext.Builder base = IcebergSinks.hadoop(warehouse, Writes.ROW);
        TestSinkContext first = base.writerLineage(WriterLineage.ofOpening(WRITER_A, List.of(), Map.of(), 0, false))
                .build();
        target.validate(first);
        Path data = warehouse.resolve("db/t/data");
        TargetCommitter committer = target.createCommitter(first);

        TargetWriter opening0 = target.createWriter(first, List.of());
        List<Payload> due = new java.util.ArrayList<>(write(opening0, 1, 10));
        TargetWriter opening1 = target.createWriter(
                base.writerLineage(WriterLineage.ofOpening(WRITER_A, List.of(), Map.of(), 1, true))
                        .build(),
                List.of());
        due.addAll(write(opening1, 11, 20));
        opening1.close();
        // another table's writer (another lineage id) opened after the checkpoint: not this table's
        TargetWriter otherTable = target.createWriter(
                base.writerLineage(WriterLineage.ofOpening(WRITER_C, List.of(), Map.of(), 2, false))
                        .build(),
                List.of());
        write(otherTable, 500, 505);
        List<Payload> state = opening0.snapshotState(1);
        Set<Path> atCheckpoint = files(data);
        assertThat(atCheckpoint).hasSize(3);
        Path otherTables = atCheckpoint.stream()
                .filter(f -> f.getFileName().toString().contains(WRITER_C))
                .findFirst()
                .orElseThrow();
        assertThat(otherTables.getFileName().toString()).contains(WRITER_C + "-2-");

        write(opening0, 21, 25);
        TargetWriter opening3 = target.createWriter(
                base.writerLineage(WriterLineage.ofOpening(WRITER_A, List.of(), Map.of(), 3, true))
                        .build(),
                List.of());
        write(opening3, 26, 30);
        Set<Path> dead = minus(files(data), atCheckpoint);
        assertThat(dead).hasSize(2);
        assertThat(dead).anySatisfy(f -> assertThat(f.getFileName().toString()).contains(WRITER_A + "-3-"));

        // the next attempt from that checkpoint: 3 writers were open then (this table's 0 and 1,
        // the other table's 2)
        target.createWriter(
                        base.writerLineage(WriterLineage.ofOpening(WRITER_B, List.of(), Map.of(WRITER_A, 3), 0, false))
                                .build(),
                        state)
                .close();
        assertThat(files(data)).isEqualTo(atCheckpoint);
        committer.commit(request(IcebergSinks.JOB, OPERATOR, 1, due));
        assertThat(ids(CatalogTable.load(first.options()).table()))
                .isEqualTo(LongStream.rangeClosed(1, 20).boxed().collect(Collectors.toList()));
        committer.close();
    }

    /**
     * Writers whose checkpoints' files all travel in temporary manifests: the manifest the restored
     * writer wrote after its checkpoint and every manifest of an earlier attempt from the same
     * checkpoint are deleted with their data files; the one a restored committable lists stays
     * until that commit (which reads it and then deletes it), and so do another job's manifests
     * and files named like the writer's outside the table's metadata directory.
     */
    @Test
    void aRestoreDeletesTheManifestsNoCommitterReads() throws Exception {
        IcebergTargetFactory listing = new IcebergTargetFactory(0); // every file in a manifest
        TestSinkContext.Builder base = IcebergSinks.hadoop(warehouse, Writes.ROW);
        TestSinkContext a =
                base.writerLineage(WriterLineage.of(WRITER_A, List.of())).build();
        listing.validate(a);
        Path metadata = warehouse.resolve("db/t/metadata");
        TargetCommitter committer = listing.createCommitter(a);

        // attempt A: checkpoint 1 committed (its manifest deleted), checkpoint 2 taken, its commit due
        TargetWriter writerA = listing.createWriter(a, List.of());
        committer.commit(request(IcebergSinks.JOB, OPERATOR, 1, write(writerA, 1, 10)));
        assertThat(manifests(metadata)).as("the committer deletes what it read").isEmpty();
        List<Payload> checkpoint2 = write(writerA, 11, 20);
        List<Payload> state = writerA.snapshotState(2);
        Set<Path> dueOnRestore = manifests(metadata);
        assertThat(dueOnRestore).hasSize(1);
        assertThat(dueOnRestore.iterator().next().getFileName().toString())
                .isEqualTo("sluice-" + IcebergSinks.JOB + "-00000-" + WRITER_A + "-00002-data.avro");
        // the files of checkpoint 3 handed over, then A dies before checkpoint 3 completes
        write(writerA, 21, 30);
        Set<Path> deadA = minus(manifests(metadata), dueOnRestore);
        assertThat(deadA).hasSize(1);

        // another job's manifest, and files named like A's outside the table's metadata directory
        TargetWriter otherJob = listing.createWriter(
                base.jobId("0000000000000000000000000000000b")
                        .writerLineage(null)
                        .build(),
                List.of());
        write(otherJob, 100, 105);
        Set<Path> otherJobs = minus(manifests(metadata), union(dueOnRestore, deadA));
        assertThat(otherJobs).hasSize(1);
        String aName = deadA.iterator().next().getFileName().toString();
        Path besideMetadata = Files.writeString(warehouse.resolve("db/t/" + aName), "x");
        Path inData = Files.writeString(warehouse.resolve("db/t/data/" + aName), "x");
        Path nested = Files.createDirectories(metadata.resolve("nested")).resolve(aName);
        Files.writeString(nested, "x");
        Path otherTable =
                Files.createDirectories(warehouse.resolve("db/u/metadata")).resolve(aName);
        Files.writeString(otherTable, "x");

        // attempt B, restored from checkpoint 2
        TestSinkContext b = base.jobId(IcebergSinks.JOB)
                .writerLineage(WriterLineage.of(WRITER_B, List.of()))
                .build();
        TargetWriter writerB = listing.createWriter(b, state);
        assertThat(manifests(metadata)).isEqualTo(union(dueOnRestore, otherJobs));
        assertThat(List.of(besideMetadata, inData, nested, otherTable))
                .allSatisfy(p -> assertThat(p).exists());
        committer.commit(request(IcebergSinks.JOB, OPERATOR, 2, checkpoint2));
        assertThat(manifests(metadata)).isEqualTo(otherJobs);

        // B hands checkpoint 3's files over and dies before checkpoint 3 completes; C, its
        // successor from checkpoint 2, deletes B's manifest, which began after the checkpoint
        write(writerB, 21, 30);
        Set<Path> deadB = minus(manifests(metadata), otherJobs);
        assertThat(deadB).hasSize(1);
        listing.createWriter(
                        base.writerLineage(WriterLineage.of(WRITER_C, List.of(WRITER_B)))
                                .build(),
                        state)
                .close();
        assertThat(manifests(metadata)).isEqualTo(otherJobs);
        assertThat(List.of(besideMetadata, inData, nested, otherTable))
                .allSatisfy(p -> assertThat(p).exists());
        assertThat(ids(CatalogTable.load(a.options()).table()))
                .isEqualTo(LongStream.rangeClosed(1, 20).boxed().collect(Collectors.toList()));
        otherJob.close();
        committer.close();
    }

    @Test
    void anOpeningsNamesAreItsOwn() {
        String zero = "/t/data/00003-0-" + WRITER_A + "-00012.parquet";
        String two = "/t/data/00003-0-" + WRITER_A + "-2-00001.parquet";
        String twelve = "s3://b/t/data/p=1/00003-0-" + WRITER_A + "-12-00007.parquet";
        assertThat(LeftoverDataFiles.Earlier.openings(WRITER_A, 0).matches(zero))
                .isTrue();
        assertThat(LeftoverDataFiles.Earlier.openings(WRITER_A, 0).matches(two)).isTrue();
        assertThat(LeftoverDataFiles.Earlier.openings(WRITER_A, 2).matches(zero))
                .isFalse();
        assertThat(LeftoverDataFiles.Earlier.openings(WRITER_A, 2).matches(two)).isTrue();
        assertThat(LeftoverDataFiles.Earlier.openings(WRITER_A, 3).matches(two)).isFalse();
        assertThat(LeftoverDataFiles.Earlier.openings(WRITER_A, 3).matches(twelve))
                .isTrue();
        assertThat(LeftoverDataFiles.Earlier.openings(WRITER_B, 0).matches(two)).isFalse();
        // a writer's state names one opening: files of the others are not its
        assertThat(new LeftoverDataFiles.Earlier(WRITER_A, 0).matches(zero)).isTrue();
        assertThat(new LeftoverDataFiles.Earlier(WRITER_A, 0).matches(two)).isFalse();
        assertThat(new LeftoverDataFiles.Earlier(WRITER_A + "-2", 0).matches(two))
                .isTrue();
        assertThat(new LeftoverDataFiles.Earlier(WRITER_A + "-2", 1).matches(two))
                .isFalse();
        assertThat(new LeftoverDataFiles.Earlier(WRITER_A + "-2", 0).matches(zero))
                .isFalse();
        assertThat(new LeftoverDataFiles.Earlier(WRITER_A + "-1", 0).matches(twelve))
                .isFalse();
        // temporary manifests: sluice-<job>-<subtask>-<writer id>[-<opening>]-<n>-<kind>.avro
        String job = IcebergSinks.JOB;
        String manifest0 = "file:/t/metadata/sluice-" + job + "-00003-" + WRITER_A + "-00002-data.avro";
        String manifest2 = "file:/t/metadata/sluice-" + job + "-00003-" + WRITER_A + "-2-00001-deletes.avro";
        assertThat(LeftoverDataFiles.Earlier.openings(WRITER_A, 0).matchesManifest(manifest0, job))
                .isTrue();
        assertThat(LeftoverDataFiles.Earlier.openings(WRITER_A, 0).matchesManifest(manifest2, job))
                .isTrue();
        assertThat(LeftoverDataFiles.Earlier.openings(WRITER_A, 1).matchesManifest(manifest0, job))
                .isFalse();
        assertThat(LeftoverDataFiles.Earlier.openings(WRITER_A, 2).matchesManifest(manifest2, job))
                .isTrue();
        assertThat(LeftoverDataFiles.Earlier.openings(WRITER_A, 0)
                        .matchesManifest(manifest0, "0000000000000000000000000000000b"))
                .as("another job's")
                .isFalse();
        assertThat(LeftoverDataFiles.Earlier.openings(WRITER_A, 0).matches(manifest0))
                .as("no data file")
                .isFalse();
        assertThat(new LeftoverDataFiles.Earlier(WRITER_A, 0, 1).matchesManifest(manifest0, job))
                .isTrue();
        assertThat(new LeftoverDataFiles.Earlier(WRITER_A, 0, 2).matchesManifest(manifest0, job))
                .as("handed over")
                .isFalse();
        assertThat(new LeftoverDataFiles.Earlier(WRITER_A, 0, 0).matchesManifest(manifest2, job))
                .as("another opening's")
                .isFalse();
        assertThat(new LeftoverDataFiles.Earlier(WRITER_A + "-2", 0, 0).matchesManifest(manifest2, job))
                .isTrue();
        assertThat(new LeftoverDataFiles.Earlier(WRITER_A, 0).matchesManifest(manifest0, job))
                .as("a state that does not say")
                .isFalse();
    }

    @Test
    void fileNumbersAreReadFromTheWritersNamesOnly() {
        assertThat(LeftoverDataFiles.fileNumber("s3://b/t/data/p=1/00003-0-" + WRITER_A + "-00012.parquet", WRITER_A))
                .isEqualTo(12);
        assertThat(LeftoverDataFiles.fileNumber("/t/data/00003-0-" + WRITER_B + "-00012.parquet", WRITER_A))
                .isEqualTo(-1);
        assertThat(LeftoverDataFiles.fileNumber("/t/data/x" + WRITER_A + "-00012.parquet", WRITER_A))
                .isEqualTo(-1);
        assertThat(LeftoverDataFiles.path("file:///w/t/data/f")).isEqualTo("/w/t/data/f");
        assertThat(LeftoverDataFiles.path("file:/w/t/data/f")).isEqualTo("/w/t/data/f");
        assertThat(LeftoverDataFiles.path("s3a://bucket/t/data/f")).isEqualTo("/t/data/f");
    }

    private static Set<Path> files(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile)
                    .filter(f -> !f.getFileName().toString().startsWith("."))
                    .collect(Collectors.toSet());
        }
    }

    /** The temporary manifests directly in {@code metadata}. */
    private static Set<Path> manifests(Path metadata) throws IOException {
        try (Stream<Path> list = Files.list(metadata)) {
            return list.filter(Files::isRegularFile)
                    .filter(f -> f.getFileName().toString().startsWith("sluice-"))
                    .collect(Collectors.toSet());
        }
    }

    private static Set<Path> minus(Set<Path> a, Set<Path> b) {
        Set<Path> out = new HashSet<>(a);
        out.removeAll(b);
        return out;
    }

    private static Set<Path> union(Set<Path> a, Set<Path> b) {
        Set<Path> out = new HashSet<>(a);
        out.addAll(b);
        return out;
    }
}
