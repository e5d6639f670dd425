package io.sluice.plugin.hive.it;

import io.sluice.testservers.hdfs.HdfsServer;
import io.sluice.testservers.hive.StandaloneMetastore;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hive target on a remote metastore ({@link StandaloneMetastore}, Hive 3.1.3 in a JVM of its
 * own) with the table on HDFS ({@link HdfsServer}, a {@code MiniDFSCluster} in another JVM). The
 * metastore makes the database's, table's and partitions' directories with its own Hadoop (Hive's
 * class path has HDFS's client: it needs only the NameNode's URI, in the locations, and the client
 * settings of a one-DataNode cluster); the job writes the data and {@code _SUCCESS} files through
 * Flink's HDFS file system.
 *
 * <p>A partitioned Parquet table written in BATCH, one partition overwritten, then appended to in
 * STREAMING (files rolled and partitions committed at checkpoints) with the {@code
 * metastore,success-file} commit; read back bounded (whole and pruned) and by a streaming read that
 * picks up a partition added while it runs. Lookup joins against the latest partition and a whole
 * table of dimension tables on HDFS: the exact joined rows. Checked by Hive's own
 * metastore client (partitions and their locations on HDFS), by Hadoop's HDFS client of the test
 * class path (every file under the table, {@code _SUCCESS} in each partition, no hidden or
 * in-progress file left) and parquet-java (every row).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HiveRemoteMetastoreOnHdfsIT {

    private static final int BATCH_ROWS = 400;
    private static final int STREAM_ROWS = 240;

    @RegisterExtension
    @Order(1)
    static final HdfsServer HDFS = new HdfsServer();

    /** Started after HDFS; reaches it by the URIs of the locations alone. */
    @RegisterExtension
    @Order(2)
    static final StandaloneMetastore METASTORE =
            new StandaloneMetastore().withServerProperties(() -> HdfsServer.ONE_DATANODE_CLIENT_SETTINGS);

    @RegisterExtension
    @Order(3)
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    @BeforeAll
    static void pluginDir() {
        HivePluginDir.assumeIntegrationTestPhase();
    }

    private static void catalog(TableEnvironment tEnv) {
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'hive-conf-dir' = '" + METASTORE.hiveConfDir() + "')");
    }

    private static TableEnvironment streaming() {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "500 ms");
        conf.setString("parallelism.default", "2");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.newInstance()
                .inStreamingMode()
                .withConfiguration(conf)
                .build());
        catalog(tEnv);
        return tEnv;
    }

    /** First: it checks that every file on HDFS is its table's. */
    @Test
    @Order(1)
    void batchAndStreamingWritesWithPartitionCommitOnHdfs() throws Exception {
        String database = HDFS.uri() + "/lake/db.db";
        TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        batch.getConfig().set("parallelism.default", "2");
        catalog(batch);
        batch.executeSql("CREATE DATABASE h.db WITH ('hive.database.location-uri' = '" + database + "')");
        batch.executeSql("CREATE TABLE h.db.t (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt) WITH ("
                + "'hive.storage.file-format' = 'parquet', "
                + "'sink.partition-commit.policy.kind' = 'metastore,success-file')");
        batch.executeSql("CREATE TEMPORARY TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', "
                + "'number-of-rows' = '" + BATCH_ROWS + "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
                + "'fields.id.end' = '" + BATCH_ROWS + "')");
        batch.executeSql("INSERT INTO h.db.t SELECT id, CONCAT('n', CAST(id AS STRING)), "
                        + "CONCAT('b', CAST(id % 4 AS STRING)) FROM numbers")
                .await();
        batch.executeSql("INSERT OVERWRITE h.db.t PARTITION (dt = 'b0') VALUES (-1, 'x'), (-2, 'y')")
                .await();

        // STREAMING, paced over several checkpoints: each one rolls files and commits partitions
        TableEnvironment streaming = streaming();
        streaming.executeSql("CREATE TEMPORARY TABLE paced (id BIGINT) WITH ('connector' = 'datagen', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" + STREAM_ROWS
                + "', 'rows-per-second' = '60')");
        streaming
                .executeSql("INSERT INTO h.db.t SELECT id + 10000, CONCAT('s', CAST(id AS STRING)), "
                        + "CONCAT('s', CAST(id % 2 AS STRING)) FROM paced")
                .await(3, TimeUnit.MINUTES);

        List<String> partitions = List.of("dt=b0", "dt=b1", "dt=b2", "dt=b3", "dt=s0", "dt=s1");
        List<String> read = collect(batch, "SELECT id, name, dt FROM h.db.t");
        assertThat(read).hasSize(expected().size()).containsExactlyInAnyOrderElementsOf(expected());
        assertThat(collect(batch, "SELECT id, name, dt FROM h.db.t WHERE dt = 'b0'"))
                .containsExactlyInAnyOrder("-1|x|b0", "-2|y|b0");
        assertThat(collect(batch, "SELECT id, name, dt FROM h.db.t WHERE dt = 's1' AND id < 10006"))
                .containsExactlyInAnyOrder("10001|s1|s1", "10003|s3|s1", "10005|s5|s1");

        // Hive's own metastore client: the server's table and partitions, on HDFS
        try (MetastoreProbe probe = MetastoreProbe.of(batch.getCatalog("h").orElseThrow())) {
            assertThat(probe.table("db", "t").location()).isEqualTo(database + "/t");
            assertThat(probe.partitionNames("db", "t")).containsExactlyInAnyOrderElementsOf(partitions);
            for (String p : partitions) {
                assertThat(probe.partitionLocation("db", "t", p)).isEqualTo(database + "/t/" + p);
            }
        }

        // Hadoop's HDFS client of the test class path, not the plugin's; parquet-java reads the rows
        org.apache.hadoop.conf.Configuration hadoop = new org.apache.hadoop.conf.Configuration();
        org.apache.hadoop.fs.FileSystem hdfs = org.apache.hadoop.fs.FileSystem.get(URI.create(HDFS.uri()), hadoop);
        List<String> rows = new ArrayList<>();
        List<String> success = new ArrayList<>();
        int streamedFiles = 0;
        RemoteIterator<LocatedFileStatus> files = hdfs.listFiles(new org.apache.hadoop.fs.Path("/"), true);
        while (files.hasNext()) {
            org.apache.hadoop.fs.Path file = files.next().getPath();
            assertThat(file.toUri().getPath())
                    .as("every file on HDFS is in a partition of the table")
                    .startsWith("/lake/db.db/t/dt=");
            String partition = file.getParent().getName();
            assertThat(partitions).contains(partition);
            if (file.getName().equals("_SUCCESS")) {
                success.add(partition);
            } else {
                assertThat(file.getName())
                        .doesNotStartWith(".")
                        .doesNotStartWith("_")
                        .doesNotContain("inprogress");
                rows.addAll(parquetRows(file, hadoop, partition.substring("dt=".length())));
                if (partition.startsWith("dt=s")) {
                    streamedFiles++;
                }
            }
        }
        assertThat(success).containsExactlyInAnyOrderElementsOf(partitions);
        assertThat(rows).hasSize(expected().size()).containsExactlyInAnyOrderElementsOf(expected());
        // files rolled at checkpoints: more than one per writer subtask and partition (2 x 2)
        assertThat(streamedFiles).isGreaterThan(4);

        followsTheTable(batch, hdfs, hadoop);
    }

    /**
     * A streaming read of {@code h.db.t}: every row there, then those of a partition added while it
     * runs (found by listing the table's directory on HDFS); the new partition's rows and {@code
     * _SUCCESS} on HDFS.
     */
    private static void followsTheTable(
            TableEnvironment writer, org.apache.hadoop.fs.FileSystem hdfs, org.apache.hadoop.conf.Configuration hadoop)
            throws Exception {
        TableResult result = streaming()
                .executeSql("SELECT id, name, dt FROM h.db.t /*+ OPTIONS("
                        + "'streaming-source.enable' = 'true', 'streaming-source.monitor-interval' = '1 s', "
                        + "'streaming-source.consume-start-offset' = 'dt=b0') */");
        List<String> expected = expected();
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            while (rows.size() < expected.size()) {
                rows.add(row(it.next()));
            }
            assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
            writer.executeSql("INSERT INTO h.db.t VALUES (1000, 'late', 'z9'), (1001, 'later', 'z9')")
                    .await();
            List<String> late = new ArrayList<>();
            while (late.size() < 2) {
                late.add(row(it.next()));
            }
            assertThat(late).containsExactlyInAnyOrder("1000|late|z9", "1001|later|z9");
        } finally {
            result.getJobClient().orElseThrow().cancel().get(30, TimeUnit.SECONDS);
        }
        List<String> written = new ArrayList<>();
        boolean success = false;
        RemoteIterator<LocatedFileStatus> files =
                hdfs.listFiles(new org.apache.hadoop.fs.Path("/lake/db.db/t/dt=z9"), false);
        while (files.hasNext()) {
            org.apache.hadoop.fs.Path file = files.next().getPath();
            if (file.getName().equals("_SUCCESS")) {
                success = true;
            } else {
                written.addAll(parquetRows(file, hadoop, "z9"));
            }
        }
        assertThat(success).as("_SUCCESS in dt=z9").isTrue();
        assertThat(written).containsExactlyInAnyOrder("1000|late|z9", "1001|later|z9");
    }

    /**
     * Processing-time lookup joins of a bounded stream of orders (ids 1..30, key {@code id % 4})
     * against two dimension tables on HDFS: a partitioned one read as its latest partition (an
     * older partition has a key the latest lacks: its orders join nothing), and an unpartitioned
     * one read whole. After the test above, which checks that HDFS holds its table alone.
     */
    @Test
    @Order(2)
    void lookupJoinsOnDimensionTablesOnHdfs() throws Exception {
        String database = HDFS.uri() + "/dims/dims.db";
        TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        batch.getConfig().set("parallelism.default", "2");
        catalog(batch);
        batch.executeSql("CREATE DATABASE h.dims WITH ('hive.database.location-uri' = '" + database + "')");
        batch.executeSql("CREATE TABLE h.dims.by_day (k BIGINT, name STRING, dt STRING) PARTITIONED BY (dt) WITH ("
                + "'hive.storage.file-format' = 'parquet', 'sink.partition-commit.policy.kind' = 'metastore', "
                + "'streaming-source.enable' = 'true', 'streaming-source.partition.include' = 'latest', "
                + "'streaming-source.partition-order' = 'partition-name')");
        batch.executeSql("INSERT INTO h.dims.by_day VALUES (0, 'old-0', '2026-11-30'), (1, 'old-1', '2026-11-30'), "
                        + "(3, 'old-3', '2026-11-30')")
                .await();
        batch.executeSql("INSERT INTO h.dims.by_day VALUES (0, 'new-0', '2026-12-01'), (1, 'new-1', '2026-12-01'), "
                        + "(2, 'new-2', '2026-12-01')")
                .await();
        batch.executeSql("CREATE TABLE h.dims.whole (k BIGINT, name STRING) WITH ('hive.storage.file-format' = 'orc')");
        batch.executeSql("INSERT INTO h.dims.whole VALUES (1, 'w-1'), (2, 'w-2'), (3, 'w-3')")
                .await();
        org.apache.hadoop.fs.FileSystem hdfs =
                org.apache.hadoop.fs.FileSystem.get(URI.create(HDFS.uri()), new org.apache.hadoop.conf.Configuration());
        assertThat(hdfs.listStatus(new org.apache.hadoop.fs.Path("/dims/dims.db/by_day/dt=2026-12-01")))
                .isNotEmpty();
        assertThat(hdfs.listStatus(new org.apache.hadoop.fs.Path("/dims/dims.db/whole")))
                .isNotEmpty();

        TableEnvironment streaming = streaming();
        streaming.executeSql("CREATE TEMPORARY TABLE orders (id BIGINT, proc AS PROCTIME()) WITH ("
                + "'connector' = 'datagen', 'number-of-rows' = '30', 'fields.id.kind' = 'sequence', "
                + "'fields.id.start' = '1', 'fields.id.end' = '30')");
        List<String> latestPartition = collectPairs(
                streaming,
                "SELECT o.id, d.name FROM orders AS o JOIN h.dims.by_day FOR SYSTEM_TIME AS OF o.proc AS d"
                        + " ON d.k = o.id % 4");
        List<String> latestTable = collectPairs(
                streaming,
                "SELECT o.id, d.name FROM orders AS o JOIN h.dims.whole FOR SYSTEM_TIME AS OF o.proc AS d"
                        + " ON d.k = o.id % 4");

        List<String> expectedPartition = new ArrayList<>();
        List<String> expectedTable = new ArrayList<>();
        for (int id = 1; id <= 30; id++) {
            if (id % 4 != 3) {
                expectedPartition.add(id + "|new-" + id % 4);
            }
            if (id % 4 != 0) {
                expectedTable.add(id + "|w-" + id % 4);
            }
        }
        assertThat(latestPartition).containsExactlyInAnyOrderElementsOf(expectedPartition);
        assertThat(latestTable).containsExactlyInAnyOrderElementsOf(expectedTable);
    }

    private static List<String> expected() {
        List<String> rows = new ArrayList<>(List.of("-1|x|b0", "-2|y|b0"));
        for (int id = 1; id <= BATCH_ROWS; id++) {
            if (id % 4 != 0) {
                rows.add(id + "|n" + id + "|b" + id % 4);
            }
        }
        for (int id = 1; id <= STREAM_ROWS; id++) {
            rows.add((id + 10000) + "|s" + id + "|s" + id % 2);
        }
        return rows;
    }

    /** Every record of a Parquet file (Hive's: no partition column) as {@code id|name|dt}. */
    private static List<String> parquetRows(
            org.apache.hadoop.fs.Path file, org.apache.hadoop.conf.Configuration conf, String dt) throws Exception {
        List<String> rows = new ArrayList<>();
        try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(), file)
                .withConf(conf)
                .build()) {
            for (Group g = reader.read(); g != null; g = reader.read()) {
                rows.add(g.getLong("id", 0) + "|" + g.getString("name", 0) + "|" + dt);
            }
        }
        return rows;
    }

    private static List<String> collect(TableEnvironment tEnv, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(sql).collect()) {
            it.forEachRemaining(r -> rows.add(row(r)));
        }
        return rows;
    }

    private static List<String> collectPairs(TableEnvironment tEnv, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(sql).collect()) {
            it.forEachRemaining(r -> rows.add(r.getField(0) + "|" + r.getField(1)));
        }
        return rows;
    }

    private static String row(Row r) {
        return r.getField(0) + "|" + r.getField(1) + "|" + r.getField(2);
    }
}
