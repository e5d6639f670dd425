package io.sluice.plugin.hive.it;

import io.sluice.testservers.hive.StandaloneMetastore;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The hive target on a remote metastore ({@link StandaloneMetastore}, Hive 3.1.3 in a JVM of its
 * own) with its tables on an S3 API server. The job's side reaches {@code s3a://} through Flink's
 * {@code flink-s3-fs-hadoop} (the plugin's bridge); the metastore makes and checks the database's,
 * tables' and partitions' directories with its own Hadoop, so it is given what a user gives it:
 * hadoop-aws and the AWS SDK on its class path, {@code fs.s3a.*} keys in its {@code hive-site.xml}.
 *
 * <p>A partitioned Parquet table written in BATCH and in STREAMING (checkpoints) with the {@code
 * metastore,success-file} commit, read back bounded and followed by a streaming read while a
 * partition is added, and tables at locations written {@code s3://} (the metastore's S3A mapped to
 * that scheme by {@code fs.s3.impl}); checked by Hive's own metastore client (partition locations), the {@code
 * _SUCCESS} objects, every row read by parquet-java from the bytes the AWS SDK fetched, no open
 * multipart upload, no mutating request outside the database. Lookup joins against the latest
 * partition and the latest table of dimension tables in the bucket: the exact joined rows.
 */
class HiveRemoteMetastoreOnS3IT {

    private static final String BUCKET = "hive-remote";
    private static final int BATCH_ROWS = 400;
    private static final int STREAM_ROWS = 300;

    @RegisterExtension
    @Order(1)
    static final S3Server S3 = S3Server.inMemory(BUCKET).withFlinkFileSystems(FlinkS3FileSystem.HADOOP);

    /** Started after the S3 server: its {@code fs.s3a.*} keys name the server's endpoint. */
    @RegisterExtension
    @Order(2)
    static final StandaloneMetastore METASTORE = new StandaloneMetastore()
            .withClassPathResource(StandaloneMetastore.S3A_CLASSPATH_RESOURCE)
            .withServerProperties(HiveRemoteMetastoreOnS3IT::metastoreS3a);

    @RegisterExtension
    @Order(3)
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    @TempDir
    Path tmp;

    /**
     * What the metastore's own Hadoop needs for the bucket: S3A's keys, as in a core-site.xml, and
     * S3A for locations written {@code s3://} (Hadoop maps no class to that scheme).
     */
    static Map<String, String> metastoreS3a() {
        Map<String, String> settings =
                new HashMap<>(StandaloneMetastore.s3aSettings(S3.endpoint(), S3Server.ACCESS_KEY, S3Server.SECRET_KEY));
        settings.put("fs.s3.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
        return settings;
    }

    @BeforeAll
    static void pluginDir() {
        HivePluginDir.assumeIntegrationTestPhase();
    }

    private static void catalog(TableEnvironment tEnv) {
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'hive-conf-dir' = '" + METASTORE.hiveConfDir() + "')");
    }

    private static TableEnvironment batch() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        catalog(tEnv);
        return tEnv;
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

    @Test
    void batchAndStreamingWritesAndReadsOnS3() throws Exception {
        S3.traffic().clearRequests();
        String database = "s3a://" + BUCKET + "/lake/db.db";
        TableEnvironment batch = batch();
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
        assertThat(collect(batch, "SELECT id, name, dt FROM h.db.t")).containsExactlyInAnyOrderElementsOf(expected());
        assertThat(collect(batch, "SELECT name FROM h.db.t WHERE dt = 's1' AND id < 10006"))
                .containsExactlyInAnyOrder("s1", "s3", "s5");

        // Hive's own metastore client: the server's partitions, in the bucket
        String table = "lake/db.db/t/";
        try (MetastoreProbe probe = MetastoreProbe.of(batch.getCatalog("h").orElseThrow())) {
            assertThat(probe.table("db", "t").location()).isEqualTo(database + "/t");
            assertThat(probe.partitionNames("db", "t")).containsExactlyInAnyOrderElementsOf(partitions);
            for (String p : partitions) {
                assertThat(probe.partitionLocation("db", "t", p)).isEqualTo(database + "/t/" + p);
            }
        }
        // the objects, fetched by the AWS SDK, read by parquet-java
        List<String> keys = S3.keys(BUCKET, table);
        for (String p : partitions) {
            assertThat(keys).contains(table + p + "/_SUCCESS");
        }
        assertThat(keys).noneMatch(k -> k.contains("/.") || k.contains("_tmp") || k.contains("inprogress"));
        Path copy = S3.download(BUCKET, table, tmp.resolve("copy"));
        List<String> rows = new ArrayList<>();
        int streamedFiles = 0;
        for (String p : partitions) {
            List<Path> files = ParquetFiles.dataFiles(copy.resolve(p));
            if (p.startsWith("dt=s")) {
                streamedFiles += files.size();
            }
            for (Path file : files) {
                rows.addAll(ParquetFiles.rowsOf(
                        file, g -> g.getLong("id", 0) + "|" + g.getString("name", 0) + "|" + p.substring(3)));
            }
        }
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected());
        // files rolled at checkpoints: more than one per writer subtask and partition (2 x 2)
        assertThat(streamedFiles).isGreaterThan(4);
        assertThat(S3.openUploads(BUCKET)).isEmpty();
        // the metastore made the database's and table's directories (through its S3A); all else
        // that changed, by the jobs or the metastore, is under the table
        List<S3Request> outside = S3.traffic().requests().stream()
                .filter(r -> r.kind().mutates() && r.kind() != S3Request.Kind.DELETE_MULTIPLE)
                .filter(r -> !r.bucket().equals(BUCKET)
                        || !(r.key().startsWith(table) || r.key().equals("lake/db.db/")))
                .collect(Collectors.toList());
        assertThat(outside).isEmpty();

        followsTheTable(batch);
    }

    /**
     * Locations written {@code s3://}, as many catalogs and the README's examples write them: the
     * metastore's S3A serves the scheme through {@code fs.s3.impl}, the job reaches it through
     * Flink's file system. A database and a table with its own {@code LOCATION} there, written in
     * BATCH with {@code metastore,success-file}, one partition overwritten; read back through SQL,
     * the server's locations (kept as {@code s3://}), every row by parquet-java from the bytes the
     * AWS SDK fetched, nothing changed outside the two locations.
     */
    @Test
    void tablesAtS3SchemeLocations() throws Exception {
        S3.traffic().clearRequests();
        String database = "s3://" + BUCKET + "/s3scheme/db.db";
        String location = "s3://" + BUCKET + "/s3scheme/located/t";
        TableEnvironment batch = batch();
        batch.executeSql("CREATE DATABASE h.s3db WITH ('hive.database.location-uri' = '" + database + "')");
        batch.executeSql("CREATE TABLE h.s3db.t (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt) WITH ("
                + "'hive.storage.file-format' = 'parquet', 'hive.location-uri' = '" + location + "', "
                + "'sink.partition-commit.policy.kind' = 'metastore,success-file')");
        batch.executeSql("CREATE TABLE h.s3db.plain (id BIGINT) WITH ('hive.storage.file-format' = 'parquet')");
        batch.executeSql("CREATE TEMPORARY TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', "
                + "'number-of-rows' = '60', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
                + "'fields.id.end' = '60')");
        batch.executeSql("INSERT INTO h.s3db.t SELECT id, CONCAT('n', CAST(id AS STRING)), "
                        + "CONCAT('b', CAST(id % 3 AS STRING)) FROM numbers")
                .await();
        batch.executeSql("INSERT OVERWRITE h.s3db.t PARTITION (dt = 'b0') VALUES (-1, 'x')")
                .await();
        batch.executeSql("INSERT INTO h.s3db.plain SELECT id FROM numbers WHERE id <= 5")
                .await();

        List<String> expected = new ArrayList<>(List.of("-1|x|b0"));
        for (int id = 1; id <= 60; id++) {
            if (id % 3 != 0) {
                expected.add(id + "|n" + id + "|b" + id % 3);
            }
        }
        assertThat(collect(batch, "SELECT id, name, dt FROM h.s3db.t")).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(collect(batch, "SELECT id FROM h.s3db.plain")).containsExactlyInAnyOrder("1", "2", "3", "4", "5");

        List<String> partitions = List.of("dt=b0", "dt=b1", "dt=b2");
        try (MetastoreProbe probe = MetastoreProbe.of(batch.getCatalog("h").orElseThrow())) {
            assertThat(probe.table("s3db", "t").location()).isEqualTo(location);
            assertThat(probe.table("s3db", "plain").location()).isEqualTo(database + "/plain");
            assertThat(probe.partitionNames("s3db", "t")).containsExactlyInAnyOrderElementsOf(partitions);
            for (String p : partitions) {
                assertThat(probe.partitionLocation("s3db", "t", p)).isEqualTo(location + "/" + p);
            }
        }
        String table = "s3scheme/located/t/";
        List<String> keys = S3.keys(BUCKET, table);
        for (String p : partitions) {
            assertThat(keys).contains(table + p + "/_SUCCESS");
        }
        assertThat(keys).noneMatch(k -> k.contains("/.") || k.contains("_tmp") || k.contains("inprogress"));
        Path copy = S3.download(BUCKET, table, tmp.resolve("copy-s3"));
        List<String> rows = new ArrayList<>();
        for (String p : partitions) {
            for (Path file : ParquetFiles.dataFiles(copy.resolve(p))) {
                rows.addAll(ParquetFiles.rowsOf(
                        file, g -> g.getLong("id", 0) + "|" + g.getString("name", 0) + "|" + p.substring(3)));
            }
        }
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
        List<Path> plainFiles =
                ParquetFiles.dataFiles(S3.download(BUCKET, "s3scheme/db.db/plain/", tmp.resolve("copy-plain")));
        List<String> plainRows = new ArrayList<>();
        for (Path file : plainFiles) {
            plainRows.addAll(ParquetFiles.rowsOf(file, g -> String.valueOf(g.getLong("id", 0))));
        }
        assertThat(plainRows).containsExactlyInAnyOrder("1", "2", "3", "4", "5");
        assertThat(S3.openUploads(BUCKET)).isEmpty();
        List<S3Request> outside = S3.traffic().requests().stream()
                .filter(r -> r.kind().mutates() && r.kind() != S3Request.Kind.DELETE_MULTIPLE)
                .filter(r -> !r.bucket().equals(BUCKET)
                        || !(r.key().startsWith(table)
                                || r.key().startsWith("s3scheme/db.db/")
                                || r.key().equals("s3scheme/located/")))
                .collect(Collectors.toList());
        assertThat(outside).isEmpty();
    }

    private static List<String> expected() {
        List<String> rows = new ArrayList<>();
        for (int id = 1; id <= BATCH_ROWS; id++) {
            rows.add(id + "|n" + id + "|b" + id % 4);
        }
        for (int id = 1; id <= STREAM_ROWS; id++) {
            rows.add((id + 10000) + "|s" + id + "|s" + id % 2);
        }
        return rows;
    }

    /** A streaming read of {@code h.db.t}: every row there, then those of a partition added meanwhile. */
    private void followsTheTable(TableEnvironment writer) throws Exception {
        TableEnvironment streaming = streaming();
        TableResult result = streaming.executeSql("SELECT id, name, dt FROM h.db.t /*+ OPTIONS("
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
        assertThat(S3.keys(BUCKET, "lake/db.db/t/dt=z9/")).contains("lake/db.db/t/dt=z9/_SUCCESS");
    }

    /**
     * Processing-time lookup joins of a bounded stream of orders (ids 1..30, key {@code id % 4})
     * against two dimension tables in the bucket: a partitioned one read as its latest partition
     * (an older partition has a key the latest lacks: its orders join nothing), and an
     * unpartitioned one read whole.
     */
    @Test
    void lookupJoinsOnDimensionTablesInTheBucket() throws Exception {
        String database = "s3a://" + BUCKET + "/dims/dims.db";
        TableEnvironment batch = batch();
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
        batch.executeSql(
                "CREATE TABLE h.dims.whole (k BIGINT, name STRING) WITH (" + "'hive.storage.file-format' = 'orc')");
        batch.executeSql("INSERT INTO h.dims.whole VALUES (1, 'w-1'), (2, 'w-2'), (3, 'w-3')")
                .await();
        assertThat(S3.keys(BUCKET, "dims/dims.db/by_day/dt=2026-12-01/")).isNotEmpty();
        assertThat(S3.keys(BUCKET, "dims/dims.db/whole/")).isNotEmpty();

        TableEnvironment streaming = streaming();
        streaming.executeSql("CREATE TEMPORARY TABLE orders (id BIGINT, proc AS PROCTIME()) WITH ("
                + "'connector' = 'datagen', 'number-of-rows' = '30', 'fields.id.kind' = 'sequence', "
                + "'fields.id.start' = '1', 'fields.id.end' = '30')");
        List<String> latestPartition = collect(
                streaming,
                "SELECT o.id, d.name FROM orders AS o JOIN h.dims.by_day FOR SYSTEM_TIME AS OF o.proc AS d"
                        + " ON d.k = o.id % 4");
        List<String> latestTable = collect(
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
        assertThat(S3.openUploads(BUCKET)).isEmpty();
    }

    /**
     * What a user sees without S3A in the metastore: the server cannot make (or check) the
     * database's directory in the bucket, refuses the database, and the bucket stays untouched.
     */
    @Test
    void aMetastoreWithoutS3aRefusesADatabaseInTheBucket() throws Exception {
        StandaloneMetastore plain = new StandaloneMetastore();
        plain.start();
        try {
            S3.traffic().clearRequests();
            TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
            tEnv.executeSql("CREATE CATALOG plain WITH ('type' = 'sluice', 'target' = 'hive', "
                    + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                    + "'hive-conf-dir' = '" + plain.hiveConfDir() + "')");
            assertThatThrownBy(() -> tEnv.executeSql("CREATE DATABASE plain.nos3a WITH ("
                            + "'hive.database.location-uri' = 's3a://" + BUCKET + "/nos3a/nos3a.db')"))
                    .hasStackTraceContaining("The Hive metastore at " + plain.uri()
                            + " cannot create database nos3a of hive catalog 'plain': its own Hadoop has no file"
                            + " system for the location")
                    .hasStackTraceContaining("S3AFileSystem not found")
                    .hasStackTraceContaining("hadoop-aws");
            // a table in the bucket, in a database in the metastore's own warehouse
            tEnv.executeSql("CREATE DATABASE plain.wh");
            assertThatThrownBy(() -> tEnv.executeSql("CREATE TABLE plain.wh.t (id BIGINT) WITH ("
                            + "'hive.location-uri' = 's3a://" + BUCKET + "/nos3a/t')"))
                    .hasStackTraceContaining("The Hive metastore at " + plain.uri()
                            + " cannot create table wh.t of hive catalog 'plain'")
                    .hasStackTraceContaining("fs.s3a.*");
            // s3:// is no scheme of Hadoop's own: the message says what maps it
            assertThatThrownBy(() -> tEnv.executeSql("CREATE DATABASE plain.nos3 WITH ("
                            + "'hive.database.location-uri' = 's3://" + BUCKET + "/nos3a/nos3.db')"))
                    .hasStackTraceContaining("cannot create database nos3 of hive catalog 'plain'")
                    .hasStackTraceContaining("No FileSystem for scheme")
                    .hasStackTraceContaining(
                            "for s3://: S3A as for s3a:// and fs.s3.impl = org.apache.hadoop.fs.s3a.S3AFileSystem");
            assertThat(S3.keys(BUCKET, "nos3a")).isEmpty();
            assertThat(S3.traffic().requests()).isEmpty();
        } finally {
            plain.stop();
        }
    }

    private static String row(Row r) {
        return r.getField(0) + "|" + r.getField(1) + "|" + r.getField(2);
    }

    private static List<String> collect(TableEnvironment tEnv, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(sql).collect()) {
            it.forEachRemaining(r -> rows.add(
                    r.getArity() == 1
                            ? String.valueOf(r.getField(0))
                            : r.getArity() == 2 ? r.getField(0) + "|" + r.getField(1) : row(r)));
        }
        return rows;
    }
}
