package io.sluice.it;

import io.sluice.testservers.hive.StandaloneMetastore;
import io.sluice.testservers.s3.FlinkS3FileSystem;
import io.sluice.testservers.s3.S3Fault;
import io.sluice.testservers.s3.S3Request;
import io.sluice.testservers.s3.S3Server;

import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A TaskManager process killed at an exact moment of its conversation with S3: a standalone
 * cluster of separate processes, with Flink's own {@code flink-s3-fs-hadoop} in its plugins
 * directory and the S3 keys in its configuration (as an operator sets it up, README), runs a
 * STREAMING SQL job that writes the ids {@code 1..ROWS} into partitioned tables of one target on a
 * real S3 server. The server's proxy holds one request of the job and the test kills the
 * TaskManager running every task while that request waits:
 *
 * <ul>
 *   <li>{@link Moment#PERSIST}: a writer's persist of a CSV file at a checkpoint (the PUT of the
 *       unfinished tail, {@code _<name>_tmp_<uuid>}): the checkpoint never completes, and the
 *       request is dropped with its process.
 *   <li>{@link Moment#COMMIT}: the committer's completion of a Parquet file's multipart upload
 *       after a completed checkpoint.
 *   <li>{@link Moment#ICEBERG_UPLOAD}, {@link Moment#ICEBERG_COMMIT}: an Iceberg table of the
 *       {@code hive} catalog, its warehouse in the bucket: a writer's PUT of a data file at a
 *       checkpoint (dropped), the committer's PUT of the table's next metadata file.
 *   <li>{@link Moment#ICEBERG_MULTIPART}: the same table with rows of a wide random column and S3A
 *       parts of 5 MB: a writer's upload of a part of a data file larger than one part, after the
 *       first commit. The restored writers abort the uploads their dead predecessors began.
 *   <li>{@link Moment#HIVE_UPLOAD}, {@link Moment#HIVE_COMMIT}: a Hive table at an {@code s3a://}
 *       location, {@code metastore,success-file}: a writer's upload of a Parquet file's last part
 *       at a checkpoint (dropped), the committer's completion of a file's upload.
 * </ul>
 *
 * <p>For a commit the seed decides whether the server still receives the held request (it acts
 * for a client that is gone) or never does. A replacement TaskManager takes over, the job
 * restores from its last checkpoint and finishes; then every id is counted once in the committed
 * files (downloaded from the server, read by independent readers: parquet-java and plain text,
 * for Iceberg its own library at the metadata the metastore names, {@link IcebergClients}), every
 * partition has its {@code _SUCCESS} (and is in the metastore, for Hive), no multipart upload is
 * left open, no hidden object (a persisted last part of a file) is left, no Iceberg data file is
 * left that the table does not reference, and no request changed a key outside the run's tables.
 * Which request is held is drawn from the seed ({@code -Dsluice.campaign.seed}, printed).
 */
@Tag("standalone-cluster")
class KilledTaskManagerOnS3IT {

    private static final String BUCKET = "killed-lake";
    private static final int ROWS = 6000;
    private static final int ROWS_PER_SECOND = 400;
    private static final int PARTITIONS = 4;

    /**
     * S3A's part size in the cluster (its minimum): a file past it goes up as a multipart upload.
     * Only {@link Moment#ICEBERG_MULTIPART} writes files that large.
     */
    private static final String PART_SIZE = "5M";

    /**
     * {@link Moment#ICEBERG_MULTIPART}: the bytes of its random column per row, and its rows per
     * second; in one partition and with checkpoints {@link #WIDE_CHECKPOINT_MS} apart a writer's
     * file holds about 4 MB a second, two parts or more.
     */
    private static final int WIDE_BYTES = 8192;

    private static final int WIDE_ROWS_PER_SECOND = 1000;
    private static final long WIDE_CHECKPOINT_MS = 2500;

    /** Which request of the job the TaskManager dies in, and the target that job writes. */
    enum Moment {
        PERSIST(
                "filesystem",
                r -> r.kind() == S3Request.Kind.PUT
                        && r.key().contains("/c/")
                        && r.key().contains("_tmp_")),
        COMMIT(
                "filesystem",
                r -> r.kind() == S3Request.Kind.MULTIPART_COMPLETE && r.key().contains("/pq/")),
        /**
         * A writer's upload of a data file at a checkpoint: Iceberg closes its files there, and the
         * file system sends a small file as one PUT when it is closed (the server's traffic has no
         * multipart upload of the table at these sizes).
         */
        ICEBERG_UPLOAD(
                "iceberg",
                r -> r.kind() == S3Request.Kind.PUT
                        && r.key().contains("/data/")
                        && r.key().endsWith(".parquet")),
        /**
         * A writer's upload of a part of a data file larger than one part: the job's rows carry a
         * wide random column and the cluster's S3A sends anything past {@link #PART_SIZE} as a
         * multipart upload, so the writer dies with an upload it began and never completed.
         */
        ICEBERG_MULTIPART(
                "iceberg",
                r -> r.kind() == S3Request.Kind.UPLOAD_PART
                        && r.key().contains("/data/")
                        && r.key().endsWith(".parquet")),
        /** The committer's write of the table's next metadata file, before the metastore's swap. */
        ICEBERG_COMMIT(
                "iceberg",
                r -> r.kind() == S3Request.Kind.PUT
                        && r.key().contains("/metadata/")
                        && r.key().endsWith(".metadata.json")),
        /** A writer's upload of a Parquet file's last part at a checkpoint (Flink's recoverable writer). */
        HIVE_UPLOAD("hive", r -> r.kind() == S3Request.Kind.UPLOAD_PART),
        /** The committer's completion of a file's upload, which makes it visible in its partition. */
        HIVE_COMMIT("hive", r -> r.kind() == S3Request.Kind.MULTIPART_COMPLETE);

        final String target;
        final Predicate<S3Request> request;

        Moment(String target, Predicate<S3Request> request) {
            this.target = target;
            this.request = request;
        }

        /** Whether the held request can still reach the server after its client died (a seed decides). */
        boolean commits() {
            return this == COMMIT || this == ICEBERG_COMMIT || this == HIVE_COMMIT;
        }
    }

    @RegisterExtension
    @Order(1)
    static final S3Server S3 = S3Server.inMemory(BUCKET);

    /**
     * Hive's metastore as a process of its own, for the hive target's tables and the iceberg
     * target's {@code hive} catalog (the one a job on an object store may use: README, "Storage"),
     * with S3A and the bucket's keys (it makes the databases' and tables' directories) and the
     * transaction tables Iceberg's commit lock needs. Started after the S3 server: its settings name it.
     */
    @RegisterExtension
    @Order(2)
    static final StandaloneMetastore METASTORE = new StandaloneMetastore()
            .withClassPathResource(StandaloneMetastore.S3A_CLASSPATH_RESOURCE)
            .withServerProperties(
                    () -> StandaloneMetastore.s3aSettings(S3.endpoint(), S3Server.ACCESS_KEY, S3Server.SECRET_KEY))
            .withTransactionTables();

    private static Path work;
    private static StandaloneCluster cluster;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startCluster() throws Exception {
        work = Files.createTempDirectory(Paths.get("target").toAbsolutePath(), "killed-taskmanager-s3-");
        // Flink's S3 file system as a cluster has it: a folder of the cluster's plugins directory
        FlinkS3FileSystem.pluginsDirectory(work.resolve("flink-plugins"), FlinkS3FileSystem.HADOOP);
        Map<String, String> config = new TreeMap<>(S3.flinkConfig());
        // S3A's block output stream (the iceberg target writes its data files through it) begins a
        // multipart upload once a file passes one part; the other targets' files stay below
        config.put("s3.multipart.size", PART_SIZE);
        config.put("s3.multipart.threshold", PART_SIZE);
        // recovery settings and why: KilledTaskManagerIT
        config.put("restart-strategy.type", "fixed-delay");
        config.put("restart-strategy.fixed-delay.attempts", "5");
        config.put("restart-strategy.fixed-delay.delay", "1 s");
        config.put("heartbeat.interval", "1000");
        config.put("heartbeat.timeout", "10000");
        config.put("web.refresh-interval", "500");
        cluster = StandaloneCluster.start(
                TestDistribution.home(), work, TestDistribution.pluginsDir(), config, Duration.ofSeconds(60));
        // the client plans the job and checks each table's path: it needs the file system too, as
        // Flink's SQL client has it from the same plugins directory and configuration
        FlinkS3FileSystem.initialize(S3.flinkConfig(), FlinkS3FileSystem.HADOOP);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        S3.traffic().faults(S3Fault.Plan.NONE);
        FileSystem.initialize(new Configuration(), null);
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * Each moment with {@code sluice.campaign.kills} seeds from {@code sluice.campaign.seed} (1 in
     * CI); {@code -Dsluice.campaign.moments=ICEBERG_COMMIT,...} runs only those moments.
     */
    static Stream<Arguments> schedules() {
        long base = Long.getLong("sluice.campaign.seed", 20261206L);
        int kills = Integer.getInteger("sluice.campaign.kills", 1);
        String moments = System.getProperty("sluice.campaign.moments", "");
        return Stream.of(Moment.values())
                .filter(m -> moments.isEmpty() || List.of(moments.split(",")).contains(m.name()))
                .flatMap(m -> LongStream.range(base, base + kills).mapToObj(seed -> Arguments.of(m, seed)));
    }

    @ParameterizedTest(name = "{0}, seed {1}")
    @MethodSource("schedules")
    void everyRowOnceAndNoUploadLeftOpenAfterATaskManagerDiesInARequest(Moment moment, long seed) throws Throwable {
        try {
            runKillAndCheck(moment, seed);
        } catch (Throwable t) {
            t.addSuppressed(new AssertionError("Cluster logs:\n" + cluster.logTails()));
            throw t;
        } finally {
            S3.traffic().faults(S3Fault.Plan.NONE);
        }
    }

    private void runKillAndCheck(Moment moment, long seed) throws Exception {
        String prefix = moment.name().toLowerCase() + "-" + seed;
        Random random = new Random(seed);
        boolean wide = moment == Moment.ICEBERG_MULTIPART;
        long checkpointInterval = wide ? WIDE_CHECKPOINT_MS + random.nextInt(500) : 300 + random.nextInt(500);
        // a file spans parts only at a checkpoint's close: the first part after the armed fault
        int nth = wide ? 1 : 1 + random.nextInt(4);
        boolean serverGetsIt = moment.commits() && random.nextBoolean();
        System.out.printf(
                "%s seed %d: checkpoints every %d ms, the TaskManager dies in request %d of its kind, which the "
                        + "server %s%n",
                moment, seed, checkpointInterval, nth, serverGetsIt ? "still receives" : "never sees");

        S3.traffic().clearRequests();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.createRemoteEnvironment(
                cluster.host(), cluster.restPort(), new Configuration());
        env.setParallelism(2);
        env.enableCheckpointing(checkpointInterval);
        if (wide) {
            // closing files of several parts makes a checkpoint longer than the interval: without a
            // pause the next one's uploads, where the TaskManager dies, overlap the commit of the
            // last, and a commit killed under the metastore's table lock blocks the next for minutes
            env.getCheckpointConfig().setMinPauseBetweenCheckpoints(WIDE_CHECKPOINT_MS);
        }
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
        tEnv.executeSql("CREATE TABLE src (id BIGINT, pad BYTES) WITH ('connector' = 'datagen', "
                + "'number-of-rows' = '" + ROWS + "', 'rows-per-second' = '"
                + (wide ? WIDE_ROWS_PER_SECOND : ROWS_PER_SECOND) + "', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" + ROWS + "', "
                + "'fields.pad.length' = '" + (wide ? WIDE_BYTES : 1) + "')");
        // the wide rows in one partition: each writer's one file per checkpoint passes a part
        String select = "SELECT id, CONCAT('n', CAST(id AS STRING)), CONCAT('p', CAST(MOD(id, "
                + (wide ? 1 : PARTITIONS) + ") AS STRING))" + (wide ? ", pad" : "") + " FROM src";
        // a database per run, in the run's own prefix: Hive names are lower case, no '-'
        String database = prefix.replace('-', '_');
        TableResult result;
        switch (moment.target) {
            case "filesystem":
                result = writeFileSystemTables(tEnv, prefix, select);
                break;
            case "iceberg":
                tEnv.executeSql("CREATE TABLE ice (id BIGINT, name STRING, part STRING" + (wide ? ", pad BYTES" : "")
                        + ") PARTITIONED BY (part) WITH ("
                        + "'connector' = 'sluice', 'target' = 'iceberg', "
                        + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "', "
                        + "'catalog-type' = 'hive', 'uri' = '" + METASTORE.uri() + "', "
                        + "'warehouse' = 's3a://" + BUCKET + "/" + prefix + "/wh', "
                        + "'catalog-database' = '" + database + "', 'catalog-table' = 't')");
                result = tEnv.executeSql("INSERT INTO ice " + select);
                break;
            case "hive":
                tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                        + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "', "
                        + "'hive-conf-dir' = '" + METASTORE.hiveConfDir() + "')");
                tEnv.executeSql("CREATE DATABASE h." + database + " WITH ('hive.database.location-uri' = 's3a://"
                        + BUCKET + "/" + prefix + "/" + database + ".db')");
                tEnv.executeSql("CREATE TABLE h." + database + ".t (id BIGINT, name STRING, part STRING) "
                        + "PARTITIONED BY (part) WITH ('hive.storage.file-format' = 'parquet', "
                        + "'sink.partition-commit.policy.kind' = 'metastore,success-file')");
                result = tEnv.executeSql("INSERT INTO h." + database + ".t " + select);
                break;
            default:
                throw new IllegalArgumentException(moment.target);
        }
        JobID jobId =
                result.getJobClient().orElseThrow(IllegalStateException::new).getJobID();
        String job = "/jobs/" + jobId;

        // armed once a checkpoint has completed: the restore then has state to start from, and
        // the n-th request counts from a running job, not from its first, slower checkpoint
        awaitCompletedCheckpoint(job, Duration.ofSeconds(60));
        S3Fault.Gate gate = new S3Fault.Gate();
        S3.traffic()
                .faults(S3Fault.Plan.nth(
                        r -> r.key().startsWith(prefix + "/") && moment.request.test(r), nth, S3Fault.hold(gate)));

        S3Request held = gate.awaitArrival(Duration.ofSeconds(60));
        if (held == null) {
            gate.pass();
            fail("No " + moment + " request " + nth + " of the job within 60 s: "
                    + S3.traffic().countsByKind());
        }
        if (wide) {
            awaitFirstCommit(database);
        }
        Set<String> running = cluster.taskManagersOf(job);
        assertThat(running)
                .as("TaskManagers running the job: one runs every task")
                .hasSize(1);
        String victim = running.iterator().next();
        long checkpointsBeforeKill = cluster.get(job + "/checkpoints")
                .path("counts")
                .path("completed")
                .asLong();
        cluster.killTaskManager(victim);
        // the process is gone; now the held request reaches the server, or never does
        if (serverGetsIt) {
            gate.pass();
        } else {
            gate.drop();
        }
        String replacement = cluster.startTaskManager(Duration.ofSeconds(60));
        result.await(120, TimeUnit.SECONDS);
        S3.traffic().faults(S3Fault.Plan.NONE);

        JsonNode details = cluster.get(job);
        JsonNode checkpoints = cluster.get(job + "/checkpoints");
        System.out.printf(
                "%s seed %d: killed %s while it waited for %s, after %d completed checkpoints; %s finished the job; "
                        + "checkpoints %s; requests %s%n",
                moment,
                seed,
                victim,
                held,
                checkpointsBeforeKill,
                replacement,
                checkpoints.path("counts"),
                S3.traffic().countsByKind());
        if (wide) {
            // the server's log: the data files really went up in parts
            Map<S3Request.Kind, Long> dataRequests = S3.traffic().requests().stream()
                    .filter(r -> r.key().startsWith(prefix + "/") && r.key().contains("/data/"))
                    .collect(Collectors.groupingBy(S3Request::kind, TreeMap::new, Collectors.counting()));
            System.out.printf("%s seed %d: requests on data files %s%n", moment, seed, dataRequests);
            assertThat(dataRequests.getOrDefault(S3Request.Kind.MULTIPART_INIT, 0L))
                    .as("multipart uploads of data files begun")
                    .isPositive();
            assertThat(dataRequests.getOrDefault(S3Request.Kind.MULTIPART_COMPLETE, 0L))
                    .as("multipart uploads of data files completed")
                    .isPositive();
        }
        assertThat(details.path("state").asText()).isEqualTo("FINISHED");
        assertThat(checkpoints.path("counts").path("restored").asInt())
                .as("restores from a checkpoint")
                .isGreaterThanOrEqualTo(1);
        assertThat(cluster.taskManagersOf(job)).containsExactly(replacement);

        Path copy = S3.download(BUCKET, prefix + "/", tmp.resolve(prefix));
        List<String> partitions =
                IntStream.range(0, PARTITIONS).mapToObj(i -> "part=p" + i).collect(Collectors.toList());
        switch (moment.target) {
            case "filesystem":
                checkFileSystemTables(copy, partitions);
                break;
            case "iceberg":
                checkIcebergTable(prefix, database, copy);
                break;
            default:
                checkHiveTable(database, copy.resolve(database + ".db").resolve("t"), partitions);
        }

        List<String> open = S3.openUploads(BUCKET, prefix + "/");
        List<String> hidden = S3.keys(BUCKET, prefix + "/").stream()
                .filter(key -> key.substring(key.lastIndexOf('/') + 1).startsWith("_"))
                .filter(key -> !key.endsWith("/_SUCCESS"))
                .collect(Collectors.toList());
        System.out.printf(
                "%s seed %d: %d multipart uploads left open %s, %d hidden objects left %s%n",
                moment, seed, open.size(), open, hidden.size(), hidden);
        List<S3Request> outside = S3.traffic().requests().stream()
                .filter(r -> r.kind().mutates() && r.kind() != S3Request.Kind.DELETE_MULTIPLE)
                .filter(r -> !r.key().startsWith(prefix + "/"))
                .collect(Collectors.toList());
        assertThat(outside).as("requests that changed keys outside the tables").isEmpty();
        assertThat(open).as("multipart uploads left open").isEmpty();
        // the persisted last parts (FLINK-10963) of a persist whose checkpoint never completed
        // too: the restored writer removes those no restored state names
        assertThat(hidden).as("hidden objects left").isEmpty();
    }

    /**
     * Partitioned Parquet and CSV tables of the filesystem target: Parquet rolls at every
     * checkpoint (a commit completes uploads after each); CSV keeps its files open across
     * checkpoints (each checkpoint persists their unfinished tails).
     */
    private static TableResult writeFileSystemTables(StreamTableEnvironment tEnv, String prefix, String select) {
        String sluice = "'connector' = 'sluice', 'target' = 'filesystem', "
                + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "', "
                + "'sink.partition-commit.policy.kind' = 'success-file'";
        tEnv.executeSql("CREATE TABLE pq (id BIGINT, name STRING, part STRING) PARTITIONED BY (part) WITH (" + sluice
                + ", 'path' = 's3a://" + BUCKET + "/" + prefix + "/pq', 'format' = 'parquet')");
        tEnv.executeSql("CREATE TABLE c (id BIGINT, name STRING, part STRING) PARTITIONED BY (part) WITH (" + sluice
                + ", 'path' = 's3a://" + BUCKET + "/" + prefix + "/c', 'format' = 'csv')");
        StatementSet inserts = tEnv.createStatementSet();
        inserts.addInsertSql("INSERT INTO pq " + select);
        inserts.addInsertSql("INSERT INTO c " + select);
        return inserts.execute();
    }

    private static void checkFileSystemTables(Path copy, List<String> partitions) {
        Path parquet = copy.resolve("pq");
        Path csv = copy.resolve("c");
        RowIds.assertEachOnce("parquet", ROWS, CommittedFiles.parquet(parquet, g -> g.getLong("id", 0)));
        RowIds.assertEachOnce(
                "csv",
                ROWS,
                CommittedFiles.lines(csv).stream()
                        .map(l -> Long.parseLong(l.split(",")[0]))
                        .collect(Collectors.toList()));
        for (Path out : List.of(parquet, csv)) {
            assertThat(CommittedFiles.named(out, "_SUCCESS"))
                    .extracting(f -> f.getParent().getFileName().toString())
                    .as("success files of %s", out)
                    .containsExactlyInAnyOrderElementsOf(partitions);
        }
    }

    /**
     * The table at the metadata the metastore names, read by Iceberg's generic reader from what
     * the AWS SDK downloaded: every id once; every data file under the table's {@code data/} one
     * the table references (the table is only appended to: its current snapshot references every
     * file any snapshot added), so none of a failed attempt is left.
     */
    private static void checkIcebergTable(String prefix, String database, Path copy) throws Exception {
        String root = "s3a://" + BUCKET + "/";
        String table = prefix + "/wh/" + database + ".db/t/";
        try (IcebergClients iceberg = IcebergClients.fromPlugin(TestDistribution.pluginsDir())) {
            String metadata = iceberg.metadataLocation(METASTORE.uri(), database, "t");
            assertThat(metadata).startsWith(root + table + "metadata/");
            String local = copy.toUri().toString();
            IcebergClients.Table read = iceberg.table(metadata, location -> {
                assertThat(location).startsWith(root + prefix + "/");
                return local + location.substring((root + prefix + "/").length());
            });
            RowIds.assertEachOnce("iceberg", ROWS, read.longs("id"));
            Set<String> referenced = read.dataFiles();
            List<String> data = S3.keys(BUCKET, table + "data/").stream()
                    .filter(k -> !k.endsWith("/"))
                    .collect(Collectors.toList());
            List<String> unreferenced =
                    data.stream().filter(k -> !referenced.contains(root + k)).collect(Collectors.toList());
            System.out.printf(
                    "iceberg: %d snapshots, %d data files, %d unreferenced %s%n",
                    read.snapshots(), data.size(), unreferenced.size(), unreferenced);
            assertThat(referenced).as("data files of the table").isNotEmpty();
            assertThat(unreferenced).as("data files no snapshot references").isEmpty();
            assertThat(S3.keys(BUCKET, table))
                    .as("every object of the table under its data/ or metadata/")
                    .allMatch(
                            k -> k.equals(table) || k.startsWith(table + "data/") || k.startsWith(table + "metadata/"));
        }
    }

    /**
     * The hive table's Parquet files read by parquet-java from what the AWS SDK downloaded: every
     * id once; every partition in the metastore (Hive's own client) and with its {@code _SUCCESS}.
     */
    private static void checkHiveTable(String database, Path table, List<String> partitions) throws Exception {
        RowIds.assertEachOnce("hive", ROWS, CommittedFiles.parquet(table, g -> g.getLong("id", 0)));
        assertThat(CommittedFiles.named(table, "_SUCCESS"))
                .extracting(f -> f.getParent().getFileName().toString())
                .as("success files of the hive table")
                .containsExactlyInAnyOrderElementsOf(partitions);
        try (IcebergClients clients = IcebergClients.fromPlugin(TestDistribution.pluginsDir())) {
            assertThat(clients.partitionNames(METASTORE.uri(), database, "t"))
                    .as("partitions in the metastore")
                    .containsExactlyElementsOf(partitions);
        }
    }

    /**
     * Until the metastore names the table's first committed metadata, and a moment more: the
     * committer of the first checkpoint commits while the writers close the next checkpoint's
     * files (large ones are slow), and a TaskManager killed under the metastore's table lock leaves
     * it held for minutes, which is not this moment's failure.
     */
    private static void awaitFirstCommit(String database) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        try (IcebergClients iceberg = IcebergClients.fromPlugin(TestDistribution.pluginsDir())) {
            while (System.nanoTime() < deadline) {
                String metadata;
                try {
                    metadata = iceberg.metadataLocation(METASTORE.uri(), database, "t");
                } catch (Exception notYet) {
                    metadata = null;
                }
                if (metadata != null
                        && !metadata.substring(metadata.lastIndexOf('/') + 1).startsWith("00000-")) {
                    Thread.sleep(1000);
                    return;
                }
                Thread.sleep(200);
            }
        }
        fail("The table has no commit within 60 s");
    }

    private static void awaitCompletedCheckpoint(String job, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode details = cluster.get(job);
            String state = details.path("state").asText();
            if (state.equals("FINISHED") || state.equals("FAILED") || state.equals("CANCELED")) {
                fail("Job is " + state + " before its first checkpoint completed");
            }
            if (cluster.get(job + "/checkpoints")
                            .path("counts")
                            .path("completed")
                            .asLong()
                    > 0) {
                return;
            }
            Thread.sleep(100);
        }
        fail("No completed checkpoint within " + timeout);
    }
}
