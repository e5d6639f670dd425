package io.sluice.testkit;

import io.sluice.spi.PathNames;
import io.sluice.spi.partition.CommitPolicy;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commit policy kit must catch broken policies: each nested class runs it against a policy
 * with one defect, and exactly the checks that defect breaks must fail. The correct policies write
 * a marker file ({@code test.file-name}, default {@code _DONE}) or a manifest of the visible files
 * into the partition, replacing an earlier one. (Surefire skips nested classes, so the failing
 * runs stay in here.)
 */
class ConformanceKitCatchesBrokenCommitPoliciesTest {

    private static final String KEEPS = "aCommitKeepsTheDataAndStaysInsideTheTable";
    private static final String AGAIN = "committingAgainChangesNothing";
    private static final String LATE = "lateDataCommittedAgainLeavesWhatOneCommitLeaves";
    private static final String INDEPENDENT = "partitionsAreCommittedIndependently";
    private static final String FAILURE = "aFailureFailsTheCommitAndTheRetryIsComplete";
    private static final String OPTIONS = "rejectsInvalidOptions";
    private static final String VISIBLE = "aFileInTheDirectoryThatIsNotVisibleChangesNothing";

    private static Set<String> failedChecks(Class<?> testClass) {
        return ConformanceRuns.failedChecks(testClass, KEEPS, AGAIN, LATE, INDEPENDENT, FAILURE, OPTIONS, VISIBLE);
    }

    @Test
    void withoutInvalidOptionsTheirCheckIsSkippedNotPassed() {
        // CorrectManifest keeps the kit's default invalidOptions()
        assertThat(ConformanceRuns.skippedChecks(
                        CorrectManifest.class, KEEPS, AGAIN, LATE, INDEPENDENT, FAILURE, OPTIONS, VISIBLE))
                .contains(OPTIONS);
    }

    @Test
    void correctPoliciesPassEverything() {
        assertThat(failedChecks(CorrectMarker.class)).isEmpty();
        assertThat(failedChecks(CorrectManifest.class)).isEmpty();
    }

    @Test
    void appendingALinePerCommit() {
        // the retry after a failure appends once more, too
        assertThat(failedChecks(AppendingLog.class)).containsExactlyInAnyOrder(AGAIN, LATE, FAILURE);
    }

    @Test
    void writingTheMarkerOutsideTheTable() {
        assertThat(failedChecks(MarkerOutsideTheTable.class)).containsExactlyInAnyOrder(KEEPS);
    }

    @Test
    void deletingADataFile() {
        assertThat(failedChecks(DeletingData.class)).containsExactlyInAnyOrder(KEEPS);
    }

    @Test
    void rememberingEarlierPartitions() {
        assertThat(failedChecks(RememberingPartitions.class)).containsExactlyInAnyOrder(AGAIN, INDEPENDENT);
    }

    @Test
    void swallowingAFailedWrite() {
        assertThat(failedChecks(SwallowingWriteErrors.class)).containsExactlyInAnyOrder(FAILURE);
    }

    @Test
    void swallowingAFailedListing() {
        assertThat(failedChecks(SwallowingListingErrors.class)).containsExactlyInAnyOrder(FAILURE);
    }

    @Test
    void listingTheDirectoryInsteadOfTheVisibleFiles() {
        assertThat(failedChecks(ListingTheDirectory.class)).containsExactlyInAnyOrder(VISIBLE);
    }

    @Test
    void acceptingInvalidOptions() {
        assertThat(failedChecks(AcceptsAnyOptions.class)).containsExactlyInAnyOrder(OPTIONS);
    }

    /** The defects a test policy can have. */
    enum Defect {
        NONE,
        APPENDS,
        OUTSIDE,
        DELETES_DATA,
        REMEMBERS,
        SWALLOWS,
        ACCEPTS_ANY_OPTIONS
    }

    /** Writes the marker file {@code test.file-name} into the partition; with one defect. */
    static final class MarkerPolicyFactory implements CommitPolicyFactory {
        private final Defect defect;

        MarkerPolicyFactory(Defect defect) {
            this.defect = defect;
        }

        @Override
        public String identifier() {
            return "test-marker";
        }

        @Override
        public CommitPolicy create(SinkContext context) {
            String name = context.options()
                    .get(ConfigOptions.key("test.file-name").stringType().defaultValue("_DONE"));
            if (defect != Defect.ACCEPTS_ANY_OPTIONS) {
                PathNames.checkName("test.file-name", name);
            }
            Set<String> committed = new TreeSet<>();
            return ctx -> {
                Path dir = ctx.partitionLocation();
                if (defect == Defect.OUTSIDE) {
                    dir = dir.getParent()
                            .getParent()
                            .getParent(); // 'dt=.../region=...' has two levels: above the table
                }
                Path marker = new Path(
                        dir,
                        defect == Defect.OUTSIDE
                                ? name + "-" + ctx.partitionSpec().get("region").hashCode()
                                : name);
                FileSystem fs = marker.getFileSystem();
                committed.add(ctx.partitionId());
                try {
                    if (defect == Defect.DELETES_DATA) {
                        fs.delete(new Path(ctx.partitionLocation(), "part-0-0"), false);
                    }
                    if (defect == Defect.APPENDS) {
                        String before = fs.exists(marker) ? read(fs, marker) : "";
                        write(fs, marker, before + "committed at checkpoint " + ctx.checkpointId() + "\n");
                    } else if (defect == Defect.REMEMBERS) {
                        write(fs, marker, String.join("\n", committed));
                    } else {
                        write(fs, marker, "");
                    }
                } catch (IOException e) {
                    if (defect != Defect.SWALLOWS) {
                        throw e;
                    }
                }
            };
        }
    }

    /**
     * Writes the names of the partition's visible files into {@code _MANIFEST}; swallowing a failed
     * listing if told, or listing the directory's data files instead of asking for the visible ones.
     */
    static final class ManifestPolicyFactory implements CommitPolicyFactory {
        private final boolean swallowsListingErrors;
        private final boolean listsDirectory;

        ManifestPolicyFactory(boolean swallowsListingErrors) {
            this(swallowsListingErrors, false);
        }

        ManifestPolicyFactory(boolean swallowsListingErrors, boolean listsDirectory) {
            this.swallowsListingErrors = swallowsListingErrors;
            this.listsDirectory = listsDirectory;
        }

        @Override
        public String identifier() {
            return "test-manifest";
        }

        @Override
        public CommitPolicy create(SinkContext context) {
            return ctx -> {
                List<String> names = new ArrayList<>();
                try {
                    if (listsDirectory) {
                        FileSystem fs = ctx.partitionLocation().getFileSystem();
                        for (FileStatus f : fs.listStatus(ctx.partitionLocation())) {
                            String name = f.getPath().getName();
                            if (!f.isDir() && !name.startsWith("_") && !name.startsWith(".")) {
                                names.add(new Path(ctx.partitionLocation(), name).toString());
                            }
                        }
                    } else {
                        ctx.visibleFiles().forEach(f -> names.add(f.toString()));
                    }
                } catch (IOException e) {
                    if (!swallowsListingErrors) {
                        throw e;
                    }
                }
                Collections.sort(names);
                Path manifest = new Path(ctx.partitionLocation(), "_MANIFEST");
                write(manifest.getFileSystem(), manifest, String.join("\n", names));
            };
        }
    }

    private static void write(FileSystem fs, Path file, String content) throws IOException {
        try (OutputStream out = fs.create(file, FileSystem.WriteMode.OVERWRITE)) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static String read(FileSystem fs, Path file) throws IOException {
        try (java.io.InputStream in = fs.open(file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    abstract static class Kit extends CommitPolicyConformance {
        private final Defect defect;

        Kit(Defect defect) {
            this.defect = defect;
        }

        @Override
        protected CommitPolicyFactory policyFactory() {
            return new MarkerPolicyFactory(defect);
        }

        @Override
        protected List<Map<String, String>> invalidOptions() {
            return List.of(
                    Collections.singletonMap("test.file-name", "a/b"), Collections.singletonMap("test.file-name", ""));
        }
    }

    static final class CorrectMarker extends Kit {
        CorrectMarker() {
            super(Defect.NONE);
        }
    }

    static final class CorrectManifest extends CommitPolicyConformance {
        @Override
        protected CommitPolicyFactory policyFactory() {
            return new ManifestPolicyFactory(false);
        }
    }

    static final class AppendingLog extends Kit {
        AppendingLog() {
            super(Defect.APPENDS);
        }
    }

    static final class MarkerOutsideTheTable extends Kit {
        MarkerOutsideTheTable() {
            super(Defect.OUTSIDE);
        }
    }

    static final class DeletingData extends Kit {
        DeletingData() {
            super(Defect.DELETES_DATA);
        }
    }

    static final class RememberingPartitions extends Kit {
        RememberingPartitions() {
            super(Defect.REMEMBERS);
        }
    }

    static final class SwallowingWriteErrors extends Kit {
        SwallowingWriteErrors() {
            super(Defect.SWALLOWS);
        }
    }

    static final class SwallowingListingErrors extends CommitPolicyConformance {
        @Override
        protected CommitPolicyFactory policyFactory() {
            return new ManifestPolicyFactory(true);
        }
    }

    static final class ListingTheDirectory extends CommitPolicyConformance {
        @Override
        protected CommitPolicyFactory policyFactory() {
            return new ManifestPolicyFactory(false, true);
        }
    }

    static final class AcceptsAnyOptions extends Kit {
        AcceptsAnyOptions() {
            super(Defect.ACCEPTS_ANY_OPTIONS);
        }
    }
}
