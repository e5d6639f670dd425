package io.sluice.testkit;

import io.sluice.spi.Payload;
import io.sluice.spi.source.PlannedSplit;
import io.sluice.spi.source.ScanPlan;
import io.sluice.spi.source.ScanPlanner;
import io.sluice.spi.source.ScanSourceFactory;
import io.sluice.spi.source.ScanSplitReader;
import io.sluice.spi.source.SourceContext;
import io.sluice.spi.source.SplitRows;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.annotation.Nullable;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Conformance tests for a {@link ScanSourceFactory}: extend this class in a plugin's tests, return
 * the factory from {@link #sourceFactory()}, create an empty table in {@link #createTable(Path)}
 * and commit rows to it in {@link #append(Map, List)}, and JUnit 5 runs every check below against
 * it. The factory is created directly (no plugin loading) and gets a {@link TestSourceContext}
 * with the table's options and the read options of the check, rows of {@link #ROW_TYPE}.
 *
 * <p>The kit makes up the rows: {@code (id BIGINT, name STRING)}, ids unique and increasing, names
 * with an empty string, non-ASCII characters and commas among them. It commits them in batches of
 * a few rows, each batch one commit (one snapshot, one table version) of the target. It calls the
 * planner and the reader as the framework does, and compares what was read as a multiset of rows
 * (row kind, id, name): each row is copied as soon as {@link SplitRows#next()} returns it, as the
 * framework copies it, since a reader may reuse one row object for all its rows (the messages say
 * when the author's reader does).
 *
 * <p>The checks:
 *
 * <ul>
 *   <li>a bounded read ({@link #boundedOptions()}) of a table of several commits: the splits of
 *       one plan, each read from its start, give exactly the committed rows; {@code validate}
 *       accepts the options and {@code monitorInterval} is empty;
 *   <li>a continuous read ({@link #continuousOptions()}): the first plan gives the rows already
 *       committed or none of them ({@link #firstContinuousPlanIncludesExistingRows()}); a plan
 *       from the position of the previous one gives exactly the rows committed since, and when
 *       nothing was committed no splits and a position equal to the one given (so the framework's
 *       checkpoints stay the same); planning again from an older position gives the same rows and
 *       position again, since the framework plans again from a position it holds (a plan it
 *       dropped as stale, a restore);
 *   <li>a continuous read of a table that is empty when the read starts misses none of the rows
 *       committed after it started, whatever the starting strategy, and plans none twice;
 *   <li>a split opened at the position ({@link SplitRows#offset()}, {@link
 *       SplitRows#recordsToSkip()}) reached after any of its rows gives exactly the rows after that
 *       one, in the same order: what the framework does after a restore from a checkpoint;
 *   <li>positions and split payloads work as copies of their bytes, in a new planner and a new
 *       reader of a new factory instance, as after a restore in other JVMs: nothing may depend on
 *       the identity of a {@link Payload} or its array;
 *   <li>one reader reads many splits in turn, each closed before or after its end, and a new
 *       reader still reads everything after the first one is closed;
 *   <li>invalid options ({@link #invalidOptions()}) fail {@code validate} with an {@link
 *       IllegalArgumentException} naming the option;
 *   <li>{@code tableRowType}, unless empty, has the columns of the rows: {@code id BIGINT, name
 *       STRING} (nullability aside).
 * </ul>
 *
 * <p>A check that does not apply (no continuous reads, no invalid options, no table row type, no
 * split of more than one row) is skipped, and says why.
 */
public abstract class ScanSourceConformance {

    /**
     * The columns of the kit's table and of the rows it reads: {@code id BIGINT, name STRING}. The
     * table {@link #createTable(Path)} creates has exactly these columns.
     */
    public static final RowType ROW_TYPE = (RowType)
            DataTypes.ROW(DataTypes.FIELD("id", DataTypes.BIGINT()), DataTypes.FIELD("name", DataTypes.STRING()))
                    .getLogicalType();

    /** Commits of the bounded checks: several, of different sizes, one of a single row. */
    private static final int[] COMMITS = {3, 1, 4};

    /** More rows than any split of the kit's small tables can hold: a reader that never ends is caught. */
    private static final int MAX_ROWS_PER_SPLIT = 10_000;

    /** Sub-classes are JUnit test classes. */
    protected ScanSourceConformance() {}

    // ---------------------------------------------------------------- what a plugin author supplies

    /**
     * The factory under test, created directly. Called more than once in a check: a restore
     * creates new instances, and the kit plans and reads with them too.
     */
    protected abstract ScanSourceFactory sourceFactory();

    /**
     * Creates a new, empty table with the columns of {@link #ROW_TYPE} and returns the options that
     * name it (catalog, path, table name): the kit adds the read options of a check to them. Called
     * once per check, each time with a new directory.
     *
     * @param dir an empty directory of this check, for a warehouse or a table path
     */
    protected abstract Map<String, String> createTable(Path dir) throws Exception;

    /**
     * Commits the rows to the table as one commit (one snapshot, one table version): a continuous
     * read sees them all in one plan or not at all.
     *
     * @param table the options {@link #createTable(Path)} returned
     * @param rows rows of {@link #ROW_TYPE} ({@code GenericRowData} with a {@code Long} and a
     *     {@code StringData}), of kind {@code INSERT}, never empty
     */
    protected abstract void append(Map<String, String> table, List<RowData> rows) throws Exception;

    /** The read options of a bounded read of the current state of the table; none by default. */
    protected Map<String, String> boundedOptions() {
        return Collections.emptyMap();
    }

    /**
     * The read options of a continuous read ({@code monitorInterval} present), or {@code null} for a
     * source that only reads bounded: the continuous checks are then skipped.
     *
     * <p>Its first plan must give either all rows already in the table or none of them (see {@link
     * #firstContinuousPlanIncludesExistingRows()}); a starting point in between, such as one that
     * leaves the latest commit to the second plan, is a valid choice of a source, but not one the
     * kit can check: give the options of another.
     */
    protected abstract Map<String, String> continuousOptions();

    /**
     * Whether the first plan of a continuous read gives the rows already in the table (a table scan
     * first, the default) or none of them (a read of only what is committed from now on).
     */
    protected boolean firstContinuousPlanIncludesExistingRows() {
        return true;
    }

    /**
     * Read options {@code validate} must reject with an {@link IllegalArgumentException} naming
     * one of their keys, added to the table's options; {@code null} (the default) skips that
     * check.
     */
    protected Map<String, String> invalidOptions() {
        return null;
    }

    /**
     * The context of the factory's calls: the table's and the check's options, {@link #ROW_TYPE},
     * no partition keys, no extensions, an empty job configuration. Override to give any of these
     * (a {@link TestSourceContext} takes them all); the rows read must stay of {@link #ROW_TYPE}.
     */
    protected SourceContext sourceContext(Map<String, String> options) {
        return new TestSourceContext(ROW_TYPE, Collections.emptyList(), options, TestSourceContext.NO_EXTENSIONS);
    }

    // ---------------------------------------------------------------- the checks

    /** The splits of one bounded plan, each read from its start, are exactly the committed rows. */
    @Test
    void boundedReadYieldsExactlyTheCommittedRows(@TempDir Path dir) throws Exception {
        KitTable table = new KitTable(dir);
        List<String> committed = table.commitAll(COMMITS);
        SourceContext context = table.context(boundedOptions());
        ScanSourceFactory factory = sourceFactory();
        assertThatCode(() -> factory.validate(context))
                .as("validate() with the bounded options %s", boundedOptions())
                .doesNotThrowAnyException();
        assertThat(factory.monitorInterval(context))
                .as("monitorInterval() with the bounded options %s (empty: bounded)", boundedOptions())
                .isEmpty();

        ScanPlan plan;
        try (ScanPlanner planner = factory.createPlanner(context)) {
            plan = plan(planner, null, "the plan of a bounded read");
        }
        try (ScanSplitReader reader = factory.createReader(context)) {
            Read read = readAll(reader, plan.splits(), "the splits of a bounded read");
            assertThat(read.rows)
                    .as(
                            "rows of the %s splits of a bounded read of a table of %s commits, every split "
                                    + "opened at (0, 0)%s",
                            plan.splits().size(), COMMITS.length, read.reuseNote())
                    .containsExactlyInAnyOrderElementsOf(committed);
        }
    }

    /**
     * The first plan gives what the starting strategy says; every later plan exactly what was
     * committed since its position; planning is a function of the position.
     */
    @Test
    void continuousReadPlansEachCommitOnceFromThePositionItIsGiven(@TempDir Path dir) throws Exception {
        Map<String, String> options = continuousOptions();
        assumeTrue(options != null, "continuousOptions() is null: the source reads bounded only");
        KitTable table = new KitTable(dir);
        List<String> existing = table.commitAll(3, 2);
        SourceContext context = table.context(options);
        ScanSourceFactory factory = sourceFactory();
        assertThatCode(() -> factory.validate(context))
                .as("validate() with the continuous options %s", options)
                .doesNotThrowAnyException();
        Duration interval = factory.monitorInterval(context).orElse(null);
        assertThat(interval)
                .as("monitorInterval() with the continuous options %s (present: continuous)", options)
                .isNotNull();
        assertThat(interval.isNegative() || interval.isZero())
                .as("monitorInterval() %s is not positive", interval)
                .isFalse();

        try (ScanPlanner planner = factory.createPlanner(context);
                ScanSplitReader reader = factory.createReader(context)) {
            ScanPlan first = plan(planner, null, "the first plan of a continuous read");
            Read firstRead = readAll(reader, first.splits(), "the first plan");
            if (firstContinuousPlanIncludesExistingRows()) {
                assertThat(firstRead.rows)
                        .as(
                                "rows of the first plan of a continuous read of a table of 2 commits "
                                        + "(firstContinuousPlanIncludesExistingRows() is true: all of them)%s",
                                firstRead.reuseNote())
                        .containsExactlyInAnyOrderElementsOf(existing);
            } else {
                assertThat(firstRead.rows)
                        .as("rows of the first plan of a continuous read of a table of 2 commits "
                                + "(firstContinuousPlanIncludesExistingRows() is false: none of them)")
                        .isEmpty();
            }
            assertThat(first.position())
                    .as("position of the first plan of a table with commits (null only while "
                            + "nothing has been planned, for an empty table: the framework passes null back, and the next plan "
                            + "would start over)")
                    .isNotNull();

            assertNothingNew(planner, first.position(), "the first plan's position, nothing committed since");

            List<String> added = table.commit(4);
            ScanPlan second = plan(planner, first.position(), "the plan after a commit");
            assertThat(readAll(reader, second.splits(), "the plan after a commit").rows)
                    .as("rows of a plan from the first plan's position after one commit: exactly that commit's")
                    .containsExactlyInAnyOrderElementsOf(added);
            assertThat(second.position())
                    .as("position of a plan that found new rows (it must move on from the "
                            + "position given, or the next plan finds the same rows again)")
                    .isNotNull()
                    .isNotEqualTo(first.position());

            assertNothingNew(
                    planner, second.position(), "the position of the plan after a commit, nothing committed since");

            ScanPlan again = plan(planner, first.position(), "a plan from the first plan's position again");
            assertThat(readAll(reader, again.splits(), "a plan from an older position again").rows)
                    .as("rows of a plan from the first plan's position again (the framework plans again from a "
                            + "position it holds: after dropping a plan made while an earlier one was taken, after a "
                            + "restore; a planner must not remember what it planned)")
                    .containsExactlyInAnyOrderElementsOf(added);
            assertThat(again.position())
                    .as("position of a plan from the first plan's position again (the same as "
                            + "the first time: planning is a function of the position and the table)")
                    .isEqualTo(second.position());
        }
    }

    /** A table empty when the read starts: every later commit is new to the read, and read once. */
    @Test
    void continuousReadOfAnEmptyTableMissesNoCommit(@TempDir Path dir) throws Exception {
        Map<String, String> options = continuousOptions();
        assumeTrue(options != null, "continuousOptions() is null: the source reads bounded only");
        KitTable table = new KitTable(dir);
        SourceContext context = table.context(options);
        ScanSourceFactory factory = sourceFactory();
        try (ScanPlanner planner = factory.createPlanner(context);
                ScanSplitReader reader = factory.createReader(context)) {
            ScanPlan first = plan(planner, null, "the first plan of a continuous read of an empty table");
            assertThat(readAll(reader, first.splits(), "the first plan of an empty table").rows)
                    .as("rows of the first plan of an empty table")
                    .isEmpty();
            ScanPlan idle = plan(planner, first.position(), "a plan of a still empty table");
            assertThat(readAll(reader, idle.splits(), "a plan of a still empty table").rows)
                    .as("rows of a plan of a still empty table")
                    .isEmpty();

            List<String> added = table.commit(2);
            ScanPlan next = plan(planner, idle.position(), "the plan after the empty table's first commit");
            assertThat(readAll(reader, next.splits(), "the plan after the first commit").rows)
                    .as(
                            "rows of the plan after the first commit to a table that was empty when the read started "
                                    + "(position given: %s). They are new to the read whatever the starting strategy; a planner "
                                    + "that returned a null position for the empty table is given null again, and must not then "
                                    + "start after the commits made since",
                            idle.position())
                    .containsExactlyInAnyOrderElementsOf(added);
            ScanPlan after = plan(planner, next.position(), "a plan after that, nothing committed since");
            assertThat(readAll(reader, after.splits(), "a plan with nothing committed since").rows)
                    .as("rows of a plan from the position after the first commit, nothing committed since")
                    .isEmpty();
        }
    }

    /**
     * A split opened at the position reached after any of its rows gives exactly the rows after
     * it, for every row of every split.
     */
    @Test
    void reopeningASplitAtAPositionYieldsExactlyTheRowsAfterIt(@TempDir Path dir) throws Exception {
        KitTable table = new KitTable(dir);
        table.commitAll(COMMITS);
        SourceContext context = table.context(boundedOptions());
        ScanSourceFactory factory = sourceFactory();
        List<PlannedSplit> splits = planBounded(factory, context);
        int largest = 0;
        try (ScanSplitReader reader = factory.createReader(context)) {
            for (PlannedSplit split : splits) {
                Read all;
                try (SplitRows rows = open(reader, split.payload(), 0, 0, split.toString())) {
                    all = drain(rows, split + " read from its start");
                }
                largest = Math.max(largest, all.rows.size());
                for (int k = 0; k < all.rows.size(); k++) {
                    long offset = all.offsets.get(k);
                    long skip = all.skips.get(k);
                    Read rest;
                    String at = split + ", reopened at the position reported after its row " + (k + 1) + " "
                            + all.positions();
                    try (SplitRows rows = open(reader, split.payload(), offset, skip, at)) {
                        rest = drain(rows, at);
                    }
                    assertThat(rest.rows)
                            .as(
                                    "rows of %s opened at (%s, %s), the position reported after its row %s "
                                            + "of %s (%s): the rows after that one, in the order of a read from the start %s%s",
                                    split.description(),
                                    offset,
                                    skip,
                                    k + 1,
                                    all.rows.size(),
                                    all.rows.get(k),
                                    all.positions(),
                                    rest.reuseNote())
                            .containsExactlyElementsOf(all.rows.subList(k + 1, all.rows.size()));
                }
            }
        }
        assumeTrue(
                largest > 1,
                "every split has at most one row: resuming inside a split was not checked (make the "
                        + "source plan a split of several rows, e.g. with a larger split size in boundedOptions())");
    }

    /**
     * Copies of the bytes of split payloads and positions work in planners and readers of a new
     * factory instance.
     */
    @Test
    void positionsAndSplitsWorkAsCopiedBytesInNewPlannersAndReaders(@TempDir Path dir) throws Exception {
        KitTable table = new KitTable(dir);
        List<String> committed = table.commitAll(COMMITS);
        SourceContext bounded = table.context(boundedOptions());
        List<PlannedSplit> copies = new ArrayList<>();
        for (PlannedSplit split : planBounded(sourceFactory(), bounded)) {
            copies.add(new PlannedSplit(split.description(), copy(split.payload())));
        }
        try (ScanSplitReader reader = sourceFactory().createReader(bounded)) {
            Read read = readAll(
                    reader,
                    copies,
                    "copies of the splits of a bounded read (new Payload(version, "
                            + "bytes.clone())), read by a reader of a new factory instance: nothing may depend on the identity of "
                            + "a payload or its array");
            assertThat(read.rows)
                    .as(
                            "rows of copies of the split payloads (new Payload(version, bytes.clone())), read "
                                    + "by a reader of a new factory instance%s",
                            read.reuseNote())
                    .containsExactlyInAnyOrderElementsOf(committed);
        }

        Map<String, String> options = continuousOptions();
        if (options == null) {
            return; // no continuous reads: no positions to carry over
        }
        SourceContext continuous = table.context(options);
        Payload position;
        try (ScanPlanner planner = sourceFactory().createPlanner(continuous)) {
            ScanPlan first = plan(planner, null, "the first plan of a continuous read");
            assertThat(first.position())
                    .as("position of the first plan of a table with commits")
                    .isNotNull();
            position = copy(first.position());
        }
        List<String> added = table.commit(2);
        try (ScanPlanner restored = sourceFactory().createPlanner(continuous);
                ScanSplitReader reader = sourceFactory().createReader(continuous)) {
            ScanPlan next = plan(
                    restored,
                    position,
                    "a new planner of a new factory instance, from a copy of the first "
                            + "plan's position (new Payload(version, bytes.clone())), as after a restore");
            List<PlannedSplit> nextCopies = new ArrayList<>();
            for (PlannedSplit split : next.splits()) {
                nextCopies.add(new PlannedSplit(split.description(), copy(split.payload())));
            }
            assertThat(readAll(
                                    reader,
                                    nextCopies,
                                    "copies of the splits a new planner planned from a copy of a "
                                            + "position, read by a new reader")
                            .rows)
                    .as("rows of a new planner's plan from a copy of the first plan's position (a restore), one commit "
                            + "made since: exactly that commit's")
                    .containsExactlyInAnyOrderElementsOf(added);
        }
    }

    /** One reader, many splits opened and closed in turn, some closed before their end. */
    @Test
    void oneReaderReadsManySplitsOpenedAndClosedInTurn(@TempDir Path dir) throws Exception {
        KitTable table = new KitTable(dir);
        List<String> committed = table.commitAll(COMMITS);
        SourceContext context = table.context(boundedOptions());
        List<PlannedSplit> splits = planBounded(sourceFactory(), context);
        try (ScanSplitReader reader = sourceFactory().createReader(context)) {
            for (int round = 1; round <= 3; round++) {
                for (PlannedSplit split : splits) {
                    // a reader is closed mid-split when its task is cancelled or its batch limit is reached
                    String what = split + " in round " + round + " of opening every split and closing it after "
                            + "its first row (a reader must take a new split whenever the previous one is closed, "
                            + "read to its end or not)";
                    try (SplitRows rows = open(reader, split.payload(), 0, 0, what)) {
                        next(rows, 0, what);
                    }
                }
            }
            assertThat(readAll(reader, splits, "every split after three rounds of splits closed after a row").rows)
                    .as("rows of every split read by a reader that has opened each split three times before, and "
                            + "closed it after its first row")
                    .containsExactlyInAnyOrderElementsOf(committed);
        }
        // the framework closes a subtask's reader and creates another: nothing shared may be gone
        try (ScanSplitReader reader = sourceFactory().createReader(context)) {
            assertThat(readAll(reader, splits, "every split, by a new reader after the first was closed").rows)
                    .as("rows read by a new reader after another reader was closed")
                    .containsExactlyInAnyOrderElementsOf(committed);
        }
    }

    /** {@link #invalidOptions()} fail {@code validate} with an exception naming an option. */
    @Test
    void rejectsInvalidOptions(@TempDir Path dir) throws Exception {
        Map<String, String> invalid = invalidOptions();
        assumeTrue(
                invalid != null,
                "invalidOptions() is null: the source has no read options to get wrong, nothing to check");
        KitTable table = new KitTable(dir);
        table.commit(1);
        SourceContext context = table.context(invalid);
        Throwable thrown = catchThrowable(() -> sourceFactory().validate(context));
        assertThat(thrown)
                .as("what validate() throws with the invalid options %s (nothing: it accepted them)", invalid)
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(invalid.keySet())
                .as(
                        "options named in the message '%s' (the SPI asks for the option and the value)",
                        thrown.getMessage())
                .anyMatch(key ->
                        thrown.getMessage() != null && thrown.getMessage().contains(key));
    }

    /** {@code tableRowType}, unless empty, is {@code id BIGINT, name STRING}. */
    @Test
    void tableRowTypeHasTheColumnsOfTheRows(@TempDir Path dir) throws Exception {
        KitTable table = new KitTable(dir);
        table.commit(1);
        Optional<RowType> type =
                sourceFactory().tableRowType(table.context(boundedOptions()).options());
        assertThat(type)
                .as("tableRowType() (empty when the target cannot tell, never null)")
                .isNotNull();
        assumeTrue(type.isPresent(), "tableRowType() is empty: the target cannot tell its tables' columns");
        RowType actual = type.get();
        assertThat(actual.getFieldNames())
                .as("column names of tableRowType() %s of a table of %s", actual, ROW_TYPE)
                .containsExactlyElementsOf(ROW_TYPE.getFieldNames());
        for (int i = 0; i < ROW_TYPE.getFieldCount(); i++) {
            // nullability aside: a target may keep a column NOT NULL, or drop the constraint
            assertThat(actual.getTypeAt(i).copy(true))
                    .as(
                            "type of column '%s' of tableRowType() %s",
                            ROW_TYPE.getFieldNames().get(i), actual)
                    .isEqualTo(ROW_TYPE.getTypeAt(i).copy(true));
        }
    }

    // ---------------------------------------------------------------- helpers

    /** The splits of the one plan of a bounded read, by a planner closed afterwards. */
    private static List<PlannedSplit> planBounded(ScanSourceFactory factory, SourceContext context) throws IOException {
        try (ScanPlanner planner = factory.createPlanner(context)) {
            return plan(planner, null, "the plan of a bounded read").splits();
        }
    }

    /** Plans; a failure is reported with what the kit was doing. */
    private static ScanPlan plan(ScanPlanner planner, @Nullable Payload position, String what) {
        ScanPlan plan;
        try {
            plan = planner.plan(position);
        } catch (IOException | RuntimeException e) {
            throw new AssertionError("plan(" + position + ") failed: " + e + "\n  (" + what + ")", e);
        }
        assertThat(plan).as("%s (from position %s)", what, position).isNotNull();
        return plan;
    }

    /** A plan from {@code position} has no splits and the same position. */
    private static void assertNothingNew(ScanPlanner planner, Payload position, String from) {
        ScanPlan plan = plan(planner, position, "a plan from " + from);
        assertThat(plan.splits())
                .as("splits of a plan from %s (nothing is new: no splits)", from)
                .isEmpty();
        assertThat(plan.position())
                .as(
                        "position of a plan from %s (nothing is new: a position equal to the one given, "
                                + "by Payload.equals, so the framework's checkpoints stay the same)",
                        from)
                .isEqualTo(position);
    }

    /** A payload that shares nothing with the given one but its version and the values of its bytes. */
    private static Payload copy(Payload payload) {
        return new Payload(payload.version(), payload.bytes().clone());
    }

    /** Opens a split; a failure is reported with what the kit was doing. */
    private static SplitRows open(ScanSplitReader reader, Payload payload, long offset, long skip, String what) {
        SplitRows rows;
        try {
            rows = reader.open(payload, offset, skip);
        } catch (IOException | RuntimeException e) {
            throw new AssertionError("open() at (" + offset + ", " + skip + ") failed: " + e + "\n  (" + what + ")", e);
        }
        assertThat(rows).as("open() at (%s, %s) of %s", offset, skip, what).isNotNull();
        return rows;
    }

    /** Every split read from its start with one reader, split after split, as one source subtask does. */
    private static Read readAll(ScanSplitReader reader, List<PlannedSplit> splits, String what) throws IOException {
        assertThat(splits).as("splits of %s", what).isNotNull().doesNotContainNull();
        Read all = new Read();
        for (PlannedSplit split : splits) {
            String which = split + " of " + what;
            try (SplitRows rows = open(reader, split.payload(), 0, 0, which)) {
                all.add(drain(rows, which));
            }
        }
        return all;
    }

    /** The rest of a split's rows, each copied at once, with the position after each. */
    private static Read drain(SplitRows rows, String what) {
        Read read = new Read();
        RowData previous = null;
        RowData row;
        while ((row = next(rows, read.rows.size(), what)) != null) {
            if (read.rows.size() == MAX_ROWS_PER_SPLIT) {
                fail("Read more than " + MAX_ROWS_PER_SPLIT + " rows of " + what
                        + ", a split of a table of a few rows: " + "next() does not return null at the end");
            }
            read.reusesRows |= row == previous;
            previous = row;
            // copied before the next call, which may change the object: as the framework copies
            read.rows.add(describe(row, what));
            read.offsets.add(rows.offset());
            read.skips.add(rows.recordsToSkip());
        }
        return read;
    }

    @Nullable
    private static RowData next(SplitRows rows, int read, String what) {
        try {
            return rows.next();
        } catch (IOException | RuntimeException e) {
            throw new AssertionError("next() failed after " + read + " rows: " + e + "\n  (" + what + ")", e);
        }
    }

    /** The row's kind and fields, e.g. {@code +I(7, "n7")}, or a failure if it is not of {@link #ROW_TYPE}. */
    private static String describe(RowData row, String what) {
        assertThat(row.getArity())
                .as("fields of a row of %s, whose row type is %s", what, ROW_TYPE)
                .isEqualTo(2);
        try {
            String id = row.isNullAt(0) ? "null" : String.valueOf(row.getLong(0));
            String name = row.isNullAt(1) ? "null" : '"' + row.getString(1).toString() + '"';
            return row.getRowKind().shortString() + "(" + id + ", " + name + ")";
        } catch (RuntimeException e) {
            throw new AssertionError("A row of " + what + " is not of " + ROW_TYPE + ": " + e, e);
        }
    }

    /** The kit's row of an id, as {@link #append} gets it. */
    private static RowData row(long id) {
        String name;
        switch ((int) (id % 4)) {
            case 0:
                name = "n" + id;
                break;
            case 1:
                name = "";
                break;
            case 2:
                name = "ünïcødé ✓ " + id;
                break;
            default:
                name = "with, a comma and a \"quote\" " + id;
        }
        return GenericRowData.of(id, StringData.fromString(name));
    }

    /** Rows read, in order, each with the position after it. */
    private static final class Read {
        final List<String> rows = new ArrayList<>();
        final List<Long> offsets = new ArrayList<>();
        final List<Long> skips = new ArrayList<>();
        boolean reusesRows;

        void add(Read other) {
            rows.addAll(other.rows);
            offsets.addAll(other.offsets);
            skips.addAll(other.skips);
            reusesRows |= other.reusesRows;
        }

        /** Says so when the reader reuses its row object: allowed, but worth knowing when rows differ. */
        String reuseNote() {
            return reusesRows
                    ? " (the reader returns one row object for several rows, which is allowed: the kit "
                            + "copied each row before asking for the next)"
                    : "";
        }

        String positions() {
            StringBuilder s = new StringBuilder("[");
            for (int i = 0; i < rows.size(); i++) {
                s.append(i == 0 ? "" : ", ")
                        .append(rows.get(i))
                        .append(" -> (")
                        .append(offsets.get(i))
                        .append(", ")
                        .append(skips.get(i))
                        .append(')');
            }
            return s.append(']').toString();
        }
    }

    /** The table of one check: its options, and the rows committed to it with ids counted up. */
    private final class KitTable {
        final Map<String, String> options;
        private long nextId = 1;

        KitTable(Path dir) throws Exception {
            Map<String, String> created = createTable(dir);
            assertThat(created).as("the options createTable() returns").isNotNull();
            this.options = Collections.unmodifiableMap(new LinkedHashMap<>(created));
        }

        /** Commits batches of the given sizes, one commit each; returns all their rows as the kit reads them. */
        List<String> commitAll(int... sizes) throws Exception {
            List<String> all = new ArrayList<>();
            for (int size : sizes) {
                all.addAll(commit(size));
            }
            return all;
        }

        /** Commits {@code size} new rows as one commit; returns them as the kit reads them. */
        List<String> commit(int size) throws Exception {
            List<RowData> rows = new ArrayList<>();
            List<String> described = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                RowData row = row(nextId++);
                rows.add(row);
                described.add(describe(row, "the kit"));
            }
            append(options, Collections.unmodifiableList(rows));
            return described;
        }

        /** The table's options with the read options on top. */
        SourceContext context(Map<String, String> readOptions) {
            Map<String, String> all = new LinkedHashMap<>(options);
            all.putAll(readOptions);
            return sourceContext(all);
        }
    }
}
