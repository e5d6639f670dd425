package io.sluice.plugin.iceberg.it;

import io.sluice.hadoopbridge.ObjectStores;
import io.sluice.testservers.s3.FlinkS3FileSystem;
import io.sluice.testservers.s3.S3Request;
import io.sluice.testservers.s3.S3Server;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Iceberg's own {@code S3FileIO} ({@code 'io-impl' = 'org.apache.iceberg.aws.s3.S3FileIO'}, the AWS
 * SDK v2 bundled in the plugin) on a real S3 API server, with the credentials from each place a
 * user has them: the catalog's options ({@code s3.access-key-id}, {@code s3.secret-access-key}, on
 * a {@code hive} catalog), the AWS default credential chain ({@code aws.accessKeyId} and {@code
 * aws.secretAccessKey} system properties, no key in any option), and a REST catalog that vends them
 * with each table ({@code s3.access-key-id}, {@code s3.secret-access-key}, {@code s3.session-token}
 * in the load-table response's {@code config}; no key in any option).
 *
 * <p>Each writes through SQL in BATCH (appends, {@code INSERT OVERWRITE}, an upsert table) and
 * STREAMING (an append committed by checkpoints), and reads back. Checked independently of the
 * plugin: every request on a table's data files came from {@code S3FileIO} (its {@code
 * s3fileio/} user agent of the AWS SDK v2) signed with the expected key (and the vended session
 * token), and the rows are read by Iceberg's generic reader and parquet-java from the bytes the AWS
 * SDK v1 fetched. The vended secret and token appear in no log line, {@code EXPLAIN} or the job's
 * configuration and plan as Flink's REST API shows them.
 */
class IcebergS3FileIOIT {

    private static final String BUCKET = "s3fileio-lake";
    private static final int ROWS = 300;
    private static final String S3_FILE_IO = "org.apache.iceberg.aws.s3.S3FileIO";
    /** The session token the REST catalog vends: S3Proxy ignores it, the test finds it on every request. */
    private static final String VENDED_TOKEN = "sentinel-vended-session-token-4e1d";

    @RegisterExtension
    static final S3Server S3 = S3Server.inMemory(BUCKET).withFlinkFileSystems(FlinkS3FileSystem.HADOOP);

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    static Path tmp;

    private static HiveMetastoreServer metastore;
    private static VendingRestCatalogServer rest;

    private final StringWriter log = new StringWriter();
    private Appender appender;

    @BeforeAll
    static void servers() throws Exception {
        TestPluginsDir.assumeIntegrationTestPhase();
        // S3Proxy, like several S3-compatible stores, rejects the AWS SDK's default flexible
        // checksums (x-amz-checksum-crc32 on every upload, since SDK 2.30): the SDK's own switch,
        // as AWS_REQUEST_CHECKSUM_CALCULATION in a cluster's environment; Iceberg has no property
        System.setProperty("aws.requestChecksumCalculation", "when_required");
        System.setProperty("aws.responseChecksumValidation", "when_required");
        // the metastore creates the databases' and tables' directories with its own Hadoop: through
        // Flink's S3 file system here (the plugin writes every table file with S3FileIO)
        ObjectStores.routeThroughFlinkByDefault();
        metastore = HiveMetastoreServer.start(tmp.resolve("hive-warehouse"));
        // the REST service's own catalog: its metadata on S3 through S3FileIO with the service's keys
        InMemoryCatalog backing = new InMemoryCatalog();
        Map<String, String> backingProperties = new HashMap<>(s3FileIoProperties());
        backingProperties.put("s3.access-key-id", S3Server.ACCESS_KEY);
        backingProperties.put("s3.secret-access-key", S3Server.SECRET_KEY);
        backingProperties.put("http-client.type", "urlconnection");
        backingProperties.put("s3.client-factory-impl", "org.apache.iceberg.aws.s3.DefaultS3FileIOAwsClientFactory");
        backingProperties.put(CatalogProperties.WAREHOUSE_LOCATION, "s3://" + BUCKET + "/rest-wh");
        backing.initialize("vending", backingProperties);
        rest = VendingRestCatalogServer.start(
                backing,
                Map.of(
                        "s3.access-key-id", S3Server.ACCESS_KEY,
                        "s3.secret-access-key", S3Server.SECRET_KEY,
                        "s3.session-token", VENDED_TOKEN));
    }

    @AfterAll
    static void stop() throws Exception {
        System.clearProperty("aws.requestChecksumCalculation");
        System.clearProperty("aws.responseChecksumValidation");
        if (rest != null) {
            rest.close();
        }
        if (metastore != null) {
            metastore.close();
        }
    }

    @BeforeEach
    void captureLog() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        appender = WriterAppender.newBuilder()
                .setName("s3fileio-" + System.nanoTime())
                .setTarget(log)
                .setLayout(PatternLayout.newBuilder()
                        .withPattern("%-5p %c - %m%n%throwable")
                        .build())
                .build();
        appender.start();
        context.getConfiguration().getRootLogger().addAppender(appender, null, null);
        context.updateLoggers();
    }

    @AfterEach
    void stopCapture() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        context.getConfiguration().getRootLogger().removeAppender(appender.getName());
        context.updateLoggers();
        appender.stop();
    }

    /** S3FileIO's settings for the test server, without credentials. */
    private static Map<String, String> s3FileIoProperties() {
        return Map.of(
                CatalogProperties.FILE_IO_IMPL,
                S3_FILE_IO,
                "s3.endpoint",
                S3.endpoint(),
                "s3.path-style-access",
                "true",
                "client.region",
                "us-east-1",
                // S3Proxy, like several S3-compatible stores, takes neither the SDK's trailing
                // checksums nor its aws-chunked uploads over http: Content-MD5 as before SDK 2.30,
                // and the whole payload signed
                "client.legacy-md5-plugin-enabled",
                "true",
                "s3.chunked-encoding-enabled",
                "false");
    }

    private static String s3FileIoOptions() {
        return s3FileIoProperties().entrySet().stream()
                .map(e -> "'" + e.getKey() + "' = '" + e.getValue() + "'")
                .collect(Collectors.joining(", "));
    }

    private static TableEnvironment environment(EnvironmentSettings settings) {
        TableEnvironment tEnv = TableEnvironment.create(settings);
        tEnv.getConfig().set("parallelism.default", "2");
        return tEnv;
    }

    private static void createCatalog(TableEnvironment tEnv, String name, String options) {
        tEnv.executeSql("CREATE CATALOG " + name + " WITH ('type' = 'sluice', 'target' = 'iceberg', "
                + "'sluice.plugins.dir' = '" + TestPluginsDir.get() + "', 'cache-enabled' = 'false', " + options + ")");
    }

    @Test
    void hiveCatalogWithTheKeysInItsOptions() throws Exception {
        S3.traffic().clearRequests();
        String options = "'catalog-type' = 'hive', 'uri' = '" + metastore.uri() + "', 'warehouse' = 's3://" + BUCKET
                + "/hive-wh', " + s3FileIoOptions() + ", 's3.access-key-id' = '" + S3Server.ACCESS_KEY
                + "', 's3.secret-access-key' = '" + S3Server.SECRET_KEY + "'";
        TableEnvironment batch = environment(EnvironmentSettings.inBatchMode());
        createCatalog(batch, "ice", options);
        writeAndReadBack(batch, "ice");
        TableEnvironment streaming = environment(EnvironmentSettings.inStreamingMode());
        createCatalog(streaming, "ice", options);
        String job = appendStreaming(streaming, "ice");

        for (String table : List.of("orders", "users")) {
            String prefix = "hive-wh/db.db/" + table + "/";
            String metadata = metastoreMetadataLocation(table);
            assertThat(metadata).startsWith("s3://" + BUCKET + "/" + prefix + "metadata/");
            checkTableOnS3(prefix, table, io -> new StaticTableOperations(metadata, io));
            assertWrittenByS3FileIo(prefix, S3Server.ACCESS_KEY, null);
        }
        assertNoSecret(S3Server.SECRET_KEY, batch, streaming, job, "ice");
    }

    /**
     * Data files larger than S3FileIO's part size (set to S3's least, {@code s3.multipart.part-size-bytes})
     * go up as S3FileIO's multipart uploads while the server's proxy fails part uploads and
     * completions: every id once, no upload left open.
     */
    @Test
    void dataFilesLargerThanAPartGoUpInPartsUnderFaults() throws Exception {
        S3.traffic().clearRequests();
        TableEnvironment tEnv = environment(EnvironmentSettings.inBatchMode());
        createCatalog(
                tEnv,
                "ice",
                "'catalog-type' = 'hive', 'uri' = '" + metastore.uri() + "', 'warehouse' = 's3://" + BUCKET
                        + "/hive-wh', " + s3FileIoOptions() + ", 's3.access-key-id' = '" + S3Server.ACCESS_KEY
                        + "', 's3.secret-access-key' = '" + S3Server.SECRET_KEY
                        + "', 's3.multipart.part-size-bytes' = '"
                        + LargeDataFiles.PART_SIZE + "'");
        tEnv.executeSql("CREATE DATABASE ice.big");
        tEnv.executeSql("CREATE TABLE ice.big.payloads (id BIGINT, payload STRING)");
        List<String> faults = LargeDataFiles.insertUnderFaults(tEnv, "ice.big.payloads", S3, 20261231L);

        String prefix = "hive-wh/big.db/payloads/";
        String metadata = metastoreMetadataLocation("big", "payloads");
        Path copy = S3.download(BUCKET, prefix, Files.createTempDirectory(tmp, "copy-"));
        Table table = IcebergTables.fromCopy(
                copy, "s3://" + BUCKET + "/" + prefix, io -> new StaticTableOperations(metadata, io), "payloads");
        LargeDataFiles.check("S3FileIO", table, S3.traffic().requests(), faults);
        assertThat(S3.openUploads(BUCKET)).as("multipart uploads left open").isEmpty();
    }

    @Test
    void restCatalogThatVendsTheCredentials() throws Exception {
        S3.traffic().clearRequests();
        int vendedBefore = rest.vendedResponses();
        // no key in any option: the table's file IO gets them from the REST service
        String options = "'catalog-type' = 'rest', 'uri' = '" + rest.uri() + "', " + s3FileIoOptions();
        assertThat(options).doesNotContain(S3Server.ACCESS_KEY).doesNotContain(S3Server.SECRET_KEY);
        TableEnvironment batch = environment(EnvironmentSettings.inBatchMode());
        createCatalog(batch, "rest", options);
        writeAndReadBack(batch, "rest");
        TableEnvironment streaming = environment(EnvironmentSettings.inStreamingMode());
        createCatalog(streaming, "rest", options);
        String job = appendStreaming(streaming, "rest");

        assertThat(rest.vendedResponses()).isGreaterThan(vendedBefore);
        for (String table : List.of("orders", "users")) {
            Table served = rest.backing().loadTable(TableIdentifier.of("db", table));
            String prefix = "rest-wh/db/" + table + "/";
            assertThat(served.location() + "/").isEqualTo("s3://" + BUCKET + "/" + prefix);
            checkTableOnS3(
                    prefix,
                    table,
                    io -> new StaticTableOperations(
                            ((HasTableOperations) served).operations().current(), io));
            // the data files: written by the plugin with the vended key and session token
            assertWrittenByS3FileIo(prefix + "data/", S3Server.ACCESS_KEY, VENDED_TOKEN);
        }
        assertNoSecret(S3Server.SECRET_KEY, batch, streaming, job, "rest");
        assertNoSecret(VENDED_TOKEN, batch, streaming, job, "rest");
    }

    @Test
    void credentialsFromTheDefaultProviderChain() throws Exception {
        assertThat(System.getenv("AWS_ACCESS_KEY_ID"))
                .as("the environment must not hold keys for this test")
                .isNull();
        S3.traffic().clearRequests();
        // the AWS SDK's default chain reads these system properties first; this JVM runs the job
        System.setProperty("aws.accessKeyId", S3Server.ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", S3Server.SECRET_KEY);
        try {
            TableEnvironment batch = environment(EnvironmentSettings.inBatchMode());
            String options = "'catalog-type' = 'hive', 'uri' = '" + metastore.uri() + "', 'warehouse' = 's3://" + BUCKET
                    + "/chain-wh', " + s3FileIoOptions();
            assertThat(options).doesNotContain(S3Server.ACCESS_KEY).doesNotContain(S3Server.SECRET_KEY);
            createCatalog(batch, "chain", options);
            batch.executeSql("CREATE DATABASE chain.cdb");
            batch.executeSql("CREATE TABLE chain.cdb.events (id BIGINT, name STRING)");
            batch.executeSql("INSERT INTO chain.cdb.events VALUES (1, 'a'), (2, 'b'), (3, 'c')")
                    .await();
            assertThat(collect(batch, "SELECT id, name FROM chain.cdb.events"))
                    .containsExactlyInAnyOrder("1|a", "2|b", "3|c");
        } finally {
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
        }
        String prefix = "chain-wh/cdb.db/events/";
        assertThat(S3.keys(BUCKET, prefix + "data/")).anyMatch(k -> k.endsWith(".parquet"));
        assertWrittenByS3FileIo(prefix, S3Server.ACCESS_KEY, null);
    }

    /**
     * {@code db.orders} (partitioned by {@code dt}): two appends of {@link #ROWS} rows, then an
     * overwrite of partition {@code d0}; {@code db.users} (primary key {@code id}, upserts): two
     * jobs, the second replacing a key. Both read back through Sluice's scan source.
     */
    private static void writeAndReadBack(TableEnvironment tEnv, String catalog) throws Exception {
        tEnv.executeSql("CREATE DATABASE " + catalog + ".db");
        tEnv.executeSql(
                "CREATE TABLE " + catalog + ".db.orders (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt)");
        tEnv.executeSql(numbers("numbers", ROWS, ""));
        String orders = catalog + ".db.orders";
        tEnv.executeSql("INSERT INTO " + orders + " SELECT id, CONCAT('n', CAST(id AS STRING)), "
                        + "CONCAT('d', CAST(id % 4 AS STRING)) FROM numbers")
                .await();
        tEnv.executeSql("INSERT INTO " + orders + " SELECT id + " + ROWS + ", CONCAT('m', CAST(id AS STRING)), "
                        + "CONCAT('d', CAST(id % 4 AS STRING)) FROM numbers")
                .await();
        tEnv.executeSql("INSERT OVERWRITE " + orders + " VALUES (-1, 'x', 'd0'), (-2, 'y', 'd0')")
                .await();

        tEnv.executeSql("CREATE TABLE " + catalog + ".db.users (id INT NOT NULL, name STRING, "
                + "PRIMARY KEY (id) NOT ENFORCED) WITH ('format-version' = '2', 'write.upsert.enabled' = 'true')");
        String users = catalog + ".db.users";
        tEnv.executeSql("INSERT INTO " + users + " VALUES (1, 'a'), (2, 'b'), (3, 'c')")
                .await();
        tEnv.executeSql("INSERT INTO " + users + " VALUES (2, 'B'), (4, 'd')").await();

        assertThat(collect(tEnv, "SELECT id, name, dt FROM " + orders))
                .containsExactlyInAnyOrderElementsOf(batchOrders());
        assertThat(collect(tEnv, "SELECT id, name FROM " + users)).containsExactlyInAnyOrderElementsOf(expectedUsers());
    }

    private static String numbers(String name, int rows, String extra) {
        return "CREATE TEMPORARY TABLE " + name + " (id BIGINT) WITH ('connector' = 'datagen', "
                + "'number-of-rows' = '" + rows + "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
                + "'fields.id.end' = '" + rows + "'" + extra + ")";
    }

    /**
     * A STREAMING append of {@link #ROWS} rows into {@code db.orders} (partition {@code d9}),
     * committed by checkpoints every 200 ms while the source trickles the rows in; the job's id.
     */
    private static String appendStreaming(TableEnvironment tEnv, String catalog) throws Exception {
        tEnv.getConfig().set("execution.checkpointing.interval", "200 ms");
        tEnv.getConfig().set("parallelism.default", "1");
        tEnv.executeSql(numbers("trickle", ROWS, ", 'rows-per-second' = '300'"));
        String orders = catalog + ".db.orders";
        String sql = "INSERT INTO " + orders + " SELECT id + 10000, CONCAT('s', CAST(id AS STRING)), 'd9' FROM trickle";
        TableResult result = tEnv.executeSql(sql);
        String job = result.getJobClient().orElseThrow().getJobID().toString();
        result.await();
        assertThat(collect(tEnv, "SELECT id, name, dt FROM " + orders))
                .containsExactlyInAnyOrderElementsOf(expectedOrders());
        return job;
    }

    private static List<String> batchOrders() {
        List<String> rows = new ArrayList<>(List.of("-1|x|d0", "-2|y|d0"));
        for (int id = 1; id <= ROWS; id++) {
            if (id % 4 != 0) {
                rows.add(id + "|n" + id + "|d" + id % 4);
                rows.add((id + ROWS) + "|m" + id + "|d" + id % 4);
            }
        }
        return rows;
    }

    private static List<String> expectedOrders() {
        List<String> rows = batchOrders();
        for (int id = 1; id <= ROWS; id++) {
            rows.add((id + 10000) + "|s" + id + "|d9");
        }
        return rows;
    }

    private static List<String> expectedUsers() {
        return List.of("1|a", "2|B", "3|c", "4|d");
    }

    /**
     * Every object of the table under {@code prefix}; the table read by Iceberg's generic reader from
     * the bytes the AWS SDK v1 fetched, the live data files' rows counted by parquet-java; the
     * streaming append's snapshots committed by checkpoints; no multipart upload left open.
     */
    private static void checkTableOnS3(String prefix, String table, Function<FileIO, TableOperations> operations)
            throws IOException {
        List<String> keys = S3.keys(BUCKET, prefix);
        assertThat(keys).anyMatch(k -> k.startsWith(prefix + "data/") && k.endsWith(".parquet"));
        assertThat(keys).anyMatch(k -> k.startsWith(prefix + "metadata/") && k.endsWith(".avro"));

        Path copy = S3.download(BUCKET, prefix, Files.createTempDirectory(tmp, "copy-"));
        InMemoryFileIO io = new InMemoryFileIO();
        String root = "s3://" + BUCKET + "/" + prefix;
        try (Stream<Path> files = Files.walk(copy)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                io.addFile(root + copy.relativize(f).toString().replace('\\', '/'), Files.readAllBytes(f));
            }
        }
        Table loaded = new BaseTable(operations.apply(io), table);
        assertThat(loaded.location() + "/").isEqualTo(root);
        List<String> expected = table.equals("orders") ? expectedOrders() : expectedUsers();
        assertThat(IcebergTables.rows(loaded)).containsExactlyInAnyOrderElementsOf(expected);
        long rows = 0;
        try (CloseableIterable<FileScanTask> tasks = loaded.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                DataFile file = task.file();
                assertThat(file.location()).startsWith(root + "data/");
                try (ParquetFileReader reader = ParquetFileReader.open(
                        new LocalInputFile(copy.resolve(file.location().substring(root.length()))))) {
                    assertThat(reader.getRecordCount()).isEqualTo(file.recordCount());
                    rows += reader.getRecordCount();
                }
            }
        }
        if (table.equals("orders")) {
            assertThat(rows).isEqualTo(expectedOrders().size());
            List<Snapshot> streamed = IcebergTables.snapshots(loaded).stream()
                    .filter(s -> s.summary().containsKey("flink.max-committed-checkpoint-id"))
                    .filter(s -> "append".equals(s.operation()))
                    .collect(Collectors.toList());
            assertThat(streamed)
                    .as("snapshots the streaming job committed at checkpoints")
                    .isNotEmpty();
        } else {
            assertThat(rows).isGreaterThanOrEqualTo(expectedUsers().size());
        }
        assertThat(S3.openUploads(BUCKET, prefix)).isEmpty();
    }

    /**
     * Every request on an object of {@code prefix}'s data and metadata files was Iceberg's S3FileIO
     * (the AWS SDK v2 with its {@code s3fileio/} user agent prefix), signed with {@code accessKey}
     * and carrying {@code sessionToken} (or none).
     */
    private static void assertWrittenByS3FileIo(String prefix, String accessKey, String sessionToken) {
        List<S3Request> onFiles = S3.traffic().requests().stream()
                .filter(r -> r.bucket().equals(BUCKET) && r.key().startsWith(prefix))
                .filter(r -> r.key().contains("/data/") || r.key().contains("/metadata/"))
                .collect(Collectors.toList());
        assertThat(onFiles)
                .anyMatch(r -> r.kind() == S3Request.Kind.PUT && r.key().endsWith(".parquet"))
                .anyMatch(r -> r.kind() == S3Request.Kind.GET && r.key().endsWith(".parquet"));
        for (S3Request r : onFiles) {
            assertThat(r.userAgent())
                    .as("user agent of " + r)
                    .contains("s3fileio/")
                    .contains("aws-sdk-java/2.");
            assertThat(r.accessKeyId()).as("access key of " + r).isEqualTo(accessKey);
            assertThat(r.securityToken()).as("session token of " + r).isEqualTo(sessionToken);
        }
    }

    /**
     * {@code secret} in no log line of the test, no {@code EXPLAIN} of a write into the catalog, and
     * neither the configuration nor the plan of the streaming job as Flink's REST API shows them.
     */
    private void assertNoSecret(
            String secret, TableEnvironment batch, TableEnvironment streaming, String job, String catalog)
            throws Exception {
        assertThat(log.toString()).as("the log was captured").contains("Iceberg");
        assertThat(log.toString()).as("the log").doesNotContain(secret);
        String insert = "INSERT INTO " + catalog + ".db.orders VALUES (7, 'e', 'd1')";
        assertThat(batch.explainSql(insert, ExplainDetail.JSON_EXECUTION_PLAN))
                .as("EXPLAIN")
                .doesNotContain(secret);
        assertThat(streaming.explainSql(insert, ExplainDetail.JSON_EXECUTION_PLAN))
                .as("EXPLAIN")
                .doesNotContain(secret);
        org.apache.flink.configuration.Configuration client = MINI_CLUSTER.getClientConfiguration();
        String base =
                "http://" + client.getString("rest.address", "localhost") + ":" + client.getString("rest.port", "8081");
        HttpClient http = HttpClient.newHttpClient();
        for (String path : List.of("/jobs/" + job, "/jobs/" + job + "/config", "/jobs/" + job + "/plan")) {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(path).isEqualTo(200);
            assertThat(response.body()).as(path).contains(job).doesNotContain(secret);
        }
    }

    /** The metastore's {@code metadata_location} of {@code db.<table>}, by a client of the test class path. */
    private static String metastoreMetadataLocation(String table) throws Exception {
        return metastoreMetadataLocation("db", table);
    }

    private static String metastoreMetadataLocation(String database, String table) throws Exception {
        HiveConf conf = new HiveConf();
        conf.set("hive.metastore.uris", metastore.uri());
        HiveMetaStoreClient client = new HiveMetaStoreClient(conf);
        try {
            return client.getTable(database, table).getParameters().get("metadata_location");
        } finally {
            client.close();
        }
    }

    private static List<String> collect(TableEnvironment tEnv, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(sql).collect()) {
            it.forEachRemaining(r -> rows.add(IntStream.range(0, r.getArity())
                    .mapToObj(i -> String.valueOf(r.getField(i)))
                    .collect(Collectors.joining("|"))));
        }
        return rows;
    }
}
