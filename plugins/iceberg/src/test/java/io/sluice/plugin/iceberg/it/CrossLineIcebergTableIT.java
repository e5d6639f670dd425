package io.sluice.plugin.iceberg.it;

import io.sluice.plugin.iceberg.IcebergTargetFactory;
import io.sluice.spi.Payload;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.RecordContext;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testkit.TestSinkContext;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table Sluice wrote on one Flink line takes Sluice's appends on the other (issue 33, item 5).
 * {@code src/test/resources/cross-line/<line>/iceberg/db/t} is a partitioned Iceberg table of a
 * Hadoop catalog written by Sluice on Flink {@code <line>}: two STREAMING SQL jobs with
 * checkpoints, rows 1-3 and 4-6, each row named after the line (written by {@link
 * #writeThisLinesTable}). The test copies the other line's table to a new location (its metadata
 * rewritten there by {@link RelocatedTable}), appends rows 11-13 with a job on this line, and reads
 * the table back with Iceberg's generic reader: the other line's rows and this line's, its two
 * snapshots unchanged and one more. The commit records the other line's sink left in the snapshot
 * summaries (job, sink, run and checkpoint) are what this line's committer goes by: handed the
 * other line's last commit again, as a restored job would, it commits nothing; a new run of that job
 * commits.
 *
 * <p>To write this line's table again: {@code mvn verify -pl plugins/iceberg
 * -Dit.test=CrossLineIcebergTableIT#writeThisLinesTable -Dsluice.cross-line.write=true} (with
 * {@code -Dflink2 -am} for Flink 2), then check the directory in.
 */
@Tag("both-lines")
class CrossLineIcebergTableIT {

    static final String WRITE_PROPERTY = "sluice.cross-line.write";

    private static final RowType ROW = RowType.of(
            new LogicalType[] {
                new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH), new VarCharType(VarCharType.MAX_LENGTH)
            },
            new String[] {"id", "name", "region"});

    /** A record without event time, written at processing time 0. */
    private static final RecordContext NO_TIME = new RecordContext() {
        @Override
        public long currentProcessingTime() {
            return 0;
        }

        @Override
        public long currentWatermark() {
            return Long.MIN_VALUE;
        }

        @Override
        public Long timestamp() {
            return null;
        }
    };

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    @Test
    void theOtherLinesTableTakesThisLinesAppendAndItsCommitRecordsHold() throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        Files.createDirectories(warehouse.resolve("db"));
        String writtenAt = RelocatedTable.copy(
                checkedInTable(otherLine()), warehouse.resolve("db").resolve("t"));
        assertThat(writtenAt).as("the checked-in table's own location").doesNotContain(tmp.toString());

        Table table = IcebergTables.load(warehouse, "db", "t");
        assertThat(table.location())
                .isEqualTo(RelocatedTable.location(warehouse.resolve("db").resolve("t")));
        List<Snapshot> before = IcebergTables.snapshots(table);
        assertThat(before).as("one snapshot per job").hasSize(2);
        for (Snapshot s : before) {
            assertThat(s.summary())
                    .containsKeys(
                            "flink.job-id",
                            "flink.operator-id",
                            "sluice.commit-epoch",
                            "flink.max-committed-checkpoint-id");
        }
        assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrderElementsOf(rows(otherLine(), 1, 6));

        TableEnvironment tEnv = streaming();
        tEnv.executeSql(sluiceTable(warehouse));
        String job = await(tEnv.executeSql("INSERT INTO t VALUES " + values(thisLine(), 11, 13)));

        List<String> expected = new ArrayList<>(rows(otherLine(), 1, 6));
        expected.addAll(rows(thisLine(), 11, 13));
        assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrderElementsOf(expected);
        List<Snapshot> after = IcebergTables.snapshots(table);
        assertThat(after).hasSize(3);
        for (int i = 0; i < before.size(); i++) {
            assertThat(after.get(i).snapshotId()).isEqualTo(before.get(i).snapshotId());
            assertThat(after.get(i).summary()).isEqualTo(before.get(i).summary());
        }
        Snapshot appended = after.get(2);
        assertThat(appended.parentId()).isEqualTo(before.get(1).snapshotId());
        assertThat(appended.summary())
                .containsEntry("flink.job-id", job)
                .containsEntry("added-records", "3")
                .containsKeys("flink.operator-id", "sluice.commit-epoch", "flink.max-committed-checkpoint-id");

        // the other line's last commit handed to this line's committer again, as a job restored
        // from before it would: its record in the summary says it is in, nothing is committed
        Map<String, String> last = before.get(1).summary();
        IcebergTargetFactory target = new IcebergTargetFactory();
        TestSinkContext context = context(warehouse, last.get("flink.job-id"));
        target.validate(context);
        List<Payload> pending;
        try (TargetWriter writer = target.createWriter(context, new ArrayList<>())) {
            writer.write(
                    GenericRowData.of(91L, StringData.fromString("replayed"), StringData.fromString("eu")), NO_TIME);
            pending = writer.prepareCommit(false).stream()
                    .map(PendingCommit::payload)
                    .collect(Collectors.toList());
        }
        try (TargetCommitter committer = target.createCommitter(context)) {
            committer.commit(CommitRequest.of(
                    last.get("flink.job-id"),
                    last.get("flink.operator-id"),
                    last.get("sluice.commit-epoch"),
                    Long.parseLong(last.get("flink.max-committed-checkpoint-id")),
                    pending));
            assertThat(IcebergTables.snapshots(table))
                    .as("nothing committed again")
                    .hasSize(3);
            assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrderElementsOf(expected);

            // a new run of the same job is not the one that committed: its checkpoint goes in
            committer.commit(CommitRequest.of(
                    last.get("flink.job-id"),
                    last.get("flink.operator-id"),
                    "a-later-run",
                    Long.parseLong(last.get("flink.max-committed-checkpoint-id")),
                    pending));
        }
        expected.add("91|replayed|eu");
        assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(IcebergTables.snapshots(table)).hasSize(4);
    }

    /**
     * Writes this line's table into {@code src/test/resources/cross-line/<line>/iceberg/db/t}
     * (replacing what is there), with {@code -Dsluice.cross-line.write=true}.
     */
    @Test
    @EnabledIfSystemProperty(named = WRITE_PROPERTY, matches = "true")
    void writeThisLinesTable() throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        TableEnvironment tEnv = streaming();
        tEnv.executeSql(sluiceTable(warehouse));
        await(tEnv.executeSql("INSERT INTO t VALUES " + values(thisLine(), 1, 3)));
        await(tEnv.executeSql("INSERT INTO t VALUES " + values(thisLine(), 4, 6)));
        Table table = IcebergTables.load(warehouse, "db", "t");
        assertThat(IcebergTables.snapshots(table)).hasSize(2);
        assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrderElementsOf(rows(thisLine(), 1, 6));

        Path from = warehouse.resolve("db").resolve("t");
        Path to = Paths.get("src", "test", "resources", "cross-line", thisLine(), "iceberg", "db", "t");
        deleteTree(to);
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                if (!f.getFileName().toString().endsWith(".crc")) { // Hadoop's local checksums
                    Files.createDirectories(to.resolve(from.relativize(f)).getParent());
                    Files.copy(f, to.resolve(from.relativize(f)));
                }
            }
        }
    }

    /** The line this build runs on ({@code sluice.test.flink.line}, from the pom): 1.20 or 2.1. */
    static String thisLine() {
        String line = System.getProperty("sluice.test.flink.line");
        if (line == null) {
            throw new IllegalStateException("System property sluice.test.flink.line is not set (run through Maven)");
        }
        return line;
    }

    static String otherLine() {
        return thisLine().equals("1.20") ? "2.1" : "1.20";
    }

    private static Path checkedInTable(String line) throws URISyntaxException {
        String resource = "cross-line/" + line + "/iceberg/db/t";
        URL url = CrossLineIcebergTableIT.class.getClassLoader().getResource(resource);
        if (url == null) {
            throw new IllegalStateException("No table written on Flink " + line + " at " + resource + ": run "
                    + "writeThisLinesTable on that line with -D" + WRITE_PROPERTY + "=true");
        }
        return Paths.get(url.toURI());
    }

    private static TableEnvironment streaming() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("parallelism.default", "2");
        // exactly-once with checkpoints; the rows are few, the end of input commits them
        tEnv.getConfig().set("execution.checkpointing.interval", "1 s");
        return tEnv;
    }

    private static String sluiceTable(Path warehouse) {
        return "CREATE TABLE t (id BIGINT, name STRING, region STRING) PARTITIONED BY (region) WITH ("
                + "'connector' = 'sluice', 'target' = 'iceberg', 'write-format' = 'parquet', "
                + "'sluice.plugins.dir' = '" + TestPluginsDir.get() + "', "
                // spelled as Hadoop spells it (file:/...), as the metadata's other locations are:
                // RelocatedTable rewrites one prefix
                + "'catalog-type' = 'hadoop', 'warehouse' = '" + RelocatedTable.location(warehouse) + "', "
                + "'catalog-database' = 'db', 'catalog-table' = 't')";
    }

    private static TestSinkContext context(Path warehouse, String jobId) {
        return TestSinkContext.builder(ROW)
                .jobId(jobId)
                .subtask(0, 1)
                .partitionKeys("region")
                .option("catalog-type", "hadoop")
                .option("warehouse", warehouse.toUri().toString())
                .option("catalog-database", "db")
                .option("catalog-table", "t")
                .build();
    }

    /** Rows {@code from..to} as written on {@code line}: {@code id|written on <line>|eu or us}. */
    private static List<String> rows(String line, int from, int to) {
        return IntStream.rangeClosed(from, to)
                .mapToObj(i -> i + "|written on " + line + "|" + region(i))
                .collect(Collectors.toList());
    }

    private static String values(String line, int from, int to) {
        return IntStream.rangeClosed(from, to)
                .mapToObj(i -> "(" + i + ", 'written on " + line + "', '" + region(i) + "')")
                .collect(Collectors.joining(", "));
    }

    private static String region(int i) {
        return i % 2 == 0 ? "us" : "eu";
    }

    private static String await(TableResult result) throws Exception {
        result.await();
        return result.getJobClient().orElseThrow().getJobID().toHexString();
    }

    private static void deleteTree(Path root) throws IOException {
        if (Files.exists(root)) {
            try (Stream<Path> all = Files.walk(root)) {
                for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                    Files.delete(p);
                }
            }
        }
    }
}
