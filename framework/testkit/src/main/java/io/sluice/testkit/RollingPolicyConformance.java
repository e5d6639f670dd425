package io.sluice.testkit;

import io.sluice.spi.sink.PartFileState;
import io.sluice.spi.sink.RollingPolicy;
import io.sluice.spi.sink.RollingPolicyFactory;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Conformance tests for a {@link RollingPolicyFactory}: extend this class in a plugin's tests,
 * return the factory from {@link #policyFactory()}, and JUnit 5 runs every check below against it.
 * The kit asks the policy about part files it describes itself (bucket, creation and last-update
 * time, size), as a file target's writer does, with rows of one nullable {@code STRING} column.
 * The test declares the thresholds its {@link #options()} set ({@link #partSizeLimit()}, {@link
 * #rolloverInterval()}, {@link #inactivityInterval()}, {@link #rollsOnEveryCheckpoint()}), and the
 * kit checks the policy keeps to them.
 *
 * <p>Not checked: that a bulk format's file rolls at every checkpoint. The SPI makes that the
 * writer's rule ({@link RollingPolicy}: "its writer rolls on every checkpoint whatever the policy
 * says"), so a policy need not say so.
 *
 * <p>The checks:
 *
 * <ul>
 *   <li>every decision depends only on what it is given (the part file's state, the row, the
 *       time): asked again, in another order, by another policy from the same options or for
 *       another subtask, it is the same;
 *   <li>decisions are monotonic: a file that rolls at a size also rolls when larger, one that
 *       rolls at a time also rolls later (a file the writer failed to roll is asked again, and
 *       must not be kept open forever by having grown or aged);
 *   <li>the declared size limit: a file larger than it rolls before the next row; a fresh file
 *       below it (and below every declared time) does not;
 *   <li>the declared rollover interval: a file older than it rolls on the processing-time check,
 *       a younger, recently written one below every other threshold does not;
 *   <li>the declared inactivity interval: a file not written to for longer rolls on the
 *       processing-time check, one written to more recently (and below every other threshold)
 *       does not, however long ago it was opened;
 *   <li>if declared, every file rolls at every checkpoint, an empty one too;
 *   <li>each option set of {@link #invalidOptions()} fails {@code create} with an {@link
 *       IllegalArgumentException} naming one of its options.
 * </ul>
 */
public abstract class RollingPolicyConformance {

    /** Sub-classes are JUnit test classes. */
    protected RollingPolicyConformance() {}

    /** The row type of the sink the policy rolls files for: one nullable {@code STRING} {@code line}. */
    public static final RowType ROW_TYPE =
            RowType.of(new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH)}, new String[] {"line"});

    // ---------------------------------------------------------------- what a plugin author supplies

    /** The factory under test, created directly (a new instance each call is fine). */
    protected abstract RollingPolicyFactory policyFactory();

    /** The options the factory gets in every check but the invalid-options one. */
    protected Map<String, String> options() {
        return Collections.emptyMap();
    }

    /** Option sets the factory must each reject; empty (the default) skips that check, reported as skipped. */
    protected List<Map<String, String>> invalidOptions() {
        return Collections.emptyList();
    }

    /** The size in bytes above which {@link #options()} make a file roll; null: no size limit. */
    protected Long partSizeLimit() {
        return null;
    }

    /** The age above which {@link #options()} make a file roll; null: none. */
    protected Duration rolloverInterval() {
        return null;
    }

    /** The time without writes after which {@link #options()} make a file roll; null: none. */
    protected Duration inactivityInterval() {
        return null;
    }

    /** Whether {@link #options()} make every file roll at every checkpoint. */
    protected boolean rollsOnEveryCheckpoint() {
        return false;
    }

    // ---------------------------------------------------------------- the checks

    @Test
    void decisionsDependOnlyOnWhatTheyAreGiven() {
        TestSinkContext sink = context().build();
        List<String> first = decisions(policyFactory().create(sink), false);
        assertThat(decisions(policyFactory().create(sink), false))
                .as("decisions of a second policy")
                .isEqualTo(first);
        assertThat(decisions(policyFactory().create(sink.forSubtask(1, 2)), false))
                .as("decisions of subtask 1 of 2")
                .isEqualTo(first);
        assertThat(decisions(policyFactory().create(sink), true))
                .as("decisions asked in reverse order")
                .isEqualTo(first);
        RollingPolicy used = policyFactory().create(sink);
        decisions(used, true);
        assertThat(decisions(used, false))
                .as("decisions of a policy asked before, in reverse order")
                .isEqualTo(first);
        assertThat(decisions(used, false)).as("decisions asked a third time").isEqualTo(first);
    }

    @Test
    void decisionsAreMonotonicInSizeAndTime() {
        RollingPolicy policy = create();
        long[] sizes = {0, 1, 1_000, 1_001, 10_000, 1 << 20, 128L << 20, 1L << 40};
        long[] ages = {0, 1, 1_000, 60_000, 3_600_000, 86_400_000L, 30 * 86_400_000L};
        for (String bucket : BUCKETS) {
            for (long age : ages) {
                boolean rolled = false;
                boolean rolledAtCheckpoint = false;
                for (long size : sizes) {
                    State f = new State(bucket, T0 - age, T0 - age, size);
                    boolean now = policy.shouldRollOnEvent(f, ROWS.get(0));
                    assertThat(!rolled || now)
                            .as("rolls on event at a smaller size, but not at %s", f)
                            .isTrue();
                    rolled = now;
                    boolean atCheckpoint = policy.shouldRollOnCheckpoint(f);
                    assertThat(!rolledAtCheckpoint || atCheckpoint)
                            .as("rolls at a checkpoint at a smaller size, but not at %s", f)
                            .isTrue();
                    rolledAtCheckpoint = atCheckpoint;
                }
            }
            for (long size : sizes) {
                for (long idle : ages) {
                    State f = new State(bucket, T0 - idle, T0 - idle, size);
                    boolean rolled = false;
                    for (long later : ages) {
                        boolean now = policy.shouldRollOnProcessingTime(f, T0 + later);
                        assertThat(!rolled || now)
                                .as("rolls on processing time earlier, but not %d ms after %s", later, f)
                                .isTrue();
                        rolled = now;
                    }
                }
            }
        }
    }

    @Test
    void honoursThePartSizeLimit() {
        Long limit = partSizeLimit();
        if (limit == null) {
            return;
        }
        RollingPolicy policy = create();
        for (RowData row : ROWS) {
            assertThat(policy.shouldRollOnEvent(new State("", T0, T0, limit + 1), row))
                    .as("a file of %d bytes, above the limit of %d, rolls before row %s", limit + 1, limit, row)
                    .isTrue();
            assertThat(policy.shouldRollOnEvent(new State("", T0, T0, 100 * limit + 1), row))
                    .as(
                            "a file of %d bytes, far above the limit of %d, rolls before row %s",
                            100 * limit + 1, limit, row)
                    .isTrue();
            assertThat(policy.shouldRollOnEvent(new State("", T0, T0, limit - 1), row))
                    .as("a fresh file of %d bytes, below the limit of %d, stays open for row %s", limit - 1, limit, row)
                    .isFalse();
            assertThat(policy.shouldRollOnEvent(new State("", T0, T0, 0), row))
                    .as("a fresh empty file stays open for row %s", row)
                    .isFalse();
        }
    }

    @Test
    void honoursTheRolloverInterval() {
        Duration interval = rolloverInterval();
        if (interval == null) {
            return;
        }
        RollingPolicy policy = create();
        long millis = interval.toMillis();
        for (long size : smallSizes()) {
            long now = T0 + millis + 1;
            assertThat(policy.shouldRollOnProcessingTime(new State("", T0, now, size), now))
                    .as(
                            "a file of %d bytes, %d ms old, written to just now, rolls (rollover interval %s)",
                            size, millis + 1, interval)
                    .isTrue();
            long young = T0 + millis - 1;
            if (belowTimes(millis - 1, 0)) {
                assertThat(policy.shouldRollOnProcessingTime(new State("", T0, young, size), young))
                        .as(
                                "a file of %d bytes, %d ms old, written to just now, stays open (rollover interval %s)",
                                size, millis - 1, interval)
                        .isFalse();
            }
        }
    }

    @Test
    void honoursTheInactivityInterval() {
        Duration interval = inactivityInterval();
        if (interval == null) {
            return;
        }
        RollingPolicy policy = create();
        long millis = interval.toMillis();
        for (long size : smallSizes()) {
            long now = T0 + millis + 1;
            assertThat(policy.shouldRollOnProcessingTime(new State("", T0, T0, size), now))
                    .as(
                            "a file of %d bytes without writes for %d ms rolls (inactivity interval %s)",
                            size, millis + 1, interval)
                    .isTrue();
            // written to recently, but opened longer ago than the interval (as long as no rollover
            // interval closes it): inactivity counts from the last write, not from the opening
            long idle = millis - 1;
            Duration rollover = rolloverInterval();
            long age = Math.max(idle, rollover == null ? 2 * millis : Math.min(2 * millis, rollover.toMillis() - 1));
            if (belowTimes(age, idle)) {
                assertThat(policy.shouldRollOnProcessingTime(new State("", T0 - age, T0 - idle, size), T0))
                        .as(
                                "a file of %d bytes opened %d ms ago, without writes for %d ms, stays open (inactivity interval %s)",
                                size, age, idle, interval)
                        .isFalse();
            }
        }
    }

    @Test
    void rollsAtEveryCheckpointIfDeclared() {
        if (!rollsOnEveryCheckpoint()) {
            return;
        }
        RollingPolicy policy = create();
        for (String bucket : BUCKETS) {
            for (long size : new long[] {0, 1, 1_000, 1L << 40}) {
                State f = new State(bucket, T0, T0, size);
                assertThat(policy.shouldRollOnCheckpoint(f))
                        .as("rolls %s at a checkpoint", f)
                        .isTrue();
            }
        }
    }

    @Test
    void rejectsInvalidOptions() {
        List<Map<String, String>> all = invalidOptions();
        assumeTrue(
                all != null && !all.isEmpty(),
                "invalidOptions() is empty: the factory has no options to get wrong, nothing to check");
        for (Map<String, String> invalid : all) {
            Throwable t = catchThrowable(
                    () -> policyFactory().create(context().options(invalid).build()));
            assertThat(t).as("create with invalid options %s", invalid).isInstanceOf(IllegalArgumentException.class);
            assertThat(invalid.keySet())
                    .as("options named by: %s", t.getMessage())
                    .anySatisfy(key -> assertThat(t.getMessage()).contains(key));
        }
    }

    // ---------------------------------------------------------------- machinery

    /** A processing time far from zero, so that "older than" never underflows. */
    private static final long T0 = 1_700_000_000_000L;

    private static final List<String> BUCKETS = Arrays.asList("", "dt=2024-01-01", "a/b/c");

    private static final List<RowData> ROWS = Arrays.asList(
            GenericRowData.of(StringData.fromString("a row")),
            GenericRowData.of((Object) null),
            GenericRowData.of(StringData.fromString(String.join("", Collections.nCopies(10_000, "x")))));

    private TestSinkContext.Builder context() {
        return TestSinkContext.builder(ROW_TYPE).options(options());
    }

    private RollingPolicy create() {
        return policyFactory().create(context().build());
    }

    /** Sizes below the declared limit (every size if there is none), to test times alone. */
    private List<Long> smallSizes() {
        Long limit = partSizeLimit();
        List<Long> sizes = new ArrayList<>(Arrays.asList(0L, 1L));
        if (limit != null && limit > 2) {
            sizes.add(limit - 1);
        }
        return sizes;
    }

    /** Whether a file of that age and idle time is below every declared time threshold. */
    private boolean belowTimes(long ageMillis, long idleMillis) {
        Duration rollover = rolloverInterval();
        Duration inactivity = inactivityInterval();
        return (rollover == null || ageMillis < rollover.toMillis())
                && (inactivity == null || idleMillis < inactivity.toMillis());
    }

    /**
     * Every decision the policy makes on a fixed grid of files, rows and times, in order or in
     * reverse; the list is always in grid order, so two runs compare equal.
     */
    private static List<String> decisions(RollingPolicy policy, boolean reverse) {
        List<Runnable> asks = new ArrayList<>();
        List<String> answers = new ArrayList<>();
        long[] sizes = {0, 1, 1_000, 1 << 20, 128L << 20, 1L << 40};
        long[] ages = {0, 1, 60_000, 3_600_000, 86_400_000L};
        for (String bucket : BUCKETS) {
            for (long size : sizes) {
                for (long age : ages) {
                    for (long idle : new long[] {0, age}) {
                        State f = new State(bucket, T0 - age, T0 - idle, size);
                        int at = answers.size();
                        answers.add(null);
                        asks.add(() -> {
                            StringBuilder s = new StringBuilder(f.toString())
                                    .append(": checkpoint ")
                                    .append(policy.shouldRollOnCheckpoint(f));
                            for (RowData row : ROWS) {
                                s.append(", event ").append(policy.shouldRollOnEvent(f, row));
                            }
                            for (long later : ages) {
                                s.append(", at +")
                                        .append(later)
                                        .append(' ')
                                        .append(policy.shouldRollOnProcessingTime(f, T0 + later));
                            }
                            answers.set(at, s.toString());
                        });
                    }
                }
            }
        }
        if (reverse) {
            Collections.reverse(asks);
        }
        asks.forEach(Runnable::run);
        return answers;
    }

    /** A part file's state as the kit describes it. */
    private static final class State implements PartFileState {
        private final String bucket;
        private final long created;
        private final long updated;
        private final long size;

        State(String bucket, long created, long updated, long size) {
            this.bucket = bucket;
            this.created = created;
            this.updated = updated;
            this.size = size;
        }

        @Override
        public String bucketId() {
            return bucket;
        }

        @Override
        public long creationTime() {
            return created;
        }

        @Override
        public long lastUpdateTime() {
            return updated;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public String toString() {
            return "part file of bucket '" + bucket + "', created " + (T0 - created) + " ms and written "
                    + (T0 - updated) + " ms before the kit's time, " + size + " bytes";
        }
    }
}
