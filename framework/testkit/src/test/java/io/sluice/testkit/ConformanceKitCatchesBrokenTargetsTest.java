package io.sluice.testkit;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.RecordContext;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.sink.TargetWriter;

import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The target kit must catch broken targets: each nested class runs it against an in-memory target
 * with one defect, and only the checks that defect breaks may fail. (JUnit does not run nested
 * static classes, so the failing runs stay in here.)
 */
class ConformanceKitCatchesBrokenTargetsTest {

    private static final String RETRIED = "aCommitHandedOverAgainChangesNothing";
    private static final String REPLAYED = "anOlderRequestReplayedAfterNewerOnesChangesNothing";
    private static final String ENDING = "writersEndingAtDifferentCheckpointsCommitEveryRowOnce";
    private static final String RESTORED = "aRestoredWriterKeepsWhatItsSnapshotHadAndNothingWrittenAfter";
    private static final String UNKNOWN = "payloadsOfAnUnknownVersionAreRejectedAndChangeNothing";
    private static final String FAILING = "aCommitThatFailsLeavesNothingOfItsRequestVisible";

    private static Set<String> failedChecks(Class<?> kit) {
        return ConformanceRuns.failedChecks(kit, RETRIED, REPLAYED, ENDING, RESTORED, UNKNOWN, FAILING);
    }

    @Test
    void aCorrectTargetPassesEveryCheck() {
        assertThat(failedChecks(Correct.class)).isEmpty();
    }

    @Test
    void aTargetThatCommitsARetryAgainFails() {
        assertThat(failedChecks(DuplicatingRetries.class)).containsExactlyInAnyOrder(RETRIED, REPLAYED);
    }

    @Test
    void aTargetThatIgnoresUnknownVersionsFails() {
        assertThat(failedChecks(IgnoringUnknownVersions.class)).containsExactlyInAnyOrder(UNKNOWN, FAILING);
    }

    @Test
    void aTargetThatCommitsHalfARequestFails() {
        assertThat(failedChecks(CommittingHalf.class)).containsExactlyInAnyOrder(FAILING);
    }

    @Test
    void aTargetThatForgetsAFinishedWritersLastDataFails() {
        assertThat(failedChecks(DroppingEndOfInput.class)).contains(ENDING);
    }

    enum Defect {
        NONE,
        DUPLICATES_RETRIES,
        IGNORES_UNKNOWN_VERSIONS,
        COMMITS_HALF,
        DROPS_END_OF_INPUT
    }

    /** Tables by directory; each table its rows and the (job, epoch, checkpoint) commits it has. */
    private static final Map<String, List<String>> TABLES = new ConcurrentHashMap<>();

    private static final Map<String, Set<String>> COMMITS = new ConcurrentHashMap<>();

    /** A target keeping rows in memory; a payload is version 1, the rows' text one per line. */
    static final class LedgerTarget implements TargetFactory {
        private final Defect defect;

        LedgerTarget(Defect defect) {
            this.defect = defect;
        }

        @Override
        public String identifier() {
            return "ledger";
        }

        @Override
        public TargetWriter createWriter(SinkContext context, List<Payload> restoredState) throws IOException {
            for (Payload p : restoredState) {
                if (defect != Defect.IGNORES_UNKNOWN_VERSIONS) {
                    throw new IOException("ledger writer state of unknown version " + p.version());
                }
            }
            return new TargetWriter() {
                private final List<String> buffered = new ArrayList<>();

                @Override
                public void write(RowData row, RecordContext recordContext) {
                    buffered.add(row.getLong(0) + "," + row.getString(1));
                }

                @Override
                public List<PendingCommit> prepareCommit(boolean endOfInput) {
                    if (buffered.isEmpty() || (endOfInput && defect == Defect.DROPS_END_OF_INPUT)) {
                        buffered.clear();
                        return Collections.emptyList();
                    }
                    byte[] bytes = String.join("\n", buffered).getBytes(StandardCharsets.UTF_8);
                    buffered.clear();
                    return List.of(new PendingCommit(new Payload(1, bytes), null, 0));
                }

                @Override
                public List<Payload> snapshotState(long checkpointId) {
                    return Collections.emptyList();
                }

                @Override
                public void close() {}
            };
        }

        @Override
        public TargetCommitter createCommitter(SinkContext context) {
            String table = context.options().toMap().get("table");
            return new TargetCommitter() {
                @Override
                public void commit(CommitRequest request) throws IOException {
                    String id = request.jobId() + "/" + request.epoch() + "/" + request.checkpointId();
                    Set<String> done =
                            COMMITS.computeIfAbsent(table, t -> Collections.synchronizedSet(new HashSet<>()));
                    if (defect != Defect.DUPLICATES_RETRIES && done.contains(id)) {
                        return;
                    }
                    List<String> rows = new ArrayList<>();
                    for (Payload p : request.pending()) {
                        if (p.version() != 1) {
                            if (defect == Defect.IGNORES_UNKNOWN_VERSIONS) {
                                continue;
                            }
                            if (defect == Defect.COMMITS_HALF) {
                                TABLES.computeIfAbsent(table, t -> new ArrayList<>())
                                        .addAll(rows);
                            }
                            throw new IOException("ledger payload of unknown version " + p.version());
                        }
                        rows.addAll(Arrays.asList(new String(p.bytes(), StandardCharsets.UTF_8).split("\n")));
                    }
                    TABLES.computeIfAbsent(table, t -> new ArrayList<>()).addAll(rows);
                    done.add(id);
                }
            };
        }
    }

    abstract static class Kit extends TargetConformance {
        abstract Defect defect();

        @Override
        protected TargetFactory targetFactory() {
            return new LedgerTarget(defect());
        }

        @Override
        protected Map<String, String> sinkOptions(Path dir) {
            return Map.of("table", dir.toString());
        }

        @Override
        protected List<String> committedRows(Path dir, Map<String, String> options) {
            return new ArrayList<>(TABLES.getOrDefault(dir.toString(), Collections.emptyList()));
        }
    }

    static final class Correct extends Kit {
        @Override
        Defect defect() {
            return Defect.NONE;
        }
    }

    static final class DuplicatingRetries extends Kit {
        @Override
        Defect defect() {
            return Defect.DUPLICATES_RETRIES;
        }
    }

    static final class IgnoringUnknownVersions extends Kit {
        @Override
        Defect defect() {
            return Defect.IGNORES_UNKNOWN_VERSIONS;
        }
    }

    static final class CommittingHalf extends Kit {
        @Override
        Defect defect() {
            return Defect.COMMITS_HALF;
        }
    }

    static final class DroppingEndOfInput extends Kit {
        @Override
        Defect defect() {
            return Defect.DROPS_END_OF_INPUT;
        }
    }
}
