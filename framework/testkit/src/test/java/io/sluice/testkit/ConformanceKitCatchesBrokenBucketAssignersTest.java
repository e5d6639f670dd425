package io.sluice.testkit;

import io.sluice.spi.PathNames;
import io.sluice.spi.partition.PartitionPaths;
import io.sluice.spi.sink.BucketAssigner;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bucket assigner kit must catch broken assigners: each nested class runs it against an
 * assigner of {@code city=<value>} buckets with one defect, and exactly the checks that defect
 * breaks must fail. (Surefire skips nested classes, so the failing runs stay in here.)
 */
class ConformanceKitCatchesBrokenBucketAssignersTest {

    private static final String SAME = "theSameRowGetsTheSameBucketEveryTime";
    private static final String AGREE = "assignersFromTheSameOptionsAgree";
    private static final String REUSED = "aReusedRowGetsTheBucketOfItsNewValues";
    private static final String INSIDE = "bucketIdsStayInsideTheTable";
    private static final String OPTIONS = "rejectsInvalidOptions";

    private static Set<String> failedChecks(Class<?> testClass) {
        return ConformanceRuns.failedChecks(testClass, SAME, AGREE, REUSED, INSIDE, OPTIONS);
    }

    @Test
    void withoutInvalidOptionsTheirCheckIsSkippedNotPassed() {
        assertThat(ConformanceRuns.skippedChecks(WithoutInvalidOptions.class, SAME, AGREE, REUSED, INSIDE, OPTIONS))
                .contains(OPTIONS);
    }

    @Test
    void aCorrectAssignerPassesEverything() {
        assertThat(failedChecks(Correct.class)).isEmpty();
    }

    @Test
    void valuesInTheBucketIdUnescaped() {
        assertThat(failedChecks(Unescaped.class)).containsExactlyInAnyOrder(INSIDE);
    }

    @Test
    void aCounterInTheBucketId() {
        // two assigners asked in the same order count alike: only asking one again shows it
        assertThat(failedChecks(Counting.class)).containsExactlyInAnyOrder(SAME);
    }

    @Test
    void theSubtaskInTheBucketId() {
        assertThat(failedChecks(PerSubtask.class)).containsExactlyInAnyOrder(AGREE);
    }

    @Test
    void keepingTheRowByIdentity() {
        assertThat(failedChecks(CachingByIdentity.class)).containsExactlyInAnyOrder(REUSED);
    }

    @Test
    void aHiddenPrefix() {
        assertThat(failedChecks(HiddenPrefix.class)).containsExactlyInAnyOrder(INSIDE);
    }

    @Test
    void aHiddenPrefixTheAssignerDocuments() {
        assertThat(failedChecks(DocumentedHiddenPrefix.class)).isEmpty();
    }

    @Test
    void acceptingInvalidOptions() {
        assertThat(failedChecks(AcceptsAnyOptions.class)).containsExactlyInAnyOrder(OPTIONS);
    }

    /** The defects a test assigner can have. */
    enum Defect {
        NONE,
        UNESCAPED,
        COUNTER,
        SUBTASK,
        IDENTITY_CACHE,
        HIDDEN_PREFIX,
        ACCEPTS_ANY_OPTIONS
    }

    /** {@code city=<value>}, escaped, below an optional {@code test.prefix} directory; with one defect. */
    static final class TestAssignerFactory implements BucketAssignerFactory {
        private final Defect defect;

        TestAssignerFactory(Defect defect) {
            this.defect = defect;
        }

        @Override
        public String identifier() {
            return "test-city";
        }

        @Override
        public BucketAssigner create(SinkContext context) {
            String prefix = context.options()
                    .get(ConfigOptions.key("test.prefix").stringType().defaultValue("by-city"));
            if (defect != Defect.ACCEPTS_ANY_OPTIONS && PathNames.nameProblem(prefix) != null) {
                throw new IllegalArgumentException(
                        "Invalid 'test.prefix' '" + prefix + "': " + PathNames.nameProblem(prefix));
            }
            String dir = defect == Defect.HIDDEN_PREFIX ? "_" + prefix : prefix;
            int city = context.rowType().getFieldIndex("city");
            int subtask = context.subtaskIndex();
            AtomicInteger counter = new AtomicInteger();
            RowData[] last = new RowData[1];
            String[] lastId = new String[1];
            return (row, record) -> {
                if (defect == Defect.IDENTITY_CACHE && row == last[0]) {
                    return lastId[0];
                }
                String value =
                        row.isNullAt(city) ? "__NULL__" : row.getString(city).toString();
                String segment = "city=" + (defect == Defect.UNESCAPED ? value : PartitionPaths.escape(value));
                String id = dir + "/" + segment;
                if (defect == Defect.COUNTER) {
                    id += "/n" + counter.incrementAndGet();
                }
                if (defect == Defect.SUBTASK) {
                    id += "/subtask-" + subtask;
                }
                last[0] = row;
                lastId[0] = id;
                return id;
            };
        }
    }

    abstract static class Kit extends BucketAssignerConformance {
        private final Defect defect;

        Kit(Defect defect) {
            this.defect = defect;
        }

        @Override
        protected BucketAssignerFactory assignerFactory() {
            return new TestAssignerFactory(defect);
        }

        @Override
        protected List<Map<String, String>> invalidOptions() {
            return List.of(
                    Collections.singletonMap("test.prefix", "a/b"), Collections.singletonMap("test.prefix", ".."));
        }
    }

    static final class Correct extends Kit {
        Correct() {
            super(Defect.NONE);
        }
    }

    static final class WithoutInvalidOptions extends Kit {
        WithoutInvalidOptions() {
            super(Defect.NONE);
        }

        @Override
        protected List<Map<String, String>> invalidOptions() {
            return Collections.emptyList(); // the kit's default
        }
    }

    static final class Unescaped extends Kit {
        Unescaped() {
            super(Defect.UNESCAPED);
        }
    }

    static final class Counting extends Kit {
        Counting() {
            super(Defect.COUNTER);
        }
    }

    static final class PerSubtask extends Kit {
        PerSubtask() {
            super(Defect.SUBTASK);
        }
    }

    static final class CachingByIdentity extends Kit {
        CachingByIdentity() {
            super(Defect.IDENTITY_CACHE);
        }
    }

    static final class HiddenPrefix extends Kit {
        HiddenPrefix() {
            super(Defect.HIDDEN_PREFIX);
        }
    }

    static final class DocumentedHiddenPrefix extends Kit {
        DocumentedHiddenPrefix() {
            super(Defect.HIDDEN_PREFIX);
        }

        @Override
        protected boolean allowsHiddenSegments() {
            return true;
        }
    }

    static final class AcceptsAnyOptions extends Kit {
        AcceptsAnyOptions() {
            super(Defect.ACCEPTS_ANY_OPTIONS);
        }
    }
}
