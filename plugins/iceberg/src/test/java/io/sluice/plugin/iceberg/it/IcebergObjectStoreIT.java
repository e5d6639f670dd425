package io.sluice.plugin.iceberg.it;

import io.sluice.hadoopbridge.ObjectStores;
import io.sluice.runtime.sink.dynamic.DynamicSink;
import io.sluice.testservers.hdfs.HdfsServer;
import io.sluice.testservers.readme.ReadmeJavaExamples;
import io.sluice.testservers.readme.RecordingEnvironment;
import io.sluice.testservers.s3.FlinkS3FileSystem;
import io.sluice.testservers.s3.S3Request;
import io.sluice.testservers.s3.S3Server;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.hive.HiveCatalog;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.rest.RESTCatalogServer;
import org.apache.iceberg.rest.RESTServerExtension;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The iceberg plugin on real storage: an S3 API server reached through Flink's own {@code
 * flink-s3-fs-hadoop} (loaded as a cluster loads its plugins; the plugin's Hadoop goes through its
 * bridge) with the {@code hive} catalog on a Hive metastore and the {@code rest} catalog (Iceberg's
 * REST test server over an in-memory catalog: it keeps the table metadata, the files are on S3), and HDFS
 * with the {@code hadoop} and {@code rest} catalogs and the dynamic sink (four tables it creates, on
 * a {@code hadoop} catalog). Through SQL on a {@code 'type' = 'sluice'} catalog: appends,
 * {@code INSERT OVERWRITE}, an upsert table, a bounded read back. Checked independently of the
 * plugin: the objects (every one under the table's location, no mutating request outside the
 * warehouse, no open multipart upload), and the rows, read from the bytes the AWS SDK (or Hadoop's
 * HDFS client) fetched by Iceberg's generic reader of the test class path and, for the row count of
 * the live data files, by parquet-java. A {@code hadoop} catalog on {@code s3a://} is refused and
 * leaves the bucket empty.
 *
 * <p>The README's Iceberg examples run as written ({@link ReadmeJavaExamples}: compiled against the
 * test class path, shipped as the job's jar) on the {@code hive} catalog with the buckets they
 * name: the dynamic sink ({@code s3://lake/wh}), the table sink and the scan source ({@code
 * s3://bucket/warehouse}). Of the examples only {@code thrift://metastore:9083} is replaced, by
 * this class's metastore, and a variable an example uses without declaring it is the test's.
 *
 * <p>The metastore and the REST server run in this JVM; they reach {@code s3a://} as the plugin
 * does, through the bridge to the same Flink file system (a standalone metastore would have S3A).
 */
class IcebergObjectStoreIT {

    private static final String BUCKET = "iceberg-lake";

    @RegisterExtension
    static final S3Server S3 = S3Server.inMemory(BUCKET, "bucket", "lake")
            .withFlinkFileSystems(IcebergObjectStoreIT::flinkSettings, FlinkS3FileSystem.HADOOP);

    @RegisterExtension
    @Order(1)
    static final HdfsServer HDFS = new HdfsServer();

    /** The same server with its warehouse on HDFS: started once HDFS runs and its URI is known. */
    @RegisterExtension
    @Order(2)
    static final RestServerOnHdfs REST_HDFS = new RestServerOnHdfs();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    // the README's dynamic sink example writes with 10 writers
                    .setNumberSlotsPerTaskManager(10)
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

    /** The same with its warehouse on {@code s3://}, as the README's examples write it. */
    @RegisterExtension
    static final RESTServerExtension REST_S3 = new RESTServerExtension(Map.of(
            RESTCatalogServer.REST_PORT,
            RESTServerExtension.FREE_PORT,
            CatalogProperties.CATALOG_IMPL,
            InMemoryCatalog.class.getName(),
            CatalogProperties.FILE_IO_IMPL,
            "org.apache.iceberg.hadoop.HadoopFileIO",
            CatalogProperties.WAREHOUSE_LOCATION,
            "s3://" + BUCKET + "/rest-s3-wh"));

    @TempDir
    static Path tmp;

    /** Iceberg's REST catalog server, in-memory catalog, warehouse {@code <hdfs>/rest-wh}. */
    static final class RestServerOnHdfs implements BeforeAllCallback, AfterAllCallback {
        private RESTServerExtension server;

        @Override
        public void beforeAll(ExtensionContext context) throws Exception {
            server = new RESTServerExtension(Map.of(
                    RESTCatalogServer.REST_PORT,
                    RESTServerExtension.FREE_PORT,
                    CatalogProperties.CATALOG_IMPL,
                    InMemoryCatalog.class.getName(),
                    CatalogProperties.FILE_IO_IMPL,
                    "org.apache.iceberg.hadoop.HadoopFileIO",
                    CatalogProperties.WAREHOUSE_LOCATION,
                    HDFS.uri() + "/rest-wh"));
            server.beforeAll(context);
        }

        @Override
        public void afterAll(ExtensionContext context) throws Exception {
            if (server != null) {
                server.afterAll(context);
            }
        }

        RESTServerExtension server() {
            return server;
        }
    }

    private static HiveMetastoreServer metastore;

    /**
     * Flink's S3 settings for the server, with S3A's part size (default 64 MB) at S3's least: a file
     * larger than it is a multipart upload.
     */
    static Map<String, String> flinkSettings(S3Server server) {
        Map<String, String> settings = new HashMap<>(server.flinkConfig());
        settings.put("s3.multipart.size", String.valueOf(LargeDataFiles.PART_SIZE));
        return settings;
    }

    @BeforeAll
    static void storage() throws Exception {
        TestPluginsDir.assumeIntegrationTestPhase();
        // the metastore and the REST server of this JVM reach s3a:// as the plugin does
        ObjectStores.routeThroughFlinkByDefault();
        metastore = HiveMetastoreServer.start(tmp.resolve("hive-warehouse"));
    }

    @AfterAll
    static void plainFileSystems() throws Exception {
        if (metastore != null) {
            metastore.close();
        }
    }

    private static TableEnvironment batch() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        return tEnv;
    }

    /** The options of a {@code rest} catalog on the REST server of this class (warehouse on S3). */
    private static String restCatalogOptions() {
        return restCatalogOptions(REST);
    }

    private static String restCatalogOptions(RESTServerExtension server) {
        return "'catalog-type' = 'rest', 'uri' = 'http://localhost:"
                + server.config().get(RESTCatalogServer.REST_PORT) + "/'";
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
        // not "db": the README's examples own that database, at their warehouses
        String database = "db_" + scheme;
        TableEnvironment tEnv = batch();
        createCatalog(
                tEnv,
                "ice",
                "'catalog-type' = 'hive', 'uri' = '" + metastore.uri() + "', 'warehouse' = '" + scheme + "://" + BUCKET
                        + "/hive-wh'");
        ObjectStoreRoundTrip.writeAndReadBack(tEnv, "ice", database);

        for (String table : List.of("orders", "users")) {
            String prefix = "hive-wh/" + database + ".db/" + table + "/";
            String metadata = metastoreMetadataLocation(scheme, database, table);
            assertThat(metadata).startsWith(scheme + "://" + BUCKET + "/" + prefix + "metadata/");
            assertThat(S3.keys(BUCKET, prefix + "metadata/")).anyMatch(k -> k.endsWith(".metadata.json"));
            ObjectStoreRoundTrip.checkTableOnS3(
                    S3, BUCKET, tmp, scheme, prefix, table, io -> new StaticTableOperations(metadata, io));
        }
        assertNothingOutside("hive-wh/");
    }

    /**
     * The warehouse on {@code s3a://} and on {@code s3://}: the REST server's in-memory catalog and
     * the plugin both write through {@code HadoopFileIO} over the bridge to Flink's {@code
     * flink-s3-fs-hadoop}, which serves both schemes.
     */
    @ParameterizedTest(name = "{0}://")
    @ValueSource(strings = {"s3a", "s3"})
    void restCatalogOnS3(String scheme) throws Exception {
        S3.traffic().clearRequests();
        RESTServerExtension server = scheme.equals("s3a") ? REST : REST_S3;
        String warehouse = scheme.equals("s3a") ? "rest-wh/" : "rest-s3-wh/";
        TableEnvironment tEnv = batch();
        createCatalog(tEnv, "rest", restCatalogOptions(server));
        ObjectStoreRoundTrip.writeAndReadBack(tEnv, "rest", "db");

        for (String table : List.of("orders", "users")) {
            // the in-memory catalog behind the server keeps the table metadata itself (no
            // metadata.json): taken from the REST API, every file it names read from the store
            TableMetadata metadata = ((HasTableOperations) server.client().loadTable(TableIdentifier.of("db", table)))
                    .operations()
                    .current();
            assertThat(metadata.location()).isEqualTo(scheme + "://" + BUCKET + "/" + warehouse + "db/" + table);
            ObjectStoreRoundTrip.checkTableOnS3(
                    S3,
                    BUCKET,
                    tmp,
                    scheme,
                    warehouse + "db/" + table + "/",
                    table,
                    io -> new StaticTableOperations(metadata, io));
        }
        assertNothingOutside(warehouse);
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
        ObjectStoreRoundTrip.writeAndReadBack(tEnv, "hdfs_ice", "db");

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
                ObjectStoreRoundTrip.checkRows(
                        loaded,
                        table,
                        location -> HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(location), conf));
            }
        }
    }

    /**
     * The {@code rest} catalog with its warehouse on HDFS: the plugin writes data and manifests
     * through its {@code HadoopFileIO} and HDFS client, the REST server keeps the metadata. Read back
     * from the table the REST API names, over the HDFS client of the test class path.
     */
    @Test
    void restCatalogOnHdfs() throws Exception {
        RESTServerExtension server = REST_HDFS.server();
        TableEnvironment tEnv = batch();
        createCatalog(tEnv, "rest_hdfs", restCatalogOptions(server));
        ObjectStoreRoundTrip.writeAndReadBack(tEnv, "rest_hdfs", "db");

        Configuration conf = new Configuration();
        org.apache.hadoop.fs.FileSystem hdfs = org.apache.hadoop.fs.FileSystem.get(URI.create(HDFS.uri()), conf);
        for (String table : List.of("orders", "users")) {
            Table loaded = server.client().loadTable(TableIdentifier.of("db", table));
            assertThat(loaded.location()).isEqualTo(HDFS.uri() + "/rest-wh/db/" + table);
            assertThat(hdfsFiles(hdfs, "/rest-wh/db/" + table))
                    .anyMatch(f -> f.startsWith("/rest-wh/db/" + table + "/data/") && f.endsWith(".parquet"))
                    .allMatch(f -> f.startsWith("/rest-wh/db/" + table + "/data/")
                            || f.startsWith("/rest-wh/db/" + table + "/metadata/"));
            ObjectStoreRoundTrip.checkRows(
                    loaded, table, location -> HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(location), conf));
        }
        assertThat(hdfsFiles(hdfs, "/rest-wh")).allMatch(f -> f.startsWith("/rest-wh/db/"));
    }

    /**
     * The dynamic sink into a {@code hadoop} catalog on HDFS: one job, four tables it creates (one
     * partitioned), committed at checkpoints. Each table read by Iceberg's Hadoop catalog of the test
     * class path: exactly its rows, several snapshots, its live data files' rows counted by
     * parquet-java; every file the job added on HDFS is a table's data or metadata.
     */
    @Test
    void dynamicSinkOnHdfs() throws Exception {
        String warehouse = HDFS.uri() + "/dynamic-wh";
        Configuration conf = new Configuration();
        org.apache.hadoop.fs.FileSystem hdfs = org.apache.hadoop.fs.FileSystem.get(URI.create(HDFS.uri()), conf);
        List<String> before = hdfsFiles(hdfs, "/");
        long count = 400;
        int tables = 4;

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(300);
        // the numbers over four checkpoints: every table gets several commits
        DynamicSink.forInput(env.fromSource(
                        new DataGeneratorSource<>(
                                i -> i + 1, count, RateLimiterStrategy.perCheckpoint((int) (count / 4)), Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        "numbers"))
                .generator(new IcebergDynamicSinkObjectStoreIT.Numbers())
                .target("iceberg")
                .pluginsDir(TestPluginsDir.get())
                .catalog(Map.of("catalog-type", "hadoop", "warehouse", warehouse, "cache-enabled", "false"))
                .writeParallelism(2)
                .append();
        env.execute("dynamic iceberg sink on HDFS");

        try (HadoopCatalog catalog = new HadoopCatalog(conf, warehouse)) {
            for (int t = 0; t < tables; t++) {
                Table table = catalog.loadTable(TableIdentifier.of("db", "t" + t));
                assertThat(table.location()).isEqualTo(warehouse + "/db/t" + t);
                List<String> expected = new ArrayList<>();
                for (long id = 1; id <= count; id++) {
                    if (id % tables == t) {
                        expected.add(id + "|p" + id % 3);
                    }
                }
                assertThat(IcebergTables.rows(table)).as("t%d", t).containsExactlyInAnyOrderElementsOf(expected);
                assertThat(IcebergTables.snapshots(table))
                        .as("t%d committed at several checkpoints", t)
                        .hasSizeGreaterThan(1);
                assertThat(table.spec().fields()).as("t%d's spec", t).hasSize(t == 0 ? 1 : 0);
                long parquetRows = 0;
                try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
                    for (FileScanTask task : tasks) {
                        DataFile file = task.file();
                        assertThat(file.location()).startsWith(table.location() + "/data/");
                        try (ParquetFileReader reader = ParquetFileReader.open(
                                HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.location()), conf))) {
                            assertThat(reader.getRecordCount()).isEqualTo(file.recordCount());
                            parquetRows += reader.getRecordCount();
                        }
                    }
                }
                assertThat(parquetRows)
                        .as("t%d's rows in its live data files", t)
                        .isEqualTo(expected.size());
            }
        }
        List<String> added = new ArrayList<>(hdfsFiles(hdfs, "/"));
        added.removeAll(before);
        assertThat(added)
                .as("every file the job added is a table's data or metadata")
                .isNotEmpty()
                .allMatch(f -> f.matches("/dynamic-wh/db/t[0-3]/(data|metadata)/.+"));
    }

    /** The path of every file under {@code dir} on HDFS. */
    private static List<String> hdfsFiles(org.apache.hadoop.fs.FileSystem hdfs, String dir) throws Exception {
        List<String> files = new ArrayList<>();
        org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> listed =
                hdfs.listFiles(new org.apache.hadoop.fs.Path(dir), true);
        while (listed.hasNext()) {
            files.add(listed.next().getPath().toUri().getPath());
        }
        return files;
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

    // ---------------------------------------------------------------------------------------------
    // the README's Iceberg examples

    private static final String EXAMPLES = "io.sluice.plugin.iceberg.it.readme";
    private static final String README_METASTORE = "thrift://metastore:9083";
    private static final Schema ID_NAME = new Schema(
            org.apache.iceberg.types.Types.NestedField.required(1, "id", org.apache.iceberg.types.Types.LongType.get()),
            org.apache.iceberg.types.Types.NestedField.optional(
                    2, "name", org.apache.iceberg.types.Types.StringType.get()));
    private static final RowType ID_NAME_ROWS = RowType.of(
            new org.apache.flink.table.types.logical.LogicalType[] {
                new org.apache.flink.table.types.logical.BigIntType(false),
                org.apache.flink.table.types.logical.VarCharType.STRING_TYPE
            },
            new String[] {"id", "name"});

    /**
     * The dynamic sink example: {@code db.table} created by the sink at {@code s3://lake/wh},
     * written on its branch {@code branch}; that branch read back from the objects the AWS SDK
     * fetched.
     */
    @Test
    void readmeDynamicSinkExampleWritesTheLake(@InjectMiniCluster MiniCluster cluster) throws Exception {
        // the other examples name the same database at another warehouse: a database has one location
        dropDatabase("db");
        runExample("iceberg-dynamic-sink", cluster);

        String metadata = metastoreMetadataLocation("db", "table");
        assertThat(metadata).startsWith("s3://lake/wh/db.db/table/metadata/");
        Table table = fromBucket("lake", "wh/db.db/table/", metadata);
        assertThat(branchRows(table, "branch")).containsExactlyInAnyOrderElementsOf(expectedRows(1, 20, "n"));
        assertThat(table.currentSnapshot()).as("nothing on main").isNull();
        assertThat(S3.openUploads("lake")).isEmpty();
    }

    /**
     * The scan source and table sink examples on {@code db.events} at {@code
     * s3://bucket/warehouse}, which this test creates and seeds with ten rows by Iceberg's generic
     * writer: the source reads exactly those, the sink upserts twenty rows onto branch {@code
     * audit} (ORC), which then holds the twenty and main still the ten.
     */
    @Test
    void readmeScanSourceAndTableSinkExamplesOnTheBucket(@InjectMiniCluster MiniCluster cluster) throws Exception {
        dropDatabase("db");
        HiveConf conf = new HiveConf();
        try (HiveCatalog catalog = new HiveCatalog()) {
            catalog.setConf(conf);
            catalog.initialize(
                    "seed",
                    Map.of(
                            CatalogProperties.URI,
                            metastore.uri(),
                            CatalogProperties.WAREHOUSE_LOCATION,
                            "s3://bucket/warehouse"));
            catalog.createNamespace(Namespace.of("db"));
            Table events = catalog.createTable(
                    TableIdentifier.of("db", "events"),
                    ID_NAME,
                    PartitionSpec.unpartitioned(),
                    Map.of("format-version", "2"));
            DataWriter<Record> writer = Parquet.writeData(
                            events.io().newOutputFile(events.location() + "/data/seed.parquet"))
                    .schema(ID_NAME)
                    .createWriterFunc(type -> GenericParquetWriter.create(ID_NAME, type))
                    .withSpec(PartitionSpec.unpartitioned())
                    .overwrite()
                    .build();
            try (writer) {
                for (long id = 1; id <= 10; id++) {
                    GenericRecord r = GenericRecord.create(ID_NAME);
                    r.setField("id", id);
                    r.setField("name", "s" + id);
                    writer.write(r);
                }
            }
            events.newAppend().appendFile(writer.toDataFile()).commit();
        }

        RecordingEnvironment source = runExample("iceberg-scan-source", cluster);
        assertThat(source.sources()).hasSize(1);
        @SuppressWarnings("unchecked")
        DataStream<RowData> read = (DataStream<RowData>) source.sources().get(0);
        List<String> scanned = read.map(r -> r.getLong(0) + "|" + r.getString(1))
                .returns(org.apache.flink.api.common.typeinfo.Types.STRING)
                .executeAndCollect(10);
        assertThat(scanned).containsExactlyInAnyOrderElementsOf(expectedRows(1, 10, "s"));

        runExample("iceberg-table-sink", cluster);
        String metadata = metastoreMetadataLocation("db", "events");
        assertThat(metadata).startsWith("s3://bucket/warehouse/db.db/events/metadata/");
        Table table = fromBucket("bucket", "warehouse/db.db/events/", metadata);
        assertThat(branchRows(table, "audit")).containsExactlyInAnyOrderElementsOf(expectedRows(1, 20, "n"));
        assertThat(branchRows(table, "main")).containsExactlyInAnyOrderElementsOf(expectedRows(1, 10, "s"));
        assertThat(S3.keys("bucket", "warehouse/db.db/events/data/")).anyMatch(k -> k.endsWith(".orc"));
        assertThat(table.snapshot(table.refs().get("audit").snapshotId()).summary())
                .containsEntry("pipeline", "ingest");
        assertThat(S3.openUploads("bucket")).isEmpty();
    }

    /** Compiles the README's block {@code name}, runs it on {@code cluster} and, for a sink, runs the job. */
    private RecordingEnvironment runExample(String name, MiniCluster cluster) throws Exception {
        String className = "Readme_" + name.replace('-', '_');
        String source = ReadmeJavaExamples.source(
                ReadmeJavaExamples.block(name),
                EXAMPLES,
                className,
                EXAMPLE_IMPORTS,
                EXAMPLE_VARIABLES,
                Map.of(README_METASTORE, metastore.uri()));
        Path jar = ReadmeJavaExamples.compile(Files.createTempDirectory(tmp, "readme-"), EXAMPLES, className, source);
        RecordingEnvironment env = new RecordingEnvironment(cluster, jar);
        env.enableCheckpointing(200);
        Map<String, Object> in = new HashMap<>();
        in.put("env", env);
        in.put("rowType", ID_NAME_ROWS);
        in.put("moreOptions", Map.of());
        in.put("SCHEMA", ID_NAME);
        in.put("rows", idNameRows(env, 1, 20));
        in.put("dataStream", idNameRows(env, 1, 20));
        env.forgetSources();
        ReadmeJavaExamples.run(
                jar, EXAMPLES + "." + className, getClass().getClassLoader(), TestPluginsDir.get(), in, () -> {
                    if (env.sources().isEmpty()) {
                        env.execute(name);
                    }
                });
        return env;
    }

    private static final List<String> EXAMPLE_IMPORTS = List.of(
            "import io.sluice.runtime.sink.TableSinkBuilder;",
            "import io.sluice.runtime.sink.dynamic.DynamicSink;",
            "import io.sluice.runtime.source.scan.ScanSource;",
            "import io.sluice.runtime.source.scan.TableSourceBuilder;",
            "import org.apache.flink.api.common.eventtime.WatermarkStrategy;",
            "import org.apache.flink.streaming.api.datastream.DataStream;",
            "import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;",
            "import org.apache.flink.table.data.RowData;",
            "import org.apache.flink.table.types.logical.RowType;",
            "import java.time.Duration;",
            "import java.util.List;",
            "import java.util.Map;");

    private static final Map<String, String> EXAMPLE_VARIABLES = Map.of(
            "env", "StreamExecutionEnvironment",
            "rowType", "RowType",
            "rows", "DataStream<RowData>",
            "dataStream", "DataStream<RowData>",
            "moreOptions", "Map<String, String>",
            "SCHEMA", "org.apache.iceberg.Schema");

    private static DataStream<RowData> idNameRows(StreamExecutionEnvironment env, long from, long to) {
        return env.fromSequence(from, to)
                .map(id -> (RowData) GenericRowData.of(id, StringData.fromString("n" + id)))
                .returns(InternalTypeInfo.of(ID_NAME_ROWS));
    }

    private static List<String> expectedRows(long from, long to, String prefix) {
        List<String> rows = new ArrayList<>();
        for (long id = from; id <= to; id++) {
            rows.add(id + "|" + prefix + id);
        }
        return rows;
    }

    /** The table of {@code metadata}, from the objects under {@code prefix} the AWS SDK downloaded. */
    private static Table fromBucket(String bucket, String prefix, String metadata) throws Exception {
        Path copy = S3.download(bucket, prefix, Files.createTempDirectory(tmp, "copy-"));
        return IcebergTables.fromCopy(
                copy, "s3://" + bucket + "/" + prefix, io -> new StaticTableOperations(metadata, io), "readme");
    }

    /** Every row of {@code branch} by Iceberg's generic reader (deletes applied), as {@code id|name}. */
    private static List<String> branchRows(Table table, String branch) throws Exception {
        withTestClassLoader(
                org.apache.iceberg.util.ThreadPools.getDeleteWorkerPool(),
                org.apache.iceberg.util.ThreadPools.DELETE_WORKER_THREAD_POOL_SIZE);
        withTestClassLoader(
                org.apache.iceberg.util.ThreadPools.getWorkerPool(),
                org.apache.iceberg.util.ThreadPools.WORKER_THREAD_POOL_SIZE);
        List<String> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table)
                .useSnapshot(table.refs().get(branch).snapshotId())
                .build()) {
            records.forEach(r -> rows.add(r.getField("id") + "|" + r.getField("name")));
        }
        return rows;
    }

    /**
     * Iceberg's static worker pools in this JVM keep, in each thread, the context class loader of
     * the thread that made it: one made while a job's task ran here holds that job's class loader,
     * closed when the job ended, and Hadoop's {@code Configuration} made in the thread then fails
     * ("Trying to access closed classloader", seen in CI reading equality deletes). Every thread of
     * the pool takes this class's loader: {@code threads} tasks that wait for each other run on as
     * many threads.
     */
    private static void withTestClassLoader(java.util.concurrent.ExecutorService pool, int threads) throws Exception {
        ClassLoader loader = IcebergObjectStoreIT.class.getClassLoader();
        java.util.concurrent.CountDownLatch all = new java.util.concurrent.CountDownLatch(threads);
        List<java.util.concurrent.Future<?>> set = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            set.add(pool.submit(() -> {
                Thread.currentThread().setContextClassLoader(loader);
                all.countDown();
                all.await(30, java.util.concurrent.TimeUnit.SECONDS);
                return null;
            }));
        }
        for (java.util.concurrent.Future<?> f : set) {
            f.get(60, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /** The metastore's {@code metadata_location} of {@code database.table}. */
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

    /** Drops {@code database} and its tables from the metastore if it is there, leaving their files. */
    private static void dropDatabase(String database) throws Exception {
        HiveConf conf = new HiveConf();
        conf.set("hive.metastore.uris", metastore.uri());
        HiveMetaStoreClient client = new HiveMetaStoreClient(conf);
        try {
            client.dropDatabase(database, false, true, true);
        } finally {
            client.close();
        }
    }
}
