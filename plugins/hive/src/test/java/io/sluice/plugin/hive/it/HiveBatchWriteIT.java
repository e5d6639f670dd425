package io.sluice.plugin.hive.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code INSERT INTO} a partitioned Parquet Hive table of a hive catalog in BATCH mode: the
 * target writes part files into the metastore's partition locations (an existing partition's own
 * location included), the {@code metastore} commit policy adds the new partitions, and {@code
 * INSERT OVERWRITE} replaces the partitions it writes. Read back
 * with parquet-java and Hive's own metastore client.
 */
@Tag("both-lines")
class HiveBatchWriteIT {

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
        HivePluginDir.assumeIntegrationTestPhase();
    }

    @Test
    void insertIntoWritesParquetUnderThePartitionLocationsAndAddsThePartitions() throws Exception {
        Path metastore = tmp.resolve("metastore");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.sales");
        tEnv.executeSql("CREATE TABLE h.sales.orders (id BIGINT, name STRING, amount DOUBLE, dt STRING)"
                + " PARTITIONED BY (dt) WITH ('hive.storage.file-format' = 'parquet')");
        Path table = metastore.resolve("warehouse").resolve("sales.db").resolve("orders");
        // a partition the metastore already has, at a location of its own: its rows must go there
        Path custom = table.resolve("moved-2026-11-30");
        tEnv.executeSql("ALTER TABLE h.sales.orders ADD PARTITION (dt = '2026-11-30') WITH ('hive.location-uri' = '"
                + custom.toUri() + "')");

        tEnv.executeSql("INSERT INTO h.sales.orders /*+ OPTIONS('sink.partition-commit.policy.kind' = 'metastore') */"
                        + " VALUES (1, 'a', 1.5, '2026-12-01'), (2, 'b', 2.5, '2026-12-02'), (3, 'c', 3.5, '2026-12-01'),"
                        + " (4, 'd', 4.5, '2026-11-30'), (5, 'e', 5.5, CAST(NULL AS STRING))")
                .await();

        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.partitionNames("sales", "orders"))
                    .containsExactlyInAnyOrder(
                            "dt=2026-11-30", "dt=2026-12-01", "dt=2026-12-02", "dt=__HIVE_DEFAULT_PARTITION__");
            assertThat(location(probe, "dt=2026-11-30")).isEqualTo(custom);
            assertThat(location(probe, "dt=2026-12-01")).isEqualTo(table.resolve("dt=2026-12-01"));
            assertThat(location(probe, "dt=2026-12-02")).isEqualTo(table.resolve("dt=2026-12-02"));

            assertThat(rows(location(probe, "dt=2026-12-01"))).containsExactlyInAnyOrder("1|a|1.5", "3|c|3.5");
            assertThat(rows(location(probe, "dt=2026-12-02"))).containsExactly("2|b|2.5");
            assertThat(rows(custom)).containsExactly("4|d|4.5");
            assertThat(rows(location(probe, "dt=__HIVE_DEFAULT_PARTITION__"))).containsExactly("5|e|5.5");
            assertThat(table.resolve("dt=2026-11-30")).doesNotExist();
        }
        // Hive keeps partition values in directory names: the files hold the other columns only
        assertThat(ParquetFiles.columns(
                        ParquetFiles.dataFiles(table.resolve("dt=2026-12-01")).get(0)))
                .containsExactly("id", "name", "amount");

        // a second INSERT appends, and the policy finds the partition already there
        tEnv.executeSql("INSERT INTO h.sales.orders /*+ OPTIONS('sink.partition-commit.policy.kind' = 'metastore') */"
                        + " VALUES (6, 'f', 6.5, '2026-12-01')")
                .await();
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.partitionNames("sales", "orders")).hasSize(4);
            assertThat(rows(location(probe, "dt=2026-12-01")))
                    .containsExactlyInAnyOrder("1|a|1.5", "3|c|3.5", "6|f|6.5");
        }

        // INSERT OVERWRITE replaces the partitions it writes, dynamic or static, and no other
        tEnv.executeSql("INSERT OVERWRITE h.sales.orders VALUES (7, 'g', 7.5, '2026-12-01')")
                .await();
        tEnv.executeSql("INSERT OVERWRITE h.sales.orders PARTITION (dt = '2026-11-30') SELECT 8, 'h', 8.5")
                .await();
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(rows(location(probe, "dt=2026-12-01"))).containsExactly("7|g|7.5");
            assertThat(rows(custom)).containsExactly("8|h|8.5");
            assertThat(rows(location(probe, "dt=2026-12-02"))).containsExactly("2|b|2.5");
            assertThat(rows(location(probe, "dt=__HIVE_DEFAULT_PARTITION__"))).containsExactly("5|e|5.5");
        }

        // a partition outside the table's location is refused before anything is written there
        Path outside = tmp.resolve("outside");
        tEnv.executeSql("ALTER TABLE h.sales.orders ADD PARTITION (dt = 'elsewhere') WITH ('hive.location-uri' = '"
                + outside.toUri() + "')");
        assertThat(catchThrowable(() -> tEnv.executeSql("INSERT INTO h.sales.orders VALUES (9, 'i', 9.5, 'elsewhere')")
                        .await()))
                .hasStackTraceContaining("outside the table's location");
        assertThat(outside.toFile().list()).isNullOrEmpty();
    }

    @Test
    void anOrcTableIsWrittenWithOrcFiles() throws Exception {
        Path metastore = tmp.resolve("orc-metastore");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.sales");
        tEnv.executeSql("CREATE TABLE h.sales.orders (id BIGINT, name STRING, amount DOUBLE, dt STRING)"
                + " PARTITIONED BY (dt) WITH ('hive.storage.file-format' = 'orc')");
        // no policy named: a BATCH job runs upstream's Hive default, 'metastore,success-file'
        tEnv.executeSql("INSERT INTO h.sales.orders VALUES (1, 'a', 1.5, 'x'), (2, 'b', 2.5, 'y'), (3, 'c', 3.5, 'x')")
                .await();

        Path table = metastore.resolve("warehouse").resolve("sales.db").resolve("orders");
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.partitionNames("sales", "orders")).containsExactlyInAnyOrder("dt=x", "dt=y");
        }
        assertThat(orcRows(table.resolve("dt=x"))).containsExactlyInAnyOrder("1|a|1.5", "3|c|3.5");
        assertThat(orcRows(table.resolve("dt=y"))).containsExactly("2|b|2.5");
        assertThat(table.resolve("dt=x/_SUCCESS")).isRegularFile();
        assertThat(table.resolve("dt=y/_SUCCESS")).isRegularFile();

        // a policy named is taken as it is: '' runs none, so the new partition stays out of the metastore
        tEnv.executeSql("INSERT INTO h.sales.orders /*+ OPTIONS('sink.partition-commit.policy.kind' = '') */"
                        + " VALUES (4, 'd', 4.5, 'z')")
                .await();
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.partitionNames("sales", "orders")).containsExactlyInAnyOrder("dt=x", "dt=y");
        }
        assertThat(orcRows(table.resolve("dt=z"))).containsExactly("4|d|4.5");
        assertThat(table.resolve("dt=z/_SUCCESS")).doesNotExist();
    }

    /**
     * The page's static, dynamic and mixed partition inserts, with {@code
     * table.exec.hive.sink.sort-by-dynamic-partition.enable} at its default: the planner sorts by
     * the dynamic partition columns (locally, as upstream: no shuffle unless {@code
     * sink.shuffle-by-partition.enable}), and each writer closes a partition's file when the next
     * partition begins ({@code PartFilesTest} shows the closing); with the option off there is no sort.
     */
    @Test
    void theDynamicPartitionColumnsAreSortedBeforeTheWritersUnlessSwitchedOff() throws Exception {
        Path metastore = tmp.resolve("sorted-metastore");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("USE CATALOG h");
        tEnv.executeSql("CREATE DATABASE db");
        tEnv.executeSql("USE db");
        tEnv.executeSql("CREATE TABLE myparttable (name STRING, age INT, my_type STRING, my_date STRING)"
                + " PARTITIONED BY (my_type, my_date) WITH ('hive.storage.file-format' = 'parquet')");
        Path table = metastore.resolve("warehouse").resolve("db.db").resolve("myparttable");

        // the page's three statements, as written
        tEnv.executeSql(
                        "INSERT OVERWRITE myparttable PARTITION (my_type='type_1', my_date='2019-08-08') SELECT 'Tom', 25")
                .await();
        tEnv.executeSql("INSERT OVERWRITE myparttable SELECT 'Tom', 25, 'type_1', '2019-08-08'")
                .await();
        tEnv.executeSql("INSERT OVERWRITE myparttable PARTITION (my_type='type_1') SELECT 'Tom', 25, '2019-08-08'")
                .await();
        assertThat(people(table.resolve("my_type=type_1/my_date=2019-08-08"))).containsExactly("Tom|25");

        // the page's two unpartitioned statements, as written: INSERT INTO appends, INSERT OVERWRITE replaces
        tEnv.executeSql("CREATE TABLE mytable (name STRING, age INT) WITH ('hive.storage.file-format' = 'parquet')");
        Path mytable = metastore.resolve("warehouse").resolve("db.db").resolve("mytable");
        tEnv.executeSql("INSERT INTO mytable SELECT 'Tom', 25").await();
        tEnv.executeSql("INSERT INTO mytable SELECT 'Tom', 25").await();
        assertThat(people(mytable)).containsExactly("Tom|25", "Tom|25");
        tEnv.executeSql("INSERT OVERWRITE mytable SELECT 'Tom', 25").await();
        assertThat(people(mytable)).containsExactly("Tom|25");

        // 60 rows of 6 partitions, each partition's rows spread over the whole input
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            values.append(i == 0 ? "" : ", ")
                    .append("('p")
                    .append(i)
                    .append("', ")
                    .append(age(i))
                    .append(", 'type_")
                    .append(i % 2)
                    .append("', '2026-12-0")
                    .append(1 + i % 3)
                    .append("')");
        }
        String insert = "INSERT INTO myparttable SELECT * FROM (VALUES " + values + ") AS v(name, age, t, d)";
        assertThat(tEnv.explainSql(insert)).contains("Sort(orderBy=[t ASC, d ASC])");
        tEnv.executeSql(insert).await();
        for (int type = 0; type < 2; type++) {
            for (int day = 1; day <= 3; day++) {
                Path partition = table.resolve("my_type=type_" + type + "/my_date=2026-12-0" + day);
                java.util.List<String> expected = new java.util.ArrayList<>();
                for (int i = 0; i < 60; i++) {
                    if (i % 2 == type && 1 + i % 3 == day) {
                        expected.add("p" + i + "|" + age(i));
                    }
                }
                assertThat(people(partition)).containsExactlyInAnyOrderElementsOf(expected);
                // the writer closes a partition's file when the next partition begins: one file per
                // sorted run it gets (the planner's sort reached the writer here as up to two runs)
                assertThat(ParquetFiles.dataFiles(partition))
                        .as(partition.toString())
                        .hasSizeBetween(1, 2);
            }
        }

        tEnv.getConfig().set("table.exec.hive.sink.sort-by-dynamic-partition.enable", "false");
        String unsorted = insert.replace("'2026-12-0", "'2026-11-0");
        assertThat(tEnv.explainSql(unsorted)).doesNotContain("Sort(orderBy=[");
        tEnv.executeSql(unsorted).await();
        int files = 0;
        int rows = 0;
        for (int type = 0; type < 2; type++) {
            for (int day = 1; day <= 3; day++) {
                Path partition = table.resolve("my_type=type_" + type + "/my_date=2026-11-0" + day);
                files += ParquetFiles.dataFiles(partition).size();
                rows += people(partition).size();
            }
        }
        assertThat(rows).isEqualTo(60);
        assertThat(files).isBetween(6, 12);

        tEnv.getConfig().set("table.exec.hive.sink.sort-by-dynamic-partition.enable", "maybe");
        assertThat(catchThrowable(() -> tEnv.executeSql(insert).await()))
                .hasStackTraceContaining("table.exec.hive.sink.sort-by-dynamic-partition.enable")
                .hasStackTraceContaining("maybe");
    }

    /**
     * No column of the rows may be in order: the planner takes sorted VALUES as already ordered
     * and then sorts nothing, as it does for any input with an order of its own.
     */
    private static int age(int i) {
        return (i * 7) % 60;
    }

    private static List<String> people(Path dir) throws IOException {
        return ParquetFiles.rows(dir, g -> g.getString("name", 0) + "|" + g.getInteger("age", 0));
    }

    /** The rows of a directory's ORC files, read by ORC's own reader; the schema holds no partition column. */
    private static List<String> orcRows(Path dir) throws IOException {
        List<String> rows = new java.util.ArrayList<>();
        for (Path file : ParquetFiles.dataFiles(dir)) {
            try (org.apache.orc.Reader reader = org.apache.orc.OrcFile.createReader(
                    new org.apache.hadoop.fs.Path(file.toUri()),
                    org.apache.orc.OrcFile.readerOptions(new org.apache.hadoop.conf.Configuration()))) {
                assertThat(reader.getSchema().getFieldNames()).containsExactly("id", "name", "amount");
                org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch batch =
                        reader.getSchema().createRowBatch();
                try (org.apache.orc.RecordReader records = reader.rows()) {
                    while (records.nextBatch(batch)) {
                        org.apache.hadoop.hive.ql.exec.vector.LongColumnVector id =
                                (org.apache.hadoop.hive.ql.exec.vector.LongColumnVector) batch.cols[0];
                        org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector name =
                                (org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector) batch.cols[1];
                        org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector amount =
                                (org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector) batch.cols[2];
                        for (int r = 0; r < batch.size; r++) {
                            rows.add(id.vector[r] + "|" + name.toString(r) + "|" + amount.vector[r]);
                        }
                    }
                }
            }
        }
        return rows;
    }

    private static Path location(MetastoreProbe probe, String partition) throws Exception {
        return Paths.get(URI.create(probe.partitionLocation("sales", "orders", partition)));
    }

    private static List<String> rows(Path dir) throws IOException {
        return ParquetFiles.rows(
                dir, g -> g.getLong("id", 0) + "|" + g.getString("name", 0) + "|" + g.getDouble("amount", 0));
    }
}
