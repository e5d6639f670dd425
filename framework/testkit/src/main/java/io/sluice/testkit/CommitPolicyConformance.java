package io.sluice.testkit;

import io.sluice.spi.partition.CommitPolicy;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.partition.PartitionCommitContext;
import io.sluice.spi.partition.PartitionPaths;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Conformance tests for a {@link CommitPolicyFactory}: extend this class in a plugin's tests,
 * return the factory from {@link #policyFactory()}, and JUnit 5 runs every check below against it.
 * The kit lays out a table of Hive-style partitions ({@code dt}, {@code region}, both {@code
 * STRING}) in a temporary directory, with data files in them, and commits partitions as the
 * framework's partition-commit task does: through a {@link PartitionCommitContext} holding the
 * partition's id, spec, directory ({@code partitionLocation}) and visible files. What a policy
 * does is judged by what it leaves on the local file system: every file below the kit's directory
 * and its bytes. One partition value is hostile ({@code ../..}, escaped in the directory name as
 * targets escape it).
 *
 * <p>The checks:
 *
 * <ul>
 *   <li>committing a partition leaves the partition's data files as they were, and nothing outside
 *       the table's directory changes;
 *   <li>idempotent: committing the same partition again, by the same policy or by one created
 *       anew (as after a restore), leaves exactly what the first commit left;
 *   <li>late data: committing a partition, then committing it again once it holds more files,
 *       leaves what a single commit of the larger partition leaves;
 *   <li>partitions are independent: committing one does not change what committing another
 *       leaves;
 *   <li>the commit goes by the partition's visible files, not by a listing of its directory: a
 *       data file in the directory that is not visible (one no commit published, as a table
 *       format that tracks its files can have) changes nothing the commit leaves;
 *   <li>a failure propagates: when the partition's visible files cannot be listed, a policy that
 *       asks for them fails the commit; when the partition's directory cannot be written, a
 *       policy that writes into it (as the normal commit shows) fails the commit; committed again
 *       once the partition is sound, it leaves the normal result;
 *   <li>each option set of {@link #invalidOptions()} fails {@code create} with an {@link
 *       IllegalArgumentException} naming one of its options.
 * </ul>
 */
public abstract class CommitPolicyConformance {

    /** Sub-classes are JUnit test classes. */
    protected CommitPolicyConformance() {}

    /** The table's columns: {@code id STRING, dt STRING, region STRING}, partitioned by the last two. */
    public static final RowType ROW_TYPE = RowType.of(
            new LogicalType[] {
                new VarCharType(VarCharType.MAX_LENGTH),
                new VarCharType(VarCharType.MAX_LENGTH),
                new VarCharType(VarCharType.MAX_LENGTH)
            },
            new String[] {"id", "dt", "region"});

    /** The partition keys. */
    public static final List<String> PARTITION_KEYS = Arrays.asList("dt", "region");

    // ---------------------------------------------------------------- what a plugin author supplies

    /** The factory under test, created directly (a new instance each call is fine). */
    protected abstract CommitPolicyFactory policyFactory();

    /**
     * The options the factory gets in every check but the invalid-options one; {@code table} is
     * the table's directory, for a policy that needs to be told where the table is.
     */
    protected Map<String, String> options(java.nio.file.Path table) {
        return Collections.emptyMap();
    }

    /** Option sets the factory must each reject; empty (the default) skips that check, reported as skipped. */
    protected List<Map<String, String>> invalidOptions() {
        return Collections.emptyList();
    }

    // ---------------------------------------------------------------- the checks

    @Test
    void aCommitKeepsTheDataAndStaysInsideTheTable(@TempDir java.nio.file.Path dir) throws Exception {
        Kit kit = new Kit(dir);
        for (Partition p : kit.partitions) {
            Map<String, String> outsideBefore = kit.outsideTable();
            Map<String, String> dataBefore = kit.dataFiles(p);
            kit.create().commit(p.context());
            assertThat(kit.dataFiles(p))
                    .as("data files of %s after its commit", p.id)
                    .isEqualTo(dataBefore);
            assertThat(kit.outsideTable())
                    .as("files outside the table after committing %s", p.id)
                    .isEqualTo(outsideBefore);
        }
    }

    @Test
    void committingAgainChangesNothing(@TempDir java.nio.file.Path dir) throws Exception {
        Kit kit = new Kit(dir);
        CommitPolicy policy = kit.create();
        for (Partition p : kit.partitions) {
            policy.commit(p.context());
            Map<String, String> once = kit.everything();
            policy.commit(p.context());
            assertThat(kit.everything())
                    .as("files after committing %s twice", p.id)
                    .isEqualTo(once);
            kit.create().commit(p.context());
            assertThat(kit.everything())
                    .as("files after committing %s again by a new policy", p.id)
                    .isEqualTo(once);
        }
    }

    @Test
    void lateDataCommittedAgainLeavesWhatOneCommitLeaves(@TempDir java.nio.file.Path dir) throws Exception {
        Kit early = new Kit(dir.resolve("early"));
        Partition p = early.partitions.get(0);
        early.create().commit(p.context());
        p.addFile("part-late-0", "late row");
        early.create().commit(p.contextAt(2));

        Kit once = new Kit(dir.resolve("once"));
        Partition q = once.partitions.get(0);
        q.addFile("part-late-0", "late row");
        once.create().commit(q.contextAt(2));

        assertThat(early.everything())
                .as("files after a commit, late data and a second commit")
                .isEqualTo(once.everything());
    }

    @Test
    void partitionsAreCommittedIndependently(@TempDir java.nio.file.Path dir) throws Exception {
        Kit all = new Kit(dir.resolve("all"));
        CommitPolicy policy = all.create();
        for (Partition p : all.partitions) {
            policy.commit(p.context());
        }
        Kit last = new Kit(dir.resolve("last"));
        Partition only = last.partitions.get(last.partitions.size() - 1);
        last.create().commit(only.context());
        assertThat(all.below(all.partitions.get(all.partitions.size() - 1).dir))
                .as("files of %s after committing every partition, against after committing it alone", only.id)
                .isEqualTo(last.below(only.dir));
    }

    @Test
    void aFileInTheDirectoryThatIsNotVisibleChangesNothing(@TempDir java.nio.file.Path dir) throws Exception {
        Kit visibleOnly = new Kit(dir.resolve("visible-only"));
        Partition p = visibleOnly.partitions.get(0);
        visibleOnly.create().commit(p.context());

        Kit withInvisible = new Kit(dir.resolve("with-invisible"));
        Partition q = withInvisible.partitions.get(0);
        q.addInvisibleFile(Partition.INVISIBLE, "a row no commit published");
        withInvisible.create().commit(q.context());
        Map<String, String> after = withInvisible.below(q.dir);
        assertThat(after.remove(Partition.INVISIBLE))
                .as("the invisible file, left as it was")
                .isEqualTo("a row no commit published");
        assertThat(after)
                .as(
                        "files of %s committed with a file in its directory that visibleFiles() does not return,"
                                + " against committed without it (a policy must use visibleFiles(), not list the"
                                + " directory)",
                        q.id)
                .isEqualTo(visibleOnly.below(p.dir));
    }

    @Test
    void aFailureFailsTheCommitAndTheRetryIsComplete(@TempDir java.nio.file.Path dir) throws Exception {
        Kit normal = new Kit(dir.resolve("normal"));
        Partition sound = normal.partitions.get(0);
        Map<String, String> dataOnly = normal.below(sound.dir);
        normal.create().commit(sound.context());
        boolean writesIntoThePartition = !normal.below(sound.dir).equals(dataOnly);

        Kit broken = new Kit(dir.resolve("broken"));
        Partition p = broken.partitions.get(0);
        // the listing fails
        Recording unlistable = p.failingListing();
        Throwable t = catchThrowable(() -> broken.create().commit(unlistable));
        if (unlistable.listed) {
            assertThat(t).as("a commit whose visible files cannot be listed").isNotNull();
            assertThat(causes(t))
                    .as("causes of %s", t)
                    .anyMatch(c -> c.getMessage() != null && c.getMessage().contains(Partition.LISTING_FAILS));
        }
        // the directory cannot be written: it is a file
        if (writesIntoThePartition) {
            Recording unwritable = p.unwritable();
            assertThat(catchThrowable(() -> broken.create().commit(unwritable)))
                    .as("a commit into a partition directory that is a file (the normal commit writes into it)")
                    .isNotNull();
        }
        broken.create().commit(p.context());
        assertThat(broken.below(p.dir))
                .as("files of %s committed again after the failures", p.id)
                .isEqualTo(normal.below(sound.dir));
    }

    @Test
    void rejectsInvalidOptions() {
        List<Map<String, String>> all = invalidOptions();
        assumeTrue(
                all != null && !all.isEmpty(),
                "invalidOptions() is empty: the factory has no options to get wrong, nothing to check");
        for (Map<String, String> invalid : all) {
            Throwable t = catchThrowable(() -> policyFactory().create(context(invalid)));
            assertThat(t).as("create with invalid options %s", invalid).isInstanceOf(IllegalArgumentException.class);
            assertThat(invalid.keySet())
                    .as("options named by: %s", t.getMessage())
                    .anySatisfy(key -> assertThat(t.getMessage()).contains(key));
        }
    }

    // ---------------------------------------------------------------- machinery

    private static TestSinkContext context(Map<String, String> options) {
        return TestSinkContext.builder(ROW_TYPE)
                .partitionKeys(PARTITION_KEYS)
                .options(options)
                .build();
    }

    /** A directory as a Flink path, {@code file:} and without the trailing {@code /} of {@code toUri()}. */
    private static Path directory(java.nio.file.Path dir) {
        return new Path("file", null, dir.toAbsolutePath().toString());
    }

    private static List<Throwable> causes(Throwable t) {
        List<Throwable> all = new ArrayList<>();
        for (Throwable c = t; c != null && !all.contains(c); c = c.getCause()) {
            all.add(c);
        }
        return all;
    }

    /** A kit directory: {@code table/} with its partitions, and a sibling file outside the table. */
    private final class Kit {
        final java.nio.file.Path root;
        final java.nio.file.Path table;
        final List<Partition> partitions = new ArrayList<>();

        Kit(java.nio.file.Path root) throws IOException {
            this.root = root;
            this.table = root.resolve("table");
            Files.createDirectories(table);
            Files.write(root.resolve("outside-the-table"), "not the policy's".getBytes(StandardCharsets.UTF_8));
            Files.write(
                    table.resolve("part-unpartitioned"), "a row of the table's root".getBytes(StandardCharsets.UTF_8));
            partitions.add(new Partition(table, "2024-01-01", "eu"));
            partitions.add(new Partition(table, "2024-01-01", "../.."));
            partitions.add(new Partition(table, "2024-01-02", "ünïcødé 100%"));
        }

        CommitPolicy create() {
            return policyFactory().create(context(options(table)));
        }

        Map<String, String> everything() throws IOException {
            return below(root);
        }

        Map<String, String> outsideTable() throws IOException {
            Map<String, String> all = below(root);
            all.keySet().removeIf(k -> k.startsWith("table/") || k.equals("table"));
            return all;
        }

        Map<String, String> dataFiles(Partition p) throws IOException {
            Map<String, String> all = below(p.dir);
            all.keySet().retainAll(p.files.stream().map(f -> f.getName()).collect(Collectors.toList()));
            return all;
        }

        /**
         * Every file and directory below {@code dir}, relative to it, with its bytes; the kit
         * directory's own path in a file reads as {@code <kit>}, so that two kit directories
         * compare equal when the policy recorded paths.
         */
        Map<String, String> below(java.nio.file.Path dir) throws IOException {
            Map<String, String> all = new TreeMap<>();
            if (!Files.exists(dir)) {
                return all;
            }
            try (Stream<java.nio.file.Path> walk = Files.walk(dir)) {
                for (java.nio.file.Path p : (Iterable<java.nio.file.Path>) walk::iterator) {
                    if (p.equals(dir)) {
                        continue;
                    }
                    String name = dir.relativize(p).toString().replace('\\', '/');
                    all.put(
                            name,
                            Files.isDirectory(p)
                                    ? "<dir>"
                                    : new String(Files.readAllBytes(p), StandardCharsets.UTF_8)
                                            .replace(root.toString(), "<kit>"));
                }
            }
            return all;
        }
    }

    /** One partition directory of the kit's table, with data files. */
    private static final class Partition {
        static final String LISTING_FAILS = "kit: the partition's files cannot be listed";
        /** A data file's name for a file in the directory that is not among the visible files. */
        static final String INVISIBLE = "part-9-0";

        final LinkedHashMap<String, String> spec = new LinkedHashMap<>();
        final String id;
        final java.nio.file.Path dir;
        final List<Path> files = new ArrayList<>();

        Partition(java.nio.file.Path table, String dt, String region) throws IOException {
            spec.put("dt", dt);
            spec.put("region", region);
            id = PartitionPaths.path(spec);
            dir = table.resolve(id);
            Files.createDirectories(dir);
            addFile("part-0-0", "row 1\nrow 2\n");
            addFile("part-1-0", "row 3\n");
        }

        void addFile(String name, String content) throws IOException {
            java.nio.file.Path file = dir.resolve(name);
            Files.write(file, content.getBytes(StandardCharsets.UTF_8));
            files.add(new Path(file.toUri()));
        }

        /** A file in the partition's directory that {@code visibleFiles()} does not return. */
        void addInvisibleFile(String name, String content) throws IOException {
            Files.write(dir.resolve(name), content.getBytes(StandardCharsets.UTF_8));
        }

        Recording context() {
            return contextAt(1);
        }

        Recording contextAt(long checkpoint) {
            return new Recording(this, directory(dir), checkpoint, false);
        }

        Recording failingListing() {
            return new Recording(this, directory(dir), 1, true);
        }

        /** A context whose location is a regular file, below which nothing can be created. */
        Recording unwritable() throws IOException {
            java.nio.file.Path blocker = dir.resolveSibling(dir.getFileName() + ".not-a-directory");
            if (!Files.exists(blocker)) {
                Files.write(blocker, new byte[0]);
            }
            java.nio.file.Path location = blocker.resolve("partition");
            return new Recording(this, directory(location), 1, false) {
                @Override
                public List<Path> visibleFiles() {
                    listed = true;
                    return Collections.emptyList();
                }
            };
        }
    }

    /** The partition-commit context of one commit, noting whether the policy listed the files. */
    private static class Recording implements PartitionCommitContext {
        private final Partition partition;
        private final Path location;
        private final long checkpoint;
        private final boolean listingFails;
        boolean listed;

        Recording(Partition partition, Path location, long checkpoint, boolean listingFails) {
            this.partition = partition;
            this.location = location;
            this.checkpoint = checkpoint;
            this.listingFails = listingFails;
        }

        @Override
        public String partitionId() {
            return partition.id;
        }

        @Override
        public LinkedHashMap<String, String> partitionSpec() {
            return new LinkedHashMap<>(partition.spec);
        }

        @Override
        public Path partitionLocation() {
            return location;
        }

        @Override
        public List<Path> visibleFiles() throws IOException {
            listed = true;
            if (listingFails) {
                throw new IOException(Partition.LISTING_FAILS + ": " + partition.id);
            }
            return Collections.unmodifiableList(new ArrayList<>(partition.files));
        }

        @Override
        public long checkpointId() {
            return checkpoint;
        }
    }
}
