package io.sluice.plugin.hive.it;

import io.sluice.testservers.hdfs.HdfsServer;
import io.sluice.testservers.s3.FlinkS3FileSystem;
import io.sluice.testservers.s3.S3Request;
import io.sluice.testservers.s3.S3Server;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hive plugin on real storage: a database whose location is on an S3 API server (reached
 * through Flink's own {@code flink-s3-fs-hadoop}, loaded as a cluster loads its plugins; the
 * plugin's Hadoop, its embedded metastore included, goes through its bridge) or on HDFS (the
 * plugin's own Hadoop). A partitioned Parquet table written in BATCH with the {@code
 * metastore,success-file} commit, overwritten in one partition, read back bounded through Sluice,
 * and on S3 followed by a streaming read while a partition is added. Checked independently of the
 * plugin: the metastore's partitions and their locations, the {@code _SUCCESS} objects, every row
 * read by parquet-java from the bytes the AWS SDK (or Hadoop's HDFS client) fetched, no open
 * multipart upload, and no mutating request outside the database's location.
 */
class HiveObjectStoreIT {

    private static final String BUCKET = "hive-lake";
    private static final int ROWS = 400;

    @RegisterExtension
    static final S3Server S3 = S3Server.inMemory(BUCKET).withFlinkFileSystems(FlinkS3FileSystem.HADOOP);

    @RegisterExtension
    static final HdfsServer HDFS = new HdfsServer();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    @TempDir
    Path tmp;

    @BeforeAll
    static void pluginDir() {
        HivePluginDir.assumeIntegrationTestPhase();
    }

    private TableEnvironment batch(String metastoreName) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        catalog(tEnv, metastoreName);
        return tEnv;
    }

    private void catalog(TableEnvironment tEnv, String metastoreName) {
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + tmp.resolve(metastoreName) + "')");
    }

    @Test
    void aPartitionedTableOnS3() throws Exception {
        S3.traffic().clearRequests();
        String database = "s3a://" + BUCKET + "/lake/db.db";
        TableEnvironment tEnv = batch("s3-metastore");
        writeOverwriteAndRead(tEnv, database);

        String table = "lake/db.db/t/";
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.table("db", "t").location()).isEqualTo(database + "/t");
            assertThat(probe.partitionNames("db", "t")).containsExactlyInAnyOrder("dt=d0", "dt=d1", "dt=d2", "dt=d3");
            for (int d = 0; d < 4; d++) {
                assertThat(probe.partitionLocation("db", "t", "dt=d" + d)).isEqualTo(database + "/t/dt=d" + d);
            }
        }
        List<String> keys = S3.keys(BUCKET, table);
        for (int d = 0; d < 4; d++) {
            assertThat(keys).contains(table + "dt=d" + d + "/_SUCCESS");
        }
        assertThat(keys).noneMatch(k -> k.contains("/.") || k.contains("_tmp") || k.contains("inprogress"));
        Path copy = S3.download(BUCKET, table, tmp.resolve("copy"));
        List<String> rows = new ArrayList<>();
        for (int d = 0; d < 4; d++) {
            for (java.nio.file.Path file : ParquetFiles.dataFiles(copy.resolve("dt=d" + d))) {
                rows.addAll(parquetRows(new org.apache.hadoop.fs.Path(file.toUri()), "d" + d));
            }
        }
        assertThat(rows).hasSize(expected().size()).containsExactlyInAnyOrderElementsOf(expected());
        assertThat(S3.openUploads(BUCKET)).isEmpty();

        // the metastore made the database's and the table's directories (markers); everything else
        // the jobs and the metastore changed is under the table's location
        List<S3Request> outside = S3.traffic().requests().stream()
                .filter(r -> r.kind().mutates() && r.kind() != S3Request.Kind.DELETE_MULTIPLE)
                .filter(r -> !r.bucket().equals(BUCKET)
                        || !(r.key().startsWith(table) || r.key().equals("lake/db.db/")))
                .collect(Collectors.toList());
        assertThat(outside).isEmpty();

        // a streaming read follows the table: the partitions there, then one added while it runs
        followsTheTable(tEnv);
    }

    @Test
    void aPartitionedTableOnHdfs() throws Exception {
        String database = HDFS.uri() + "/lake/db.db";
        TableEnvironment tEnv = batch("hdfs-metastore");
        writeOverwriteAndRead(tEnv, database);

        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.table("db", "t").location()).isEqualTo(database + "/t");
            assertThat(probe.partitionNames("db", "t")).containsExactlyInAnyOrder("dt=d0", "dt=d1", "dt=d2", "dt=d3");
            for (int d = 0; d < 4; d++) {
                assertThat(probe.partitionLocation("db", "t", "dt=d" + d)).isEqualTo(database + "/t/dt=d" + d);
            }
        }
        // Hadoop's HDFS client of the test class path, not the plugin's
        org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
        org.apache.hadoop.fs.FileSystem hdfs = org.apache.hadoop.fs.FileSystem.get(URI.create(HDFS.uri()), conf);
        List<String> rows = new ArrayList<>();
        List<String> success = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> files = hdfs.listFiles(new org.apache.hadoop.fs.Path("/lake/db.db/t"), true);
        while (files.hasNext()) {
            org.apache.hadoop.fs.Path file = files.next().getPath();
            String name = file.getName();
            String partition = file.getParent().getName();
            assertThat(partition).matches("dt=d[0-3]");
            if (name.equals("_SUCCESS")) {
                success.add(partition);
            } else {
                assertThat(name).doesNotStartWith(".").doesNotStartWith("_");
                rows.addAll(parquetRows(file, partition.substring("dt=".length())));
            }
        }
        assertThat(success).containsExactlyInAnyOrder("dt=d0", "dt=d1", "dt=d2", "dt=d3");
        assertThat(rows).hasSize(expected().size()).containsExactlyInAnyOrderElementsOf(expected());
    }

    /**
     * {@code h.db.t} (Parquet, partitioned by {@code dt}) in a database at {@code location}: {@link
     * #ROWS} rows in four partitions, then partition {@code d0} overwritten with two rows; read back
     * through Sluice's scan source, whole and pruned.
     */
    private static void writeOverwriteAndRead(TableEnvironment tEnv, String location) throws Exception {
        tEnv.executeSql("CREATE DATABASE h.db WITH ('hive.database.location-uri' = '" + location + "')");
        tEnv.executeSql("CREATE TABLE h.db.t (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt) WITH ("
                + "'hive.storage.file-format' = 'parquet', "
                + "'sink.partition-commit.policy.kind' = 'metastore,success-file')");
        tEnv.executeSql("CREATE TEMPORARY TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', "
                + "'number-of-rows' = '" + ROWS + "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
                + "'fields.id.end' = '" + ROWS + "')");
        tEnv.executeSql("INSERT INTO h.db.t SELECT id, CONCAT('n', CAST(id AS STRING)), "
                        + "CONCAT('d', CAST(id % 4 AS STRING)) FROM numbers")
                .await();
        tEnv.executeSql("INSERT OVERWRITE h.db.t PARTITION (dt = 'd0') VALUES (-1, 'x'), (-2, 'y')")
                .await();

        List<String> read = collect(tEnv, "SELECT id, name, dt FROM h.db.t");
        assertThat(read).hasSize(expected().size()).containsExactlyInAnyOrderElementsOf(expected());
        assertThat(collect(tEnv, "SELECT name FROM h.db.t WHERE dt = 'd0'")).containsExactlyInAnyOrder("x", "y");
    }

    private static List<String> expected() {
        List<String> rows = new ArrayList<>(List.of("-1|x|d0", "-2|y|d0"));
        for (int id = 1; id <= ROWS; id++) {
            if (id % 4 != 0) {
                rows.add(id + "|n" + id + "|d" + id % 4);
            }
        }
        return rows;
    }

    /** A streaming read of {@code h.db.t}: every row there, then those of a partition added meanwhile. */
    private void followsTheTable(TableEnvironment writer) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "500 ms");
        conf.setString("parallelism.default", "1");
        TableEnvironment streaming = TableEnvironment.create(EnvironmentSettings.newInstance()
                .inStreamingMode()
                .withConfiguration(conf)
                .build());
        catalog(streaming, "s3-metastore");
        TableResult result = streaming.executeSql("SELECT id, name, dt FROM h.db.t /*+ OPTIONS("
                + "'streaming-source.enable' = 'true', 'streaming-source.monitor-interval' = '1 s', "
                + "'streaming-source.consume-start-offset' = 'dt=d0') */");
        List<String> expected = new ArrayList<>(expected());
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            while (rows.size() < expected.size()) {
                rows.add(row(it.next()));
            }
            assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
            writer.executeSql("INSERT INTO h.db.t VALUES (1000, 'late', 'd9'), (1001, 'later', 'd9')")
                    .await();
            List<String> late = new ArrayList<>();
            while (late.size() < 2) {
                late.add(row(it.next()));
            }
            assertThat(late).containsExactlyInAnyOrder("1000|late|d9", "1001|later|d9");
        } finally {
            result.getJobClient().orElseThrow().cancel().get(30, TimeUnit.SECONDS);
        }
        assertThat(S3.keys(BUCKET, "lake/db.db/t/dt=d9/")).contains("lake/db.db/t/dt=d9/_SUCCESS");
    }

    /** Every record of a Parquet file (Hive's: no partition column) as {@code id|name|dt}. */
    private static List<String> parquetRows(org.apache.hadoop.fs.Path file, String dt) throws Exception {
        List<String> rows = new ArrayList<>();
        try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(), file)
                .withConf(new org.apache.hadoop.conf.Configuration())
                .build()) {
            for (Group g = reader.read(); g != null; g = reader.read()) {
                rows.add(g.getLong("id", 0) + "|" + g.getString("name", 0) + "|" + dt);
            }
        }
        return rows;
    }

    private static String row(Row r) {
        return r.getField(0) + "|" + r.getField(1) + "|" + r.getField(2);
    }

    private static List<String> collect(TableEnvironment tEnv, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(sql).collect()) {
            it.forEachRemaining(r -> rows.add(r.getArity() == 1 ? String.valueOf(r.getField(0)) : row(r)));
        }
        return rows;
    }
}
