package io.sluice.testkit;

import io.sluice.spi.sink.PartFileState;
import io.sluice.spi.sink.RollingPolicy;
import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rolling policy kit must catch broken policies: each nested class runs it against a size and
 * time policy ({@code test.max-bytes}, default 1000; rollover after a minute, inactivity after ten
 * seconds) with one defect, and exactly the checks that defect breaks must fail. (Surefire skips
 * nested classes, so the failing runs stay in here.)
 */
class ConformanceKitCatchesBrokenRollingPoliciesTest {

    private static final String PURE = "decisionsDependOnlyOnWhatTheyAreGiven";
    private static final String MONOTONIC = "decisionsAreMonotonicInSizeAndTime";
    private static final String SIZE = "honoursThePartSizeLimit";
    private static final String ROLLOVER = "honoursTheRolloverInterval";
    private static final String INACTIVITY = "honoursTheInactivityInterval";
    private static final String CHECKPOINT = "rollsAtEveryCheckpointIfDeclared";
    private static final String OPTIONS = "rejectsInvalidOptions";

    private static Set<String> failedChecks(Class<?> testClass) {
        return ConformanceRuns.failedChecks(
                testClass, PURE, MONOTONIC, SIZE, ROLLOVER, INACTIVITY, CHECKPOINT, OPTIONS);
    }

    @Test
    void withoutInvalidOptionsTheirCheckIsSkippedNotPassed() {
        // CorrectOnCheckpoint keeps the kit's default invalidOptions()
        assertThat(ConformanceRuns.skippedChecks(
                        CorrectOnCheckpoint.class, PURE, MONOTONIC, SIZE, ROLLOVER, INACTIVITY, CHECKPOINT, OPTIONS))
                .contains(OPTIONS);
    }

    @Test
    void correctPoliciesPassEverything() {
        assertThat(failedChecks(Correct.class)).isEmpty();
        assertThat(failedChecks(CorrectOnCheckpoint.class)).isEmpty();
    }

    @Test
    void countingCallsInsteadOfLookingAtTheFile() {
        assertThat(failedChecks(EveryTenthCall.class)).containsExactlyInAnyOrder(PURE, MONOTONIC, SIZE);
    }

    @Test
    void rollingOnlyInAWindowOfSizes() {
        assertThat(failedChecks(SizeWindow.class)).containsExactlyInAnyOrder(MONOTONIC, SIZE);
    }

    @Test
    void ignoringTheRolloverInterval() {
        assertThat(failedChecks(NoRollover.class)).containsExactlyInAnyOrder(ROLLOVER);
    }

    @Test
    void measuringInactivityFromTheCreation() {
        assertThat(failedChecks(InactivityFromCreation.class)).containsExactlyInAnyOrder(ROLLOVER, INACTIVITY);
    }

    @Test
    void notRollingAnEmptyFileAtACheckpoint() {
        assertThat(failedChecks(OnCheckpointSkippingEmpty.class)).containsExactlyInAnyOrder(CHECKPOINT);
    }

    @Test
    void acceptingInvalidOptions() {
        assertThat(failedChecks(AcceptsAnyOptions.class)).containsExactlyInAnyOrder(OPTIONS);
    }

    /** The defects a test policy can have. */
    enum Defect {
        NONE,
        EVERY_TENTH_CALL,
        SIZE_WINDOW,
        NO_ROLLOVER,
        INACTIVITY_FROM_CREATION,
        ACCEPTS_ANY_OPTIONS
    }

    /** Size above {@code test.max-bytes}, a minute old or ten seconds idle; with one defect. */
    static final class TestPolicyFactory implements RollingPolicyFactory {
        private final Defect defect;

        TestPolicyFactory(Defect defect) {
            this.defect = defect;
        }

        @Override
        public String identifier() {
            return "test-size-time";
        }

        @Override
        public RollingPolicy create(SinkContext context) {
            long max = context.options()
                    .get(ConfigOptions.key("test.max-bytes").longType().defaultValue(1000L));
            if (max <= 0 && defect != Defect.ACCEPTS_ANY_OPTIONS) {
                throw new IllegalArgumentException("Invalid 'test.max-bytes' " + max + ": must be positive");
            }
            return new RollingPolicy() {
                private int calls;

                private boolean tooLarge(PartFileState f) {
                    if (defect == Defect.EVERY_TENTH_CALL) {
                        return ++calls % 10 == 0;
                    }
                    if (defect == Defect.SIZE_WINDOW) {
                        return f.size() > max && f.size() < 100 * max;
                    }
                    return f.size() > max;
                }

                @Override
                public boolean shouldRollOnCheckpoint(PartFileState f) {
                    return tooLarge(f);
                }

                @Override
                public boolean shouldRollOnEvent(PartFileState f, RowData element) {
                    return tooLarge(f);
                }

                @Override
                public boolean shouldRollOnProcessingTime(PartFileState f, long now) {
                    boolean old = defect != Defect.NO_ROLLOVER && now - f.creationTime() >= 60_000;
                    long idleSince = defect == Defect.INACTIVITY_FROM_CREATION ? f.creationTime() : f.lastUpdateTime();
                    return old || now - idleSince >= 10_000;
                }
            };
        }
    }

    /** Rolls at every checkpoint only, unless the file is empty (the defect, if present). */
    static final class OnCheckpointFactory implements RollingPolicyFactory {
        private final boolean skipsEmpty;

        OnCheckpointFactory(boolean skipsEmpty) {
            this.skipsEmpty = skipsEmpty;
        }

        @Override
        public String identifier() {
            return "test-on-checkpoint";
        }

        @Override
        public RollingPolicy create(SinkContext context) {
            return new RollingPolicy() {
                @Override
                public boolean shouldRollOnCheckpoint(PartFileState f) {
                    return !skipsEmpty || f.size() > 0;
                }

                @Override
                public boolean shouldRollOnEvent(PartFileState f, RowData element) {
                    return false;
                }

                @Override
                public boolean shouldRollOnProcessingTime(PartFileState f, long now) {
                    return false;
                }
            };
        }
    }

    abstract static class Kit extends RollingPolicyConformance {
        private final Defect defect;

        Kit(Defect defect) {
            this.defect = defect;
        }

        @Override
        protected RollingPolicyFactory policyFactory() {
            return new TestPolicyFactory(defect);
        }

        @Override
        protected Long partSizeLimit() {
            return 1000L;
        }

        @Override
        protected Duration rolloverInterval() {
            return Duration.ofMinutes(1);
        }

        @Override
        protected Duration inactivityInterval() {
            return Duration.ofSeconds(10);
        }

        @Override
        protected List<Map<String, String>> invalidOptions() {
            return List.of(
                    Collections.singletonMap("test.max-bytes", "0"), Collections.singletonMap("test.max-bytes", "-5"));
        }
    }

    static final class Correct extends Kit {
        Correct() {
            super(Defect.NONE);
        }
    }

    static final class EveryTenthCall extends Kit {
        EveryTenthCall() {
            super(Defect.EVERY_TENTH_CALL);
        }
    }

    static final class SizeWindow extends Kit {
        SizeWindow() {
            super(Defect.SIZE_WINDOW);
        }
    }

    static final class NoRollover extends Kit {
        NoRollover() {
            super(Defect.NO_ROLLOVER);
        }
    }

    static final class InactivityFromCreation extends Kit {
        InactivityFromCreation() {
            super(Defect.INACTIVITY_FROM_CREATION);
        }
    }

    static final class AcceptsAnyOptions extends Kit {
        AcceptsAnyOptions() {
            super(Defect.ACCEPTS_ANY_OPTIONS);
        }
    }

    static final class CorrectOnCheckpoint extends RollingPolicyConformance {
        @Override
        protected RollingPolicyFactory policyFactory() {
            return new OnCheckpointFactory(false);
        }

        @Override
        protected boolean rollsOnEveryCheckpoint() {
            return true;
        }
    }

    static final class OnCheckpointSkippingEmpty extends RollingPolicyConformance {
        @Override
        protected RollingPolicyFactory policyFactory() {
            return new OnCheckpointFactory(true);
        }

        @Override
        protected boolean rollsOnEveryCheckpoint() {
            return true;
        }
    }
}
