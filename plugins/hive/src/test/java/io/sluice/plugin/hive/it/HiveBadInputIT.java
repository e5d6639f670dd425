package io.sluice.plugin.hive.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bad input to the hive catalog and target: each statement fails with an error that names what is
 * wrong (the metastore URI, the directory, the table, the format, the column, the statement), and
 * a partition committed before it is left as it was: the same files (names, sizes, modification
 * times), the same rows read back by parquet-java, the same partitions in the metastore.
 */
class HiveBadInputIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    static Path tmp;

    private static TableEnvironment batch;
    private static Path metastore;
    private static Path committed;

    private Map<String, String> filesBefore;
    private List<String> rowsBefore;

    @BeforeAll
    static void aCommittedPartition() throws Exception {
        HivePluginDir.assumeIntegrationTestPhase();
        metastore = tmp.resolve("metastore");
        batch = TableEnvironment.create(
                EnvironmentSettings.newInstance().inBatchMode().build());
        batch.executeSql(createCatalog("h"));
        batch.executeSql("CREATE DATABASE h.db");
        batch.executeSql("CREATE TABLE h.db.t (id BIGINT, msg STRING, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('hive.storage.file-format' = 'parquet')");
        batch.executeSql("INSERT INTO h.db.t /*+ OPTIONS('sink.partition-commit.policy.kind' = 'metastore') */"
                        + " VALUES (1, 'one', 'a'), (2, 'two', 'a'), (3, 'three', 'a')")
                .await();
        committed = metastore.resolve("warehouse").resolve("db.db").resolve("t").resolve("dt=a");
    }

    private static String createCatalog(String name) {
        return "CREATE CATALOG " + name + " WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')";
    }

    @BeforeEach
    void snapshot() throws Exception {
        filesBefore = files(committed);
        rowsBefore = rows();
        assertThat(rowsBefore).containsExactlyInAnyOrder("1|one", "2|two", "3|three");
    }

    @AfterEach
    void committedDataUnchanged() throws Exception {
        assertThat(files(committed)).isEqualTo(filesBefore);
        assertThat(rows()).isEqualTo(rowsBefore);
        try (MetastoreProbe probe = MetastoreProbe.of(batch.getCatalog("h").orElseThrow())) {
            assertThat(probe.partitionNames("db", "t")).containsExactly("dt=a");
        }
    }

    @Test
    void anUnreachableMetastoreFailsQuicklyNamingItsUri() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort(); // closed again: nobody listens there
        }
        String uri = "thrift://127.0.0.1:" + port;
        Path conf = Files.createDirectories(tmp.resolve("unreachable-conf"));
        Files.writeString(
                conf.resolve("hive-site.xml"),
                "<?xml version=\"1.0\"?>\n<configuration>\n"
                        + "  <property><name>hive.metastore.uris</name><value>" + uri + "</value></property>\n"
                        + "</configuration>\n");
        long started = System.nanoTime();
        assertThatThrownBy(
                        () -> batch.executeSql("CREATE CATALOG unreachable WITH ('type' = 'sluice', 'target' = 'hive', "
                                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', 'hive-conf-dir' = '" + conf
                                + "')"))
                .satisfies(e -> assertThat(messages(e)).contains(uri).contains("metastore"));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    /** Checked as 'path' and 'warehouse' are: the table's files would land outside the warehouse. */
    @Test
    void aLocationWithDotDotSegmentsIsRefused() {
        String location = metastore.resolve("warehouse") + "/../../escaped";
        assertThatThrownBy(() -> batch.executeSql("CREATE TABLE h.db.escaping (id BIGINT, msg STRING) WITH ("
                        + "'hive.storage.file-format' = 'parquet', 'hive.location-uri' = '" + location + "')"))
                .satisfies(e -> assertThat(messages(e))
                        .contains("'hive.location-uri' '" + location + "'")
                        .contains("'..'"));
        assertThat(tmp.resolve("escaped")).doesNotExist();
        assertThat(batch.executeSql("SHOW TABLES IN h.db").collect())
                .toIterable()
                .extracting(r -> r.getField(0))
                .containsExactly("t");
        // nor moved there by ALTER TABLE: the committed table keeps its location and rows
        assertThatThrownBy(() -> batch.executeSql("ALTER TABLE h.db.t SET ('hive.location-uri' = '" + location + "')"))
                .satisfies(e -> assertThat(messages(e))
                        .contains("'hive.location-uri' '" + location + "'")
                        .contains("'..'"));
        assertThat(tmp.resolve("escaped")).doesNotExist();
    }

    @Test
    void aMetastoreDirWithDotDotSegmentsIsRefused() {
        String dir = tmp.resolve("ms") + "/../escaped-metastore";
        assertThatThrownBy(() -> batch.executeSql("CREATE CATALOG dotted WITH ('type' = 'sluice', 'target' = 'hive', "
                        + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                        + "'metastore' = 'embedded', 'metastore.dir' = '" + dir + "')"))
                .satisfies(e -> assertThat(messages(e))
                        .contains("'metastore.dir' '" + dir + "'")
                        .contains("'..'"));
        assertThat(tmp.resolve("escaped-metastore")).doesNotExist();
    }

    @Test
    void aMissingHiveConfDirIsNamed() {
        Path missing = tmp.resolve("no-such-conf-dir");
        assertThatThrownBy(() -> batch.executeSql("CREATE CATALOG missing WITH ('type' = 'sluice', 'target' = 'hive', "
                        + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', 'hive-conf-dir' = '" + missing + "')"))
                .satisfies(e -> assertThat(messages(e))
                        .contains("hive-conf-dir")
                        .contains(missing.toString())
                        .contains("does not exist"));
        assertThat(missing).doesNotExist();
    }

    @Test
    void aTableThatIsNotAHiveTableIsRefusedByName() {
        assertThatThrownBy(() -> batch.executeSql("CREATE TABLE h.db.files (id BIGINT, msg STRING) WITH ("
                        + "'connector' = 'filesystem', 'path' = '" + tmp.resolve("files") + "', 'format' = 'csv')"))
                .satisfies(e -> assertThat(messages(e))
                        .contains("db.files")
                        .contains("'connector' = 'filesystem'")
                        .contains("Hive tables only"));
        assertThat(batch.executeSql("SHOW TABLES IN h.db").collect())
                .toIterable()
                .extracting(r -> r.getField(0))
                .containsExactly("t");
    }

    @Test
    void aStorageFormatTheTargetDoesNotWriteIsNamed() throws Exception {
        batch.executeSql("CREATE TABLE h.db.avro_t (id BIGINT, msg STRING, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('hive.storage.file-format' = 'avro')");
        try {
            assertThatThrownBy(() -> batch.executeSql("INSERT INTO h.db.avro_t VALUES (4, 'four', 'a')")
                            .await())
                    .satisfies(e -> assertThat(messages(e))
                            .contains("db.avro_t")
                            .contains("AvroContainerInputFormat")
                            .contains("parquet"));
            assertThat(metastore.resolve("warehouse/db.db/avro_t")).satisfies(HiveBadInputIT::hasNoDataFiles);
        } finally {
            batch.executeSql("DROP TABLE h.db.avro_t");
        }
    }

    /**
     * A partition value that is not a time for the {@code partition-time} trigger ends the job,
     * registers nothing and leaves no file in the table, not even a hidden one (issue 31: the
     * files handed to the commit stayed as hidden in-progress files).
     */
    @Test
    void aPartitionValueThatIsNotATimeLeavesNoFileBehind() throws Exception {
        assertThatThrownBy(() -> batch.executeSql("INSERT INTO h.db.t /*+ OPTIONS("
                                + "'sink.partition-commit.policy.kind' = 'metastore', "
                                + "'sink.partition-commit.trigger' = 'partition-time', "
                                + "'partition.time-extractor.timestamp-formatter' = 'yyyy-MM-dd') */"
                                + " VALUES (4, 'four', 'not-a-date')")
                        .await())
                .satisfies(
                        e -> assertThat(messages(e)).contains("dt=not-a-date").contains("partition-time"));
        Path partition = committed.resolveSibling("dt=not-a-date");
        if (Files.exists(partition)) {
            try (Stream<Path> files = Files.walk(partition)) {
                assertThat(files.filter(Files::isRegularFile))
                        .as("files left in %s", partition)
                        .isEmpty();
            }
        }
    }

    @Test
    void anUnknownStorageFormatIsNamed() {
        assertThatThrownBy(() -> batch.executeSql("CREATE TABLE h.db.weird (id BIGINT, dt STRING) PARTITIONED BY (dt)"
                        + " WITH ('hive.storage.file-format' = 'no-such-format')"))
                .satisfies(e -> assertThat(messages(e)).contains("no-such-format"));
    }

    @Test
    void aPartitionColumnTypeTheTargetRefusesIsNamed() throws Exception {
        batch.executeSql("CREATE TABLE h.db.by_amount (id BIGINT, amount DECIMAL(10, 2)) PARTITIONED BY (amount)"
                + " WITH ('hive.storage.file-format' = 'parquet')");
        try {
            assertThatThrownBy(() -> batch.executeSql(
                                    "INSERT INTO h.db.by_amount VALUES (5, CAST(1.50 AS DECIMAL(10, 2)))")
                            .await())
                    .satisfies(e -> assertThat(messages(e)).contains("'amount'").contains("DECIMAL(10, 2)"));
            assertThat(metastore.resolve("warehouse/db.db/by_amount")).satisfies(HiveBadInputIT::hasNoDataFiles);
        } finally {
            batch.executeSql("DROP TABLE h.db.by_amount");
        }
    }

    @Test
    void insertOverwriteInStreamingIsRejectedBeforeTheJobStarts() {
        TableEnvironment streaming = TableEnvironment.create(
                EnvironmentSettings.newInstance().inStreamingMode().build());
        streaming.executeSql(createCatalog("hs"));
        // executeSql returns once the job is submitted: throwing means no job ever ran
        assertThatThrownBy(() -> streaming.executeSql("INSERT OVERWRITE hs.db.t VALUES (9, 'nine', 'a')"))
                .satisfies(e -> assertThat(messages(e)).contains("OVERWRITE").contains("BATCH"));
    }

    /** As upstream's Hive sink: its partitions would never reach the metastore. */
    @Test
    void aStreamingWriteIntoAPartitionedTableWithoutACommitPolicyIsRefusedBeforeTheJobStarts() {
        TableEnvironment streaming = TableEnvironment.create(
                EnvironmentSettings.newInstance().inStreamingMode().build());
        streaming.executeSql(createCatalog("hs"));
        for (String insert : List.of(
                "INSERT INTO hs.db.t VALUES (9, 'nine', 'zz')",
                "INSERT INTO hs.db.t /*+ OPTIONS('sink.partition-commit.policy.kind' = ' ') */ VALUES (9, 'nine', 'zz')")) {
            assertThatThrownBy(() -> streaming.executeSql(insert))
                    .as(insert)
                    .satisfies(e -> assertThat(messages(e))
                            .contains("Streaming write to partitioned Hive table db.t without a commit policy")
                            .contains("'sink.partition-commit.policy.kind'"));
        }
        assertThat(metastore.resolve("warehouse/db.db/t/dt=zz")).doesNotExist();
    }

    @Test
    void anUnknownMetastoreModeIsNamed() {
        assertThatThrownBy(() -> batch.executeSql("CREATE CATALOG bogus WITH ('type' = 'sluice', 'target' = 'hive', "
                        + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', 'metastore' = 'in-the-cloud')"))
                .satisfies(e -> assertThat(messages(e)).contains("metastore").contains("in-the-cloud"));
    }

    @Test
    void aPartitionColumnMissingFromTheQueryIsNamed() {
        assertThatThrownBy(() -> batch.executeSql("INSERT INTO h.db.t SELECT CAST(4 AS BIGINT), 'four'")
                        .await())
                .satisfies(e -> assertThat(messages(e)).contains("h.db.t").contains("dt"));
    }

    @Test
    void aStaticPartitionValueOfTheWrongTypeIsNamed() throws Exception {
        batch.executeSql("CREATE TABLE h.db.by_year (id BIGINT, yr INT) PARTITIONED BY (yr)"
                + " WITH ('hive.storage.file-format' = 'parquet')");
        try {
            assertThatThrownBy(() -> batch.executeSql(
                                    "INSERT INTO h.db.by_year PARTITION (yr = 'twenty') SELECT CAST(6 AS BIGINT)")
                            .await())
                    .satisfies(e -> assertThat(messages(e)).contains("yr").contains("twenty"));
            assertThat(metastore.resolve("warehouse/db.db/by_year")).satisfies(HiveBadInputIT::hasNoDataFiles);
        } finally {
            batch.executeSql("DROP TABLE h.db.by_year");
        }
    }

    @Test
    void anUnknownOptionIsNamed() {
        assertThatThrownBy(() -> batch.executeSql("INSERT INTO h.db.t /*+ OPTIONS('sink.no-such-option' = 'x') */"
                                + " VALUES (7, 'seven', 'a')")
                        .await())
                .satisfies(e -> assertThat(messages(e)).contains("sink.no-such-option"));
    }

    @Test
    void aSerDeThatDoesNotMatchTheStorageFormatIsNamed() throws Exception {
        batch.executeSql("CREATE TABLE h.db.mixed (id BIGINT, msg STRING, dt STRING) PARTITIONED BY (dt) WITH ("
                + "'hive.storage.file-format' = 'textfile',"
                + " 'hive.serde.lib.class.name' = 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe')");
        try {
            assertThatThrownBy(() -> batch.executeSql("INSERT INTO h.db.mixed VALUES (8, 'eight', 'a')")
                            .await())
                    .satisfies(e -> assertThat(messages(e)).contains("db.mixed").contains("ParquetHiveSerDe"));
            assertThat(metastore.resolve("warehouse/db.db/mixed")).satisfies(HiveBadInputIT::hasNoDataFiles);
        } finally {
            batch.executeSql("DROP TABLE h.db.mixed");
        }
    }

    /**
     * Two embedded metastores with different directories in one process, used in turn (an
     * operator's session with a catalog per environment): each keeps its own databases, tables and
     * rows, and the catalog this class started with still works after both.
     */
    @Test
    void twoEmbeddedMetastoresInOneProcessKeepTheirOwnTables() throws Exception {
        Path eastDir = tmp.resolve("east-metastore");
        Path westDir = tmp.resolve("west-metastore");
        TableEnvironment env = TableEnvironment.create(
                EnvironmentSettings.newInstance().inBatchMode().build());
        for (String[] c : new String[][] {{"east", eastDir.toString()}, {"west", westDir.toString()}}) {
            env.executeSql("CREATE CATALOG " + c[0] + " WITH ('type' = 'sluice', 'target' = 'hive', "
                    + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                    + "'metastore' = 'embedded', 'metastore.dir' = '" + c[1] + "')");
        }
        for (int round = 0; round < 2; round++) {
            for (String c : List.of("east", "west")) {
                if (round == 0) {
                    env.executeSql("CREATE DATABASE " + c + ".only_" + c);
                    env.executeSql(
                            "CREATE TABLE " + c + ".only_" + c + ".rows_of_" + c
                                    + " (id BIGINT, dt STRING) PARTITIONED BY (dt) WITH ('hive.storage.file-format' = 'parquet')");
                }
                env.executeSql("INSERT INTO " + c + ".only_" + c + ".rows_of_" + c + " /*+ OPTIONS("
                                + "'sink.partition-commit.policy.kind' = 'metastore') */ VALUES (" + round + ", '"
                                + c + "')")
                        .await();
            }
        }
        for (String c : List.of("east", "west")) {
            assertThat(env.getCatalog(c).orElseThrow().listDatabases())
                    .as(c)
                    .containsExactlyInAnyOrder("default", "only_" + c);
            assertThat(env.executeSql("SELECT id, dt FROM " + c + ".only_" + c + ".rows_of_" + c)
                            .collect())
                    .toIterable()
                    .extracting(Object::toString)
                    .as(c)
                    .containsExactlyInAnyOrder("+I[0, " + c + "]", "+I[1, " + c + "]");
        }
        assertThat(eastDir.resolve("warehouse/only_east.db/rows_of_east/dt=east"))
                .isDirectory();
        assertThat(westDir.resolve("warehouse/only_west.db/rows_of_west/dt=west"))
                .isDirectory();
        assertThat(batch.executeSql("SELECT id FROM h.db.t").collect())
                .toIterable()
                .hasSize(3);
    }

    private static void hasNoDataFiles(Path table) {
        if (!Files.exists(table)) {
            return;
        }
        try (Stream<Path> files = Files.walk(table)) {
            assertThat(files.filter(Files::isRegularFile)
                            .filter(f -> !f.getFileName().toString().startsWith(".")))
                    .isEmpty();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Every file of {@code dir} with its size and modification time. */
    private static Map<String, String> files(Path dir) throws Exception {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> list = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) list.filter(Files::isRegularFile)::iterator) {
                BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
                files.put(dir.relativize(f).toString(), a.size() + " " + a.lastModifiedTime());
            }
        }
        return files;
    }

    private static List<String> rows() throws Exception {
        List<String> rows = ParquetFiles.rows(committed, g -> g.getLong("id", 0) + "|" + g.getString("msg", 0));
        rows.sort(null);
        return rows;
    }

    /** The messages of the whole cause chain, one a line. */
    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getClass().getName())
                    .append(": ")
                    .append(t.getMessage())
                    .append('\n');
        }
        return all.toString();
    }
}
