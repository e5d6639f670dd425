package io.sluice.partfiles;

import io.sluice.partfiles.testing.PartFileTesting;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.format.BufferingBulkWriter;
import io.sluice.spi.sink.PartFileState;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.RollingPolicy;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static io.sluice.partfiles.testing.PartFileTesting.NEVER;
import static io.sluice.partfiles.testing.PartFileTesting.T0;
import static io.sluice.partfiles.testing.PartFileTesting.at;
import static io.sluice.partfiles.testing.PartFileTesting.commit;
import static io.sluice.partfiles.testing.PartFileTesting.hidden;
import static io.sluice.partfiles.testing.PartFileTesting.request;
import static io.sluice.partfiles.testing.PartFileTesting.row;
import static io.sluice.partfiles.testing.PartFileTesting.unit;
import static io.sluice.partfiles.testing.PartFileTesting.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The library's API as a target other than {@code filesystem} uses it: its own partition
 * locations (as a metastore gives them), its own names, and the engine's behaviour around them.
 */
class PartFilesTest {

    @TempDir
    Path tmp;

    /** Rows {@code (line, dt)}; the bucket is {@code dt=<dt>}. */
    private static final RowType LINE_DT = RowType.of(
            new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH), new VarCharType(VarCharType.MAX_LENGTH)},
            new String[] {"line", "dt"});

    private static RowData row2(String line, String dt) {
        return GenericRowData.of(StringData.fromString(line), StringData.fromString(dt));
    }

    private static final RollingPolicy ON_CHECKPOINT = new RollingPolicy() {
        @Override
        public boolean shouldRollOnCheckpoint(PartFileState partFile) {
            return true;
        }

        @Override
        public boolean shouldRollOnEvent(PartFileState partFile, RowData element) {
            return false;
        }

        @Override
        public boolean shouldRollOnProcessingTime(PartFileState partFile, long currentTime) {
            return false;
        }
    };

    /** A compactor that concatenates the inputs' bytes. */
    private static final FileCompactor CONCAT = (inputs, output) -> {
        OutputStream out = output.stream();
        for (org.apache.flink.core.fs.Path file : inputs.files()) {
            try (InputStream in = inputs.open(file)) {
                in.transferTo(out);
            }
        }
    };

    private PartFiles.Builder hiveLike(Path table, Map<String, Path> locations) {
        return PartFiles.builder(new org.apache.flink.core.fs.Path(table.toUri()))
                .bucketLocations(id ->
                        new org.apache.flink.core.fs.Path(locations.get(id).toUri()))
                .names("hive", ".txt")
                .writers(() -> PartWriters.create(
                        PartFileTesting.lineFormats(), "lines", LINE_DT, Collections.emptyMap(), List.of("dt")))
                .bucketAssigner((row, c) -> "dt=" + row.getString(1))
                .rollingPolicy(ON_CHECKPOINT)
                .compactor(() -> CONCAT);
    }

    @Test
    void partitionsGoWhereTheTargetsLocationsSayAndTheCommitterReportsThem() throws Exception {
        Path table = tmp.resolve("t");
        // a metastore's locations need not follow k=v names
        Map<String, Path> locations = Map.of("dt=a", table.resolve("loc-a"), "dt=b", table.resolve("elsewhere/b"));
        PartFiles engine = hiveLike(table, locations).build();
        try (TargetWriter writer = engine.createWriter(Collections.emptyList());
                TargetCommitter committer = engine.createCommitter()) {
            writer.write(row2("1", "a"), at(T0));
            writer.write(row2("2", "b"), at(T0));
            writer.write(row2("3", "a"), at(T0));
            List<PendingCommit> pending = writer.prepareCommit(false);
            assertThat(pending).extracting(PendingCommit::partition).containsExactlyInAnyOrder("dt=a", "dt=b");
            commit(committer, 1, pending);

            assertThat(committer.partitionLocation("dt=b"))
                    .contains(new org.apache.flink.core.fs.Path(
                            table.resolve("elsewhere/b").toUri()));
            assertThat(committer.visibleFiles("dt=a")).hasSize(1);
            assertThat(committer.visibleFiles("dt=a").get(0).getName())
                    .startsWith("hive-")
                    .endsWith(".txt");
        }
        Map<String, String> files = visible(table);
        // the partition column is in the location, not in the files
        assertThat(files).hasSize(2);
        assertThat(files.keySet()).allMatch(k -> k.startsWith("loc-a/") || k.startsWith("elsewhere/b/"));
        assertThat(files.values()).containsExactlyInAnyOrder("1\n3\n", "2\n");
        assertThat(hidden(table)).isEmpty();
    }

    @Test
    void withGroupedInputABucketsFileClosesWhenTheNextBucketBegins() throws Exception {
        Path table = tmp.resolve("t");
        Map<String, Path> locations = Map.of("dt=a", table.resolve("dt=a"), "dt=b", table.resolve("dt=b"));
        PartFiles engine = hiveLike(table, locations)
                .rollingPolicy(NEVER)
                .groupedInput(true)
                .build();
        try (TargetWriter writer = engine.createWriter(Collections.emptyList());
                TargetCommitter committer = engine.createCommitter()) {
            writer.write(row2("1", "a"), at(T0));
            writer.write(row2("2", "a"), at(T0));
            writer.write(row2("3", "b"), at(T0));
            // a's file closed when b began; b's stays open (the policy never rolls)
            List<PendingCommit> closed = writer.prepareCommit(false);
            assertThat(closed).extracting(PendingCommit::partition).containsExactly("dt=a");
            commit(committer, 1, closed);
            // rows that do come back to an earlier bucket get a file of their own there
            writer.write(row2("4", "a"), at(T0));
            commit(committer, 2, writer.prepareCommit(true));
        }
        assertThat(visible(table).values()).containsExactlyInAnyOrder("1\n2\n", "3\n", "4\n");
        assertThat(hidden(table)).isEmpty();
    }

    @Test
    void withoutGroupedInputEveryBucketKeepsItsFileOpen() throws Exception {
        Path table = tmp.resolve("t");
        Map<String, Path> locations = Map.of("dt=a", table.resolve("dt=a"), "dt=b", table.resolve("dt=b"));
        PartFiles engine = hiveLike(table, locations).rollingPolicy(NEVER).build();
        try (TargetWriter writer = engine.createWriter(Collections.emptyList());
                TargetCommitter committer = engine.createCommitter()) {
            writer.write(row2("1", "a"), at(T0));
            writer.write(row2("3", "b"), at(T0));
            writer.write(row2("4", "a"), at(T0));
            assertThat(writer.prepareCommit(false)).isEmpty(); // both files still open
            commit(committer, 2, writer.prepareCommit(true));
        }
        assertThat(visible(table).values()).containsExactlyInAnyOrder("1\n4\n", "3\n");
    }

    @Test
    void aPendingFileSaysWhereItIsPublished() throws Exception {
        Path table = tmp.resolve("t");
        Map<String, Path> locations = Map.of("dt=a", table.resolve("loc-a"), "dt=b", table.resolve("b"));
        PartFiles engine = hiveLike(table, locations).build();
        try (TargetWriter writer = engine.createWriter(Collections.emptyList());
                TargetCommitter committer = engine.createCommitter()) {
            writer.write(row2("1", "a"), at(T0));
            writer.write(row2("2", "b"), at(T0));
            List<PendingCommit> pending = writer.prepareCommit(false);
            List<org.apache.flink.core.fs.Path> published = new java.util.ArrayList<>();
            for (PendingCommit p : pending) {
                published.add(PartFiles.publishedPath(p.payload()).orElseThrow());
            }
            commit(committer, 1, pending);
            List<org.apache.flink.core.fs.Path> visible = new java.util.ArrayList<>(committer.visibleFiles("dt=a"));
            visible.addAll(committer.visibleFiles("dt=b"));
            assertThat(published).containsExactlyInAnyOrderElementsOf(visible).hasSize(2);
        }
        assertThat(PartFiles.publishedPath(new io.sluice.spi.Payload(1, new byte[] {1, 2})))
                .isEmpty();
    }

    @Test
    void aTargetsOwnBulkWriterWritesTheFilesOfItsFormat() throws Exception {
        Path table = tmp.resolve("t");
        org.apache.flink.api.common.serialization.BulkWriter.Factory<RowData> upper =
                out -> new org.apache.flink.api.common.serialization.BulkWriter<RowData>() {
                    @Override
                    public void addElement(RowData row) throws java.io.IOException {
                        out.write((row.getString(0).toString().toUpperCase(java.util.Locale.ROOT) + "\n")
                                .getBytes(StandardCharsets.UTF_8));
                    }

                    @Override
                    public void flush() {}

                    @Override
                    public void finish() {}
                };
        PartFiles engine = hiveLike(table, Map.of("dt=a", table.resolve("a")))
                .writers(() -> {
                    PartWriters lines = PartWriters.create(
                            PartFileTesting.lineFormats(), "lines", LINE_DT, Collections.emptyMap(), List.of("dt"));
                    assertThat(lines.fileType().getFieldNames()).containsExactly("line");
                    return lines.withBulkWriter(upper);
                })
                .rollingPolicy(NEVER)
                .build();
        try (TargetWriter writer = engine.createWriter(Collections.emptyList());
                TargetCommitter committer = engine.createCommitter()) {
            writer.write(row2("x", "a"), at(T0));
            commit(committer, 1, writer.prepareCommit(false));
            // a bulk writer's file rolls at the checkpoint, whatever the policy says
            writer.write(row2("y", "a"), at(T0 + 1));
            commit(committer, 2, writer.prepareCommit(true));
        }
        assertThat(visible(table).values()).containsExactlyInAnyOrder("X\n", "Y\n");
    }

    /**
     * A bulk writer of lines whose heap estimate is 100 bytes per row it holds: what the writer
     * memory budget adds up over the open files.
     */
    private static BulkWriter.Factory<RowData> bufferingLines() {
        return out -> new BufferingBulkWriter() {
            private final List<String> held = new java.util.ArrayList<>();

            @Override
            public void addElement(RowData row) {
                held.add(row.getString(0).toString());
            }

            @Override
            public void flush() {}

            @Override
            public void finish() throws java.io.IOException {
                for (String line : held) {
                    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                }
                held.clear();
            }

            @Override
            public long heapBytes() {
                return 100L * held.size();
            }
        };
    }

    @Test
    void overTheMemoryBudgetTheLargestOpenFilesRollFirstAndNoRowIsLost() throws Exception {
        Path table = tmp.resolve("t");
        Map<String, Path> locations = new java.util.HashMap<>();
        for (String dt : List.of("a", "b", "c", "d")) {
            locations.put("dt=" + dt, table.resolve("dt=" + dt));
        }
        PartFiles engine = hiveLike(table, locations)
                .writers(() -> PartWriters.create(
                                PartFileTesting.lineFormats(), "lines", LINE_DT, Collections.emptyMap(), List.of("dt"))
                        .withBulkWriter(bufferingLines()))
                .rollingPolicy(NEVER)
                .writerMemoryBudget(1_000)
                .build();
        try (TargetWriter writer = engine.createWriter(Collections.emptyList());
                TargetCommitter committer = engine.createCommitter()) {
            // estimates are asked for after a file's rows 1, 2, 4, 8, ...: a holds 8 rows (800
            // bytes), b and c one each: 1,000 bytes, at the budget
            for (int i = 0; i < 8; i++) {
                writer.write(row2("a" + i, "a"), at(T0));
            }
            writer.write(row2("b0", "b"), at(T0));
            writer.write(row2("c0", "c"), at(T0));
            // d's first row makes 1,100: over, so a's file (the largest) rolls, 300 bytes left
            writer.write(row2("d0", "d"), at(T0));
            // a's next row opens a new file; b and c stay open, under the budget
            writer.write(row2("a8", "a"), at(T0));
            writer.write(row2("b1", "b"), at(T0));
            commit(committer, 1, writer.prepareCommit(false));
            commit(committer, 2, writer.prepareCommit(true));
        }
        assertThat(visible(table).values())
                .containsExactlyInAnyOrder("a0\na1\na2\na3\na4\na5\na6\na7\n", "a8\n", "b0\nb1\n", "c0\n", "d0\n");
    }

    /**
     * Rows of 40 buckets interleaved, each bucket's rows spread over the whole input (the order a
     * STREAMING job of many partitions sees): once the open files outgrow the budget, the writer
     * rolls the largest once and then holds the rows of buckets without an open file, writing each
     * bucket's rows of a checkpoint into one file, so a bucket gets at most two files in the
     * checkpoint in which the budget was hit and one in every later one, rather than a file at every
     * overrun; rows that outgrow the budget in memory spill to local disk and come back in order.
     */
    @Test
    void overTheBudgetABulkWriterWritesOneFilePerBucketAndCheckpoint() throws Exception {
        Path table = tmp.resolve("many");
        Map<String, Path> locations = new java.util.HashMap<>();
        for (int b = 0; b < 40; b++) {
            locations.put("dt=b" + b, table.resolve("dt=b" + b));
        }
        PartFiles engine = hiveLike(table, locations)
                .writers(() -> PartWriters.create(
                                PartFileTesting.lineFormats(), "lines", LINE_DT, Collections.emptyMap(), List.of("dt"))
                        .withBulkWriter(bufferingLines()))
                .rollingPolicy(NEVER)
                .writerMemoryBudget(8_000)
                .build();
        Map<String, List<String>> byBucket = new java.util.TreeMap<>();
        try (TargetWriter writer = engine.createWriter(Collections.emptyList());
                TargetCommitter committer = engine.createCommitter()) {
            int row = 0;
            for (int checkpoint = 1; checkpoint <= 3; checkpoint++) {
                for (int round = 0; round < 25; round++) {
                    for (int b = 0; b < 40; b++) {
                        String line = "r" + row++;
                        writer.write(row2(line, "b" + b), at(T0 + row));
                        byBucket.computeIfAbsent("dt=b" + b, k -> new java.util.ArrayList<>())
                                .add(line);
                    }
                }
                commit(committer, checkpoint, writer.prepareCommit(checkpoint == 3));
                assertThat(hidden(table))
                        .as("nothing open after checkpoint %d", checkpoint)
                        .isEmpty();
                Map<String, Integer> files = filesPerBucket(table);
                for (int b = 0; b < 40; b++) {
                    assertThat(files.getOrDefault("dt=b" + b, 0))
                            .as("files of bucket b%d after checkpoint %d", b, checkpoint)
                            .isLessThanOrEqualTo(checkpoint + 1);
                }
            }
        }
        Map<String, List<String>> written = new java.util.TreeMap<>();
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(table)) {
            for (Path f :
                    files.filter(java.nio.file.Files::isRegularFile).collect(java.util.stream.Collectors.toList())) {
                written.computeIfAbsent(table.relativize(f.getParent()).toString(), k -> new java.util.ArrayList<>())
                        .addAll(java.nio.file.Files.readAllLines(f));
            }
        }
        for (Map.Entry<String, List<String>> bucket : byBucket.entrySet()) {
            assertThat(written.get(bucket.getKey()))
                    .as("rows of %s", bucket.getKey())
                    .containsExactlyInAnyOrderElementsOf(bucket.getValue());
        }
    }

    private static Map<String, Integer> filesPerBucket(Path table) throws java.io.IOException {
        Map<String, Integer> files = new java.util.HashMap<>();
        for (String name : visible(table).keySet()) {
            files.merge(name.substring(0, name.indexOf('/')), 1, Integer::sum);
        }
        return files;
    }

    @Test
    void aBudgetThatIsNotPositiveIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> PartFiles.builder(new org.apache.flink.core.fs.Path(tmp.toUri()))
                        .writerMemoryBudget(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'sink.writer.memory-budget'")
                .hasMessageContaining("must be positive");
    }

    @Test
    void aBudgetOptionBelowTheMinimumIsRefusedNamingOptionValueAndMinimum() {
        for (String value : List.of("1b", "0b", "4095kb")) {
            org.apache.flink.configuration.Configuration options = new org.apache.flink.configuration.Configuration();
            options.setString("sink.writer.memory-budget", value);
            assertThatThrownBy(() -> PartFiles.builder(new org.apache.flink.core.fs.Path(tmp.toUri()))
                            .writerMemoryBudget(options))
                    .as(value)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'sink.writer.memory-budget' '" + value + "'")
                    .hasMessageContaining("at least 4 mb");
        }
        org.apache.flink.configuration.Configuration minimum = new org.apache.flink.configuration.Configuration();
        minimum.setString("sink.writer.memory-budget", "4mb");
        PartFiles.builder(new org.apache.flink.core.fs.Path(tmp.toUri()))
                .writerMemoryBudget(minimum)
                .build();
    }

    @Test
    void aLocationOutsideTheRootIsRefusedBeforeAnyFileIsWritten() throws Exception {
        Path table = tmp.resolve("t");
        PartFiles engine = hiveLike(table, Map.of("dt=a", tmp.resolve("other"))).build();
        try (TargetWriter writer = engine.createWriter(Collections.emptyList())) {
            assertThatThrownBy(() -> writer.write(row2("1", "a"), at(T0)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not under the table's 'path'");
        }
        assertThat(PartFileTesting.files(tmp)).isEmpty();
    }

    @Test
    void theDefaultLocationsAreBelowTheRootAndStayThere() {
        org.apache.flink.core.fs.Path root = new org.apache.flink.core.fs.Path(tmp.toUri());
        assertThat(PartFiles.belowRoot(root, "")).isEqualTo(root);
        assertThat(PartFiles.belowRoot(root, "k=v/x=y")).isEqualTo(new org.apache.flink.core.fs.Path(root, "k=v/x=y"));
        for (String bad : List.of("/abs", "..", "a/../..", "a//b", "a\\b", "./a")) {
            assertThatThrownBy(() -> PartFiles.belowRoot(root, bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void withCompactionFilesStayHiddenUntilTheirUnitPublishesThem() throws Exception {
        Path table = tmp.resolve("t");
        PartFiles engine = hiveLike(table, Map.of("dt=a", table.resolve("a")))
                .compaction(true)
                .build();
        try (TargetWriter writer = engine.createWriter(Collections.emptyList());
                TargetCommitter committer = engine.createCommitter()) {
            writer.write(row2("1", "a"), at(T0));
            List<PendingCommit> first = writer.prepareCommit(false);
            writer.write(row2("2", "a"), at(T0 + 1));
            List<PendingCommit> second = writer.prepareCommit(false);
            assertThat(first.get(0).forCompaction()).isTrue();
            commit(committer, 1, first);
            commit(committer, 2, second);
            assertThat(visible(table)).isEmpty();

            List<PendingCommit> inputs = new java.util.ArrayList<>(first);
            inputs.addAll(second);
            committer.commit(request(3, Collections.emptyList(), List.of(unit("dt=a", inputs))));
        }
        assertThat(visible(table).values()).containsExactly("1\n2\n");
        assertThat(hidden(table)).isEmpty();
    }

    @Test
    void overwriteReplacesTheOtherFilesOfThePartitionsItWrites() throws Exception {
        Path table = tmp.resolve("t");
        Files.createDirectories(table.resolve("a"));
        Files.createDirectories(table.resolve("b"));
        Files.write(table.resolve("a/old"), "old\n".getBytes(StandardCharsets.UTF_8));
        Files.write(table.resolve("b/kept"), "kept\n".getBytes(StandardCharsets.UTF_8));
        PartFiles engine = hiveLike(table, Map.of("dt=a", table.resolve("a"), "dt=b", table.resolve("b")))
                .overwrite(true)
                .build();
        try (TargetWriter writer = engine.createWriter(Collections.emptyList());
                TargetCommitter committer = engine.createCommitter()) {
            writer.write(row2("new", "a"), at(T0));
            commit(committer, 1, writer.prepareCommit(true));
        }
        assertThat(visible(table)).containsEntry("b/kept", "kept\n").hasSize(2);
        assertThat(visible(table).values()).containsExactlyInAnyOrder("new\n", "kept\n");
    }

    @Test
    void aBulkFormatsFilesRollAtEveryCheckpointWhateverThePolicy() throws Exception {
        Path table = tmp.resolve("t");
        PartFiles engine = PartFiles.builder(new org.apache.flink.core.fs.Path(table.toUri()))
                .writers(() -> PartWriters.create(
                        PartFileTesting.lineFormats(),
                        "bulk-lines",
                        PartFileTesting.LINE,
                        Collections.emptyMap(),
                        Collections.emptyList()))
                .bucketAssigner((r, c) -> "")
                .rollingPolicy(NEVER)
                .build();
        try (TargetWriter writer = engine.createWriter(Collections.emptyList())) {
            writer.write(row("x"), at(T0));
            assertThat(writer.prepareCommit(false)).hasSize(1);
        }
    }

    @Test
    void aRowFormatsOpenFileIsResumedAfterARestore() throws Exception {
        Path table = tmp.resolve("t");
        PartFiles engine = PartFiles.builder(new org.apache.flink.core.fs.Path(table.toUri()))
                .writers(() -> PartWriters.create(
                        PartFileTesting.lineFormats(),
                        "lines",
                        PartFileTesting.LINE,
                        Collections.emptyMap(),
                        Collections.emptyList()))
                .bucketAssigner((r, c) -> "")
                .rollingPolicy(NEVER)
                .build();
        List<io.sluice.spi.Payload> state;
        try (TargetWriter writer = engine.createWriter(Collections.emptyList())) {
            writer.write(row("kept"), at(T0));
            assertThat(writer.prepareCommit(false)).isEmpty();
            state = writer.snapshotState(1);
            writer.write(row("lost"), at(T0 + 1));
        }
        try (TargetWriter restored = engine.createWriter(state);
                TargetCommitter committer = engine.createCommitter()) {
            restored.write(row("after"), at(T0 + 2));
            commit(committer, 2, restored.prepareCommit(true));
        }
        assertThat(visible(table).values()).containsExactly("kept\nafter\n");
        assertThat(hidden(table)).isEmpty();
    }

    /**
     * A job that fails for good discards what it handed over after the last checkpoint (issue 31):
     * the file its writer opened after its last snapshot goes, the one that snapshot refers to
     * stays, so a restore from the snapshot still resumes it and commits every row.
     */
    @Test
    void discardDeletesOnlyTheFilesNoSnapshotRefersTo() throws Exception {
        Path table = tmp.resolve("t");
        PartFiles engine = PartFiles.builder(new org.apache.flink.core.fs.Path(table.toUri()))
                .writers(() -> PartWriters.create(
                        PartFileTesting.lineFormats(),
                        "lines",
                        LINE_DT,
                        Collections.emptyMap(),
                        Collections.emptyList()))
                .bucketAssigner((r, c) -> "dt=" + r.getString(1))
                .rollingPolicy(NEVER)
                .build();
        List<io.sluice.spi.Payload> state;
        try (TargetWriter writer = engine.createWriter(Collections.emptyList());
                TargetCommitter committer = engine.createCommitter()) {
            writer.write(row2("before", "a"), at(T0));
            assertThat(writer.prepareCommit(false)).isEmpty();
            state = writer.snapshotState(1);
            writer.write(row2("after", "a"), at(T0 + 1));
            writer.write(row2("new", "b"), at(T0 + 2));
            List<PendingCommit> handedOver = writer.prepareCommit(true);
            assertThat(handedOver).hasSize(2);
            assertThat(hidden(table)).hasSize(2);

            committer.discard(handedOver);

            assertThat(hidden(table).keySet())
                    .as("the file of dt=a, which snapshot 1 refers to, stays; dt=b's goes")
                    .singleElement()
                    .satisfies(name -> assertThat(name).startsWith("dt=a/."));
            assertThat(visible(table)).isEmpty();
        }
        try (TargetWriter restored = engine.createWriter(state);
                TargetCommitter committer = engine.createCommitter()) {
            commit(committer, 2, restored.prepareCommit(true));
        }
        assertThat(visible(table).values()).containsExactly("before\n");
        assertThat(hidden(table)).isEmpty();
    }

    /**
     * A compactor that writes rows into a bulk format: the output must be finished (the format's
     * footer, here all its lines) before it is closed for commit, or it is published empty.
     */
    @Test
    void aCompactorWritingRowsOfABulkFormatPublishesEveryRow() throws Exception {
        Path table = tmp.resolve("t");
        FileCompactor linesAsRows = (inputs, output) -> {
            io.sluice.spi.compact.RowWriter rows = output.rows();
            for (org.apache.flink.core.fs.Path file : inputs.files()) {
                try (InputStream in = inputs.open(file)) {
                    for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                        rows.write(row2(line, "a"));
                    }
                }
            }
        };
        PartFiles engine = PartFiles.builder(new org.apache.flink.core.fs.Path(table.toUri()))
                .writers(() -> PartWriters.create(
                        PartFileTesting.lineFormats(), "bulk-lines", LINE_DT, Collections.emptyMap(), List.of("dt")))
                .bucketAssigner((row, c) -> "dt=" + row.getString(1))
                .rollingPolicy(ON_CHECKPOINT)
                .compaction(true)
                .compactor(() -> linesAsRows)
                .build();
        try (TargetWriter writer = engine.createWriter(Collections.emptyList());
                TargetCommitter committer = engine.createCommitter()) {
            writer.write(row2("1", "a"), at(T0));
            List<PendingCommit> first = writer.prepareCommit(false);
            writer.write(row2("2", "a"), at(T0 + 1));
            List<PendingCommit> second = writer.prepareCommit(false);
            commit(committer, 1, first);
            commit(committer, 2, second);
            List<PendingCommit> inputs = new java.util.ArrayList<>(first);
            inputs.addAll(second);
            committer.commit(request(3, Collections.emptyList(), List.of(unit("dt=a", inputs))));
        }
        assertThat(visible(table).values()).containsExactly("1\n2\n");
    }
}
