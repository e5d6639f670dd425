package io.sluice.plugin.iceberg.it;

import io.sluice.hadoopbridge.ObjectStores;
import io.sluice.testservers.hdfs.HdfsServer;
import io.sluice.testservers.s3.FlinkS3FileSystem;
import io.sluice.testservers.s3.S3Request;
import io.sluice.testservers.s3.S3Server;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.RESTCatalogServer;
import org.apache.iceberg.rest.RESTServerExtension;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The iceberg plugin on real storage: an S3 API server reached through Flink's own {@code
 * flink-s3-fs-hadoop} (loaded as a cluster loads its plugins; the plugin's Hadoop goes through its
 * bridge) with the {@code hive} catalog on a Hive metastore and the {@code rest} catalog (Iceberg's
 * REST test server over an in-memory catalog: it keeps the table metadata, the files are on S3), and HDFS
 * with the {@code hadoop} catalog. Through SQL on a {@code 'type' = 'sluice'} catalog: appends,
 * {@code INSERT OVERWRITE}, an upsert table, a bounded read back. Checked independently of the
 * plugin: the objects (every one under the table's location, no mutating request outside the
 * warehouse, no open multipart upload), and the rows, read from the bytes the AWS SDK (or Hadoop's
 * HDFS client) fetched by Iceberg's generic reader of the test class path and, for the row count of
 * the live data files, by parquet-java. A {@code hadoop} catalog on {@code s3a://} is refused and
 * leaves the bucket empty.
 *
 * <p>The metastore and the REST server run in this JVM; they reach {@code s3a://} as the plugin
 * does, through the bridge to the same Flink file system (a standalone metastore would have S3A).
 */
class IcebergObjectStoreIT {

    private static final String BUCKET = "iceberg-lake";
    private static final int ROWS = 400;

    @RegisterExtension
    static final S3Server S3 = S3Server.inMemory(BUCKET);

    @RegisterExtension
    static final HdfsServer HDFS = new HdfsServer();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    /** Iceberg's REST catalog server on an in-memory catalog whose files are on S3. */
    @RegisterExtension
    static final RESTServerExtension REST = new RESTServerExtension(Map.of(
            RESTCatalogServer.REST_PORT,
            RESTServerExtension.FREE_PORT,
            CatalogProperties.CATALOG_IMPL,
            InMemoryCatalog.class.getName(),
            CatalogProperties.FILE_IO_IMPL,
            "org.apache.iceberg.hadoop.HadoopFileIO",
            CatalogProperties.WAREHOUSE_LOCATION,
            "s3a://" + BUCKET + "/rest-wh"));

    @TempDir
    static Path tmp;

    private static HiveMetastoreServer metastore;

    @BeforeAll
    static void storage() throws Exception {
        TestPluginsDir.assumeIntegrationTestPhase();
        Map<String, String> settings = new HashMap<>(S3.flinkConfig());
        // S3A's part size (default 64 MB) at S3's least: a file larger than it is a multipart upload
        settings.put("s3.multipart.size", String.valueOf(LargeDataFiles.PART_SIZE));
        FlinkS3FileSystem.initialize(settings, FlinkS3FileSystem.HADOOP);
        // the metastore and the REST server of this JVM reach s3a:// as the plugin does
        ObjectStores.routeThroughFlinkByDefault();
        metastore = HiveMetastoreServer.start(tmp.resolve("hive-warehouse"));
    }

    @AfterAll
    static void plainFileSystems() throws Exception {
        if (metastore != null) {
            metastore.close();
        }
        FileSystem.initialize(new org.apache.flink.configuration.Configuration(), null);
    }

    private static TableEnvironment batch() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        return tEnv;
    }

    /** The options of a {@code rest} catalog on the REST server of this class (warehouse on S3). */
    private static String restCatalogOptions() {
        return "'catalog-type' = 'rest', 'uri' = 'http://localhost:"
                + REST.config().get(RESTCatalogServer.REST_PORT) + "/'";
    }

    private static void createCatalog(TableEnvironment tEnv, String name, String options) {
        tEnv.executeSql("CREATE CATALOG " + name + " WITH ('type' = 'sluice', 'target' = 'iceberg', "
                + "'sluice.plugins.dir' = '" + TestPluginsDir.get() + "', 'cache-enabled' = 'false', " + options + ")");
    }

    /**
     * {@code s3a://}, and {@code s3://} as the README's examples write it: both are Flink's {@code
     * flink-s3-fs-hadoop}, reached through the bridge. A database each (one metastore).
     */
    @ParameterizedTest(name = "{0}://")
    @ValueSource(strings = {"s3a", "s3"})
    void hiveCatalogOnS3(String scheme) throws Exception {
        S3.traffic().clearRequests();
        String database = scheme.equals("s3a") ? "db" : "db_" + scheme;
        TableEnvironment tEnv = batch();
        createCatalog(
                tEnv,
                "ice",
                "'catalog-type' = 'hive', 'uri' = '" + metastore.uri() + "', 'warehouse' = '" + scheme + "://" + BUCKET
                        + "/hive-wh'");
        writeAndReadBack(tEnv, "ice", database);

        for (String table : List.of("orders", "users")) {
            String prefix = "hive-wh/" + database + ".db/" + table + "/";
            String metadata = metastoreMetadataLocation(scheme, database, table);
            assertThat(metadata).startsWith(scheme + "://" + BUCKET + "/" + prefix + "metadata/");
            assertThat(S3.keys(BUCKET, prefix + "metadata/")).anyMatch(k -> k.endsWith(".metadata.json"));
            checkTableOnS3(scheme, prefix, table, io -> new StaticTableOperations(metadata, io));
        }
        assertNothingOutside("hive-wh/");
    }

    @Test
    void restCatalogOnS3() throws Exception {
        S3.traffic().clearRequests();
        TableEnvironment tEnv = batch();
        createCatalog(tEnv, "rest", restCatalogOptions());
        writeAndReadBack(tEnv, "rest", "db");

        for (String table : List.of("orders", "users")) {
            // the in-memory catalog behind the server keeps the table metadata itself (no
            // metadata.json): taken from the REST API, every file it names read from the store
            TableMetadata metadata = ((HasTableOperations) REST.client().loadTable(TableIdentifier.of("db", table)))
                    .operations()
                    .current();
            checkTableOnS3("s3a", "rest-wh/db/" + table + "/", table, io -> new StaticTableOperations(metadata, io));
        }
        assertNothingOutside("rest-wh/");
    }

    /**
     * Data files larger than S3A's part size (S3's least, {@link LargeDataFiles}) go up as multipart
     * uploads (HadoopFileIO through the bridge to Flink's S3A block output), while the server's
     * proxy fails part uploads and completions with 503, 500 and resets mid-upload; the campaign's
     * files are all below a part. Every id once, read by Iceberg's reader from what the AWS SDK
     * downloaded; no upload left open.
     */
    @Test
    void dataFilesLargerThanAPartGoUpInPartsUnderFaults() throws Exception {
        S3.traffic().clearRequests();
        TableEnvironment tEnv = batch();
        createCatalog(tEnv, "rest", restCatalogOptions());
        tEnv.executeSql("CREATE DATABASE rest.big");
        tEnv.executeSql("CREATE TABLE rest.big.payloads (id BIGINT, payload STRING)");
        List<String> faults = LargeDataFiles.insertUnderFaults(tEnv, "rest.big.payloads", S3, 20261230L);

        String prefix = "rest-wh/big/payloads/";
        TableMetadata metadata = ((HasTableOperations) REST.client().loadTable(TableIdentifier.of("big", "payloads")))
                .operations()
                .current();
        Path copy = S3.download(BUCKET, prefix, Files.createTempDirectory(tmp, "copy-"));
        Table table = IcebergTables.fromCopy(
                copy, "s3a://" + BUCKET + "/" + prefix, io -> new StaticTableOperations(metadata, io), "payloads");
        LargeDataFiles.check("S3A", table, S3.traffic().requests(), faults);
        assertThat(S3.openUploads(BUCKET)).as("multipart uploads left open").isEmpty();
    }

    @Test
    void aHadoopCatalogOnS3IsRefusedAndCreatesNothing() {
        S3.traffic().clearRequests();
        TableEnvironment tEnv = batch();
        String warehouse = "s3a://" + BUCKET + "/hadoop-wh";
        assertThatThrownBy(() -> {
                    createCatalog(tEnv, "refused", "'catalog-type' = 'hadoop', 'warehouse' = '" + warehouse + "'");
                    tEnv.executeSql("CREATE DATABASE refused.db");
                })
                .hasStackTraceContaining("Invalid 'warehouse' '" + warehouse + "' for 'catalog-type' = 'hadoop'")
                .hasStackTraceContaining("atomic rename")
                .hasStackTraceContaining("'catalog-type' = 'hive' or 'rest'");
        // nor through a connector table
        tEnv.executeSql("CREATE TABLE t (id BIGINT) WITH ('connector' = 'sluice', 'target' = 'iceberg', "
                + "'sluice.plugins.dir' = '" + TestPluginsDir.get() + "', 'catalog-type' = 'hadoop', "
                + "'warehouse' = '" + warehouse + "', 'catalog-database' = 'db', 'catalog-table' = 't')");
        assertThatThrownBy(() -> tEnv.executeSql("INSERT INTO t VALUES (1)").await())
                .hasStackTraceContaining("Invalid 'warehouse' '" + warehouse + "' for 'catalog-type' = 'hadoop'");
        assertThat(S3.keys(BUCKET, "hadoop-wh")).isEmpty();
        assertThat(S3.traffic().requests()).noneMatch(r -> r.kind().mutates());
    }

    @Test
    void hadoopCatalogOnHdfs() throws Exception {
        String warehouse = HDFS.uri() + "/iceberg-wh";
        TableEnvironment tEnv = batch();
        createCatalog(tEnv, "hdfs_ice", "'catalog-type' = 'hadoop', 'warehouse' = '" + warehouse + "'");
        writeAndReadBack(tEnv, "hdfs_ice", "db");

        // Hadoop's HDFS client and Iceberg's Hadoop catalog of the test class path, not the plugin's
        Configuration conf = new Configuration();
        org.apache.hadoop.fs.FileSystem hdfs = org.apache.hadoop.fs.FileSystem.get(URI.create(HDFS.uri()), conf);
        try (HadoopCatalog catalog = new HadoopCatalog(conf, warehouse)) {
            for (String table : List.of("orders", "users")) {
                Table loaded = catalog.loadTable(TableIdentifier.of(Namespace.of("db"), table));
                assertThat(loaded.location()).isEqualTo(warehouse + "/db/" + table);
                List<String> files = new ArrayList<>();
                org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> listed =
                        hdfs.listFiles(new org.apache.hadoop.fs.Path("/iceberg-wh/db/" + table), true);
                while (listed.hasNext()) {
                    files.add(listed.next().getPath().toUri().getPath());
                }
                assertThat(files).anyMatch(f -> f.endsWith(".parquet")).anyMatch(f -> f.endsWith(".metadata.json"));
                checkRows(
                        loaded,
                        table,
                        location -> HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(location), conf));
            }
        }
    }

    /**
     * {@code db.orders} (partitioned by {@code dt}): two appends of {@link #ROWS} rows, then an
     * overwrite of partition {@code d0}; {@code db.users} (primary key {@code id}, upserts): two
     * jobs, the second replacing a key. Both read back through Sluice's scan source.
     */
    private static void writeAndReadBack(TableEnvironment tEnv, String catalog, String database) throws Exception {
        tEnv.executeSql("CREATE DATABASE " + catalog + "." + database);
        tEnv.executeSql("CREATE TABLE " + catalog + "." + database
                + ".orders (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt)");
        tEnv.executeSql("CREATE TEMPORARY TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', "
                + "'number-of-rows' = '" + ROWS + "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
                + "'fields.id.end' = '" + ROWS + "')");
        String orders = catalog + "." + database + ".orders";
        tEnv.executeSql("INSERT INTO " + orders + " SELECT id, CONCAT('n', CAST(id AS STRING)), "
                        + "CONCAT('d', CAST(id % 4 AS STRING)) FROM numbers")
                .await();
        tEnv.executeSql("INSERT INTO " + orders + " SELECT id + " + ROWS + ", CONCAT('m', CAST(id AS STRING)), "
                        + "CONCAT('d', CAST(id % 4 AS STRING)) FROM numbers")
                .await();
        // dynamic overwrite: partition d0 is replaced by two rows, d1..d3 stay
        tEnv.executeSql("INSERT OVERWRITE " + orders + " VALUES (-1, 'x', 'd0'), (-2, 'y', 'd0')")
                .await();

        tEnv.executeSql("CREATE TABLE " + catalog + "." + database + ".users (id INT NOT NULL, name STRING, "
                + "PRIMARY KEY (id) NOT ENFORCED) WITH ('format-version' = '2', 'write.upsert.enabled' = 'true')");
        String users = catalog + "." + database + ".users";
        tEnv.executeSql("INSERT INTO " + users + " VALUES (1, 'a'), (2, 'b'), (3, 'c')")
                .await();
        tEnv.executeSql("INSERT INTO " + users + " VALUES (2, 'B'), (4, 'd')").await();

        List<String> read = collect(tEnv, "SELECT id, name, dt FROM " + orders);
        assertThat(read).hasSize(expectedOrders().size());
        assertThat(read).containsExactlyInAnyOrderElementsOf(expectedOrders());
        assertThat(collect(tEnv, "SELECT name FROM " + orders + " WHERE dt = 'd0'"))
                .containsExactlyInAnyOrder("x", "y");
        assertThat(collect(tEnv, "SELECT id, name FROM " + users)).containsExactlyInAnyOrderElementsOf(expectedUsers());
    }

    private static List<String> expectedOrders() {
        List<String> rows = new ArrayList<>(List.of("-1|x|d0", "-2|y|d0"));
        for (int id = 1; id <= ROWS; id++) {
            if (id % 4 != 0) {
                rows.add(id + "|n" + id + "|d" + id % 4);
                rows.add((id + ROWS) + "|m" + id + "|d" + id % 4);
            }
        }
        return rows;
    }

    private static List<String> expectedUsers() {
        return List.of("1|a", "2|B", "3|c", "4|d");
    }

    private static List<String> expected(String table) {
        return table.equals("orders") ? expectedOrders() : expectedUsers();
    }

    /**
     * Every object of the table under {@code prefix}; the table ({@code operations} over a file IO
     * of the bytes of its objects) read from them (fetched by the AWS SDK) by Iceberg's generic reader, and the live data
     * files' rows counted by parquet-java; no multipart upload left open.
     */
    private static void checkTableOnS3(
            String scheme, String prefix, String table, Function<FileIO, TableOperations> operations)
            throws IOException {
        List<String> keys = S3.keys(BUCKET, prefix);
        assertThat(keys).anyMatch(k -> k.startsWith(prefix + "data/") && k.endsWith(".parquet"));
        assertThat(keys).anyMatch(k -> k.startsWith(prefix + "metadata/") && k.endsWith(".avro"));
        assertThat(keys)
                .as("every object of the table under data/ or metadata/ (or the table's directory marker)")
                .allMatch(
                        k -> k.equals(prefix) || k.startsWith(prefix + "data/") || k.startsWith(prefix + "metadata/"));

        Path copy = S3.download(BUCKET, prefix, Files.createTempDirectory(tmp, "copy-"));
        String root = scheme + "://" + BUCKET + "/" + prefix;
        Table loaded = IcebergTables.fromCopy(copy, root, operations, table);
        assertThat(loaded.location() + "/").isEqualTo(root);
        checkRows(loaded, table, location -> {
            assertThat(location).startsWith(root);
            return new LocalInputFile(copy.resolve(location.substring(root.length())));
        });
        assertThat(S3.openUploads(BUCKET, prefix)).isEmpty();
    }

    interface ParquetFiles {
        InputFile open(String location) throws IOException;
    }

    /** The rows by Iceberg's generic reader; the live data files' rows by parquet-java. */
    private static void checkRows(Table table, String name, ParquetFiles parquet) throws IOException {
        assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrderElementsOf(expected(name));
        long rows = 0;
        int dataFiles = 0;
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                DataFile file = task.file();
                assertThat(file.location()).startsWith(table.location() + "/data/");
                try (ParquetFileReader reader = ParquetFileReader.open(parquet.open(file.location()))) {
                    assertThat(reader.getRecordCount()).isEqualTo(file.recordCount());
                    rows += reader.getRecordCount();
                }
                dataFiles++;
            }
        }
        assertThat(dataFiles).isPositive();
        if (name.equals("orders")) {
            // appends and an overwrite: no deletes, so the live data files hold exactly the table's rows
            assertThat(rows).isEqualTo(expectedOrders().size());
        } else {
            // upserts: the replaced row stays in its file, deleted by an equality (or position) delete
            assertThat(rows).isGreaterThanOrEqualTo(expectedUsers().size());
        }
    }

    /** The metastore's {@code metadata_location} of {@code db.<table>}, by a client of the test class path. */
    private static String metastoreMetadataLocation(String scheme, String database, String table) throws Exception {
        HiveConf conf = new HiveConf();
        conf.set("hive.metastore.uris", metastore.uri());
        HiveMetaStoreClient client = new HiveMetaStoreClient(conf);
        try {
            Map<String, String> parameters = client.getTable(database, table).getParameters();
            assertThat(parameters).containsEntry("table_type", "ICEBERG");
            assertThat(client.getTable(database, table).getSd().getLocation())
                    .isEqualTo(scheme + "://" + BUCKET + "/hive-wh/" + database + ".db/" + table);
            return parameters.get("metadata_location");
        } finally {
            client.close();
        }
    }

    /** No request since the test began changed an object outside {@code prefix}. */
    private static void assertNothingOutside(String prefix) {
        assertThat(S3.traffic().mutationsOutside(BUCKET, prefix)).isEmpty();
        assertThat(S3.traffic().requests())
                .anyMatch(r -> r.kind() == S3Request.Kind.PUT || r.kind() == S3Request.Kind.MULTIPART_COMPLETE);
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
