package io.sluice.partfiles;

import io.sluice.partfiles.testing.PartFileTesting;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.sink.CompactionUnit;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.sluice.partfiles.testing.PartFileTesting.T0;
import static io.sluice.partfiles.testing.PartFileTesting.at;
import static io.sluice.partfiles.testing.PartFileTesting.commit;
import static io.sluice.partfiles.testing.PartFileTesting.hidden;
import static io.sluice.partfiles.testing.PartFileTesting.request;
import static io.sluice.partfiles.testing.PartFileTesting.unit;
import static io.sluice.partfiles.testing.PartFileTesting.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The compaction units of one commit run on up to {@code compaction.parallelism} threads: they
 * overlap, never more than that many at once, the commit returns only when all have ended, and a
 * failed unit fails the commit (naming its bucket and file) while the others finish, so that the
 * retried commit completes every unit exactly once.
 */
class ParallelUnitsTest {

    @TempDir
    Path tmp;

    private static final RowType LINE_DT = RowType.of(
            new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH), new VarCharType(VarCharType.MAX_LENGTH)},
            new String[] {"line", "dt"});

    private static final io.sluice.spi.sink.RollingPolicy ON_CHECKPOINT = new io.sluice.spi.sink.RollingPolicy() {
        @Override
        public boolean shouldRollOnCheckpoint(io.sluice.spi.sink.PartFileState partFile) {
            return true;
        }

        @Override
        public boolean shouldRollOnEvent(io.sluice.spi.sink.PartFileState partFile, RowData element) {
            return false;
        }

        @Override
        public boolean shouldRollOnProcessingTime(io.sluice.spi.sink.PartFileState partFile, long currentTime) {
            return false;
        }
    };

    private static RowData row(String line, String dt) {
        return GenericRowData.of(StringData.fromString(line), StringData.fromString(dt));
    }

    private static void concat(io.sluice.spi.compact.CompactionInputs inputs, OutputStream out) throws IOException {
        for (org.apache.flink.core.fs.Path file : inputs.files()) {
            try (InputStream in = inputs.open(file)) {
                in.transferTo(out);
            }
        }
    }

    private PartFiles engine(Path table, int parallelism, FileCompactor compactor) {
        return PartFiles.builder(new org.apache.flink.core.fs.Path(table.toUri()))
                .writers(() -> PartWriters.create(
                        PartFileTesting.lineFormats(), "lines", LINE_DT, Collections.emptyMap(), List.of("dt")))
                .bucketAssigner((row, c) -> "dt=" + row.getString(1))
                .rollingPolicy(ON_CHECKPOINT)
                .compaction(true)
                .compactionParallelism(parallelism)
                .compactor(() -> compactor)
                .build();
    }

    /**
     * Writes two files into each of the buckets (two checkpoints), commits them hidden, and returns
     * one unit per bucket.
     */
    private List<CompactionUnit> hiddenFiles(PartFiles engine, List<String> buckets) throws Exception {
        List<List<PendingCommit>> perBucket = new ArrayList<>();
        buckets.forEach(b -> perBucket.add(new ArrayList<>()));
        try (TargetWriter writer = engine.createWriter(Collections.emptyList());
                TargetCommitter committer = engine.createCommitter()) {
            for (int checkpoint = 1; checkpoint <= 2; checkpoint++) {
                for (String b : buckets) {
                    writer.write(row(b + checkpoint, b), at(T0 + checkpoint));
                }
                List<PendingCommit> pending = writer.prepareCommit(false);
                commit(committer, checkpoint, pending);
                for (PendingCommit p : pending) {
                    perBucket
                            .get(buckets.indexOf(p.partition().substring("dt=".length())))
                            .add(p);
                }
            }
        }
        List<CompactionUnit> units = new ArrayList<>();
        for (int i = 0; i < buckets.size(); i++) {
            units.add(unit("dt=" + buckets.get(i), perBucket.get(i)));
        }
        return units;
    }

    @Test
    void unitsOfOneCommitOverlapUpToTheParallelismAndAllEndBeforeTheCommitReturns() throws Exception {
        Path table = tmp.resolve("t");
        // the first two units wait for each other: with one thread at a time this never ends
        CountDownLatch both = new CountDownLatch(2);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        List<Boolean> met = Collections.synchronizedList(new ArrayList<>());
        FileCompactor meeting = (inputs, output) -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                both.countDown();
                met.add(both.await(60, TimeUnit.SECONDS));
                concat(inputs, output.stream());
            } catch (InterruptedException e) {
                throw new IOException(e);
            } finally {
                running.decrementAndGet();
                done.incrementAndGet();
            }
        };
        PartFiles engine = engine(table, 2, meeting);
        List<CompactionUnit> units = hiddenFiles(engine, List.of("a", "b", "c", "d"));
        try (TargetCommitter committer = engine.createCommitter()) {
            committer.commit(request(3, Collections.emptyList(), units));
            assertThat(done).as("every unit ended before the commit returned").hasValue(4);
        }
        assertThat(met).as("the first two units ran at the same time").containsOnly(true);
        assertThat(most).as("never more than compaction.parallelism at once").hasValue(2);
        assertThat(visible(table).values()).containsExactlyInAnyOrder("a1\na2\n", "b1\nb2\n", "c1\nc2\n", "d1\nd2\n");
        assertThat(visible(table).keySet())
                .allMatch(k -> k.matches("dt=[abcd]/part-[^/]+"))
                .extracting(PartFileTesting::parent)
                .doesNotHaveDuplicates();
        assertThat(hidden(table)).isEmpty();
    }

    @Test
    void withParallelismOneUnitsRunOneAfterAnother() throws Exception {
        Path table = tmp.resolve("t");
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        FileCompactor counting = (inputs, output) -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                concat(inputs, output.stream());
            } finally {
                running.decrementAndGet();
            }
        };
        PartFiles engine = engine(table, 1, counting);
        List<CompactionUnit> units = hiddenFiles(engine, List.of("a", "b", "c"));
        try (TargetCommitter committer = engine.createCommitter()) {
            committer.commit(request(3, Collections.emptyList(), units));
        }
        assertThat(most).hasValue(1);
        assertThat(visible(table).values()).containsExactlyInAnyOrder("a1\na2\n", "b1\nb2\n", "c1\nc2\n");
        assertThat(hidden(table)).isEmpty();
    }

    @Test
    void aFailingUnitFailsTheCommitNamingItsBucketTheOthersStayConsistentAndTheRetryCompletes() throws Exception {
        Path table = tmp.resolve("t");
        FileCompactor failingOnB = (inputs, output) -> {
            if (inputs.files().get(0).getParent().getName().equals("dt=b")) {
                output.stream().write("half of b".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                throw new IOException("disk full");
            }
            concat(inputs, output.stream());
        };
        PartFiles failing = engine(table, 3, failingOnB);
        List<CompactionUnit> units = hiddenFiles(failing, List.of("a", "b", "c"));
        try (TargetCommitter committer = failing.createCommitter()) {
            assertThatThrownBy(() -> committer.commit(request(3, Collections.emptyList(), units)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("bucket 'dt=b'")
                    .hasMessageContaining("dt=b/.uncompacted-part-")
                    .hasMessageContaining("disk full");
        }
        // the other units are done; b's inputs are all still there, hidden, and nothing of b is visible
        assertThat(visible(table).values()).containsExactlyInAnyOrder("a1\na2\n", "c1\nc2\n");
        assertThat(uncompacted(table).keySet()).allMatch(k -> k.startsWith("dt=b/"));
        assertThat(uncompacted(table).values()).containsExactlyInAnyOrder("b1\n", "b2\n");

        // the failover hands the same request over again, to a committer whose compactor works now
        PartFiles working = engine(table, 3, (inputs, output) -> concat(inputs, output.stream()));
        try (TargetCommitter committer = working.createCommitter()) {
            committer.commit(request(3, Collections.emptyList(), units));
        }
        assertThat(visible(table).values()).containsExactlyInAnyOrder("a1\na2\n", "b1\nb2\n", "c1\nc2\n");
        // what stays hidden is the failed attempt's in-progress output, never published (as with one thread)
        assertThat(uncompacted(table)).isEmpty();
        assertThat(hidden(table).keySet()).allMatch(k -> k.startsWith("dt=b/.part-") && k.contains(".inprogress."));
    }

    /** The hidden compaction inputs. */
    private static java.util.Map<String, String> uncompacted(Path table) {
        java.util.Map<String, String> files = new java.util.TreeMap<>(hidden(table));
        files.keySet().removeIf(k -> !PartFileTesting.fileName(k).startsWith(UnitCompaction.HIDDEN_PREFIX));
        return files;
    }

    @Test
    void aParallelismBelowOneIsRejectedNamingTheOption() {
        assertThatThrownBy(() -> PartFiles.builder(new org.apache.flink.core.fs.Path(tmp.toUri()))
                        .compactionParallelism(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'compaction.parallelism'")
                .hasMessageContaining("'0'");
    }
}
