package io.sluice.runtime.sink.compaction;

import io.sluice.runtime.state.Committable;
import io.sluice.runtime.state.Envelope;
import io.sluice.spi.Payload;

import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CompactionPlannerTest {

    private static Committable.Entry file(String bucket, String name, long size) {
        Payload payload = new Payload(1, name.getBytes(StandardCharsets.UTF_8));
        return new Committable.Entry(new Envelope("p", "t", payload), bucket, 0, size, true);
    }

    private static List<List<String>> names(List<Committable.Unit> units) {
        return units.stream()
                .map(u -> u.inputs().stream()
                        .map(e -> u.bucketId() + "/" + new String(e.payload().bytes(), StandardCharsets.UTF_8))
                        .collect(Collectors.toList()))
                .collect(Collectors.toList());
    }

    @Test
    void aBucketIsDueWhenItsFilesReachTheTargetSizeAndUnitsStayWithinIt() {
        CompactionPlanner planner = new CompactionPlanner(true, 100, 0);
        planner.add(file("a", "1", 40));
        planner.add(file("b", "1", 10));
        assertThat(planner.onCheckpoint(false)).isEmpty();
        planner.add(file("a", "2", 40));
        planner.add(file("a", "3", 40));
        planner.add(file("a", "4", 150));
        // a: 40+40 fit, +40 would not; 40 then the large file: a unit alone
        assertThat(names(planner.onCheckpoint(false)))
                .containsExactly(List.of("a/1", "a/2"), List.of("a/3"), List.of("a/4"));
        assertThat(planner.isWaiting("a")).isFalse();
        planner.add(file("a", "5", 60));
        planner.add(file("a", "6", 60));
        planner.add(file("a", "7", 10));
        // a full unit of 60, then 60+10 is not full yet: it waits for more
        assertThat(names(planner.onCheckpoint(false))).containsExactly(List.of("a/5"));
        planner.add(file("a", "8", 30));
        assertThat(names(planner.onCheckpoint(false))).containsExactly(List.of("a/6", "a/7", "a/8"));
        assertThat(planner.isWaiting("a")).isFalse();
        assertThat(planner.isWaiting("b")).isTrue();
        assertThat(names(planner.onCheckpoint(true))).containsExactly(List.of("b/1"));
        assertThat(planner.waitingFiles()).isZero();
    }

    @Test
    void everyBucketIsDueEveryNCheckpoints() {
        CompactionPlanner planner = new CompactionPlanner(true, 1000, 3);
        planner.add(file("a", "1", 1));
        assertThat(planner.onCheckpoint(false)).isEmpty();
        planner.add(file("", "2", 1));
        assertThat(planner.onCheckpoint(false)).isEmpty();
        assertThat(names(planner.onCheckpoint(false))).containsExactly(List.of("a/1"), List.of("/2"));
        planner.add(file("a", "3", 1));
        assertThat(planner.onCheckpoint(false)).as("the count starts again").isEmpty();
    }

    @Test
    void switchedOffEverythingWaitingIsDueAtOnce() throws Exception {
        CompactionPlanner on = new CompactionPlanner(true, 1000, 0);
        on.add(file("a", "1", 1));
        on.add(file("a", "2", 1));
        assertThat(on.onCheckpoint(false)).isEmpty();
        byte[] state = on.snapshot();

        CompactionPlanner off = new CompactionPlanner(false, 1000, 0);
        off.restore(state);
        assertThat(off.waitingFiles()).isEqualTo(2);
        assertThat(names(off.onCheckpoint(false))).containsExactly(List.of("a/1", "a/2"));
    }

    @Test
    void stateOfSeveralAggregatorsMerges() throws Exception {
        CompactionPlanner one = new CompactionPlanner(true, 1000, 0);
        one.add(file("a", "1", 1));
        CompactionPlanner two = new CompactionPlanner(true, 1000, 0);
        two.add(file("a", "2", 1));
        CompactionPlanner merged = new CompactionPlanner(true, 1000, 0);
        merged.restore(one.snapshot());
        merged.restore(two.snapshot());
        assertThat(names(merged.onCheckpoint(true))).containsExactly(List.of("a/1", "a/2"));
    }

    @Test
    void optionsAndTheirErrors() {
        Map<String, String> raw = new HashMap<>();
        raw.put("sink.rolling-policy.file-size", "1kb");
        CompactionPlanner planner = CompactionPlanner.of(Configuration.fromMap(raw), raw);
        planner.add(file("a", "1", 1023));
        assertThat(planner.onCheckpoint(false))
                .as("auto-compaction off: due at once")
                .hasSize(1);

        raw.put("auto-compaction", "true");
        raw.put("compaction.checkpoints", "0");
        CompactionPlanner bySize = CompactionPlanner.of(Configuration.fromMap(raw), raw);
        bySize.add(file("a", "1", 1023));
        assertThat(bySize.onCheckpoint(false)).as("below the rolling file size").isEmpty();
        bySize.add(file("a", "2", 1));
        assertThat(bySize.onCheckpoint(false)).hasSize(1);

        raw.put("compaction.checkpoints", "-1");
        assertThatThrownBy(() -> CompactionPlanner.of(Configuration.fromMap(raw), raw))
                .hasMessageContaining("compaction.checkpoints")
                .hasMessageContaining("-1");
        raw.put("compaction.checkpoints", "1");
        raw.put("compaction.file-size", "0b");
        assertThatThrownBy(() -> CompactionPlanner.of(Configuration.fromMap(raw), raw))
                .hasMessageContaining("compaction.file-size");
    }

    @Test
    void atTheEndOfABatchOnlyBucketsOfSmallFilesOnAverageAreCompacted() {
        // target 100, small below an average of 50
        CompactionPlanner planner = new CompactionPlanner(true, 100, 1, 50);
        planner.add(file("small", "1", 10));
        planner.add(file("small", "2", 80)); // average 45: small, although one file is large
        planner.add(file("small", "3", 45));
        planner.add(file("large", "1", 60));
        planner.add(file("large", "2", 40)); // average 50: at the threshold, so as it is
        planner.add(file("", "1", 49)); // the root bucket, one small file
        assertThat(names(planner.onEndOfBatch()))
                .containsExactly(
                        List.of("small/1", "small/2"), // packed to the target size as at a checkpoint
                        List.of("small/3"),
                        List.of("large/1"), // one unit per file: published as it is
                        List.of("large/2"),
                        List.of("/1"));
        assertThat(planner.waitingFiles()).isZero();
        assertThat(planner.onEndOfBatch()).isEmpty();
    }

    @Test
    void theSmallFilesRuleHasUpstreamsDefaultAndChecksItsValue() {
        Map<String, String> raw = new HashMap<>();
        raw.put("auto-compaction", "true");
        raw.put("compaction.file-size", "64mb");
        CompactionPlanner planner = CompactionPlanner.of(Configuration.fromMap(raw), raw);
        long mb = 1024 * 1024;
        planner.add(file("a", "1", 15 * mb));
        planner.add(file("a", "2", 17 * mb - 1)); // average just below 16mb
        planner.add(file("b", "1", 16 * mb));
        planner.add(file("b", "2", 16 * mb));
        assertThat(names(planner.onEndOfBatch()))
                .containsExactly(List.of("a/1", "a/2"), List.of("b/1"), List.of("b/2"));

        raw.put("compaction.small-files.avg-size", "1b");
        CompactionPlanner never = CompactionPlanner.of(Configuration.fromMap(raw), raw);
        never.add(file("a", "1", 1));
        never.add(file("a", "2", 1));
        assertThat(names(never.onEndOfBatch())).containsExactly(List.of("a/1"), List.of("a/2"));

        assertThatThrownBy(() -> new CompactionPlanner(true, 100, 1, -1))
                .hasMessageContaining("compaction.small-files.avg-size")
                .hasMessageContaining("-1");
        raw.put("compaction.small-files.avg-size", "lots");
        assertThatThrownBy(() -> CompactionPlanner.of(Configuration.fromMap(raw), raw))
                .hasMessageContaining("compaction.small-files.avg-size");
    }

    @Test
    void atTheEndOfABatchWithCompactionSwitchedOffWaitingFilesArePackedAsBefore() {
        CompactionPlanner off = new CompactionPlanner(false, 100, 1, 50);
        off.add(file("a", "1", 60));
        off.add(file("a", "2", 30));
        assertThat(names(off.onEndOfBatch())).containsExactly(List.of("a/1", "a/2"));
    }
}
