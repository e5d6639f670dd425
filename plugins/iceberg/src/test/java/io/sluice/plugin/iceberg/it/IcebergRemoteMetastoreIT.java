package io.sluice.plugin.iceberg.it;

import io.sluice.testservers.hdfs.HdfsServer;
import io.sluice.testservers.hive.StandaloneMetastore;
import io.sluice.testservers.s3.FlinkS3FileSystem;
import io.sluice.testservers.s3.S3Request;
import io.sluice.testservers.s3.S3Server;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Iceberg's {@code hive} catalog on a remote Hive metastore: Hive 3.1.3's server in a JVM of its
 * own ({@link StandaloneMetastore} of the test servers, on the hive plugin's jars), as operators run
 * it, with the warehouse on an S3 API server ({@code s3a://}) and on HDFS ({@code hdfs://}). The
 * server makes the namespaces' and tables' directories with its own Hadoop, so it is given what a
 * user gives it: S3A (hadoop-aws, the AWS SDK) with {@code fs.s3a.*} keys, and the client settings
 * of a one-DataNode HDFS; its database has the transaction tables Iceberg's commits lock in (made by
 * Hive's {@code TxnDbUtil} before the server starts, as its schema tool makes them for a production
 * database; the test switches that would make the server create them also refuse a Hive 2.3 client's
 * lock requests). The
 * plugin writes Iceberg's metadata and data files through Flink's {@code flink-s3-fs-hadoop} (the
 * bridge) or its own HDFS client.
 *
 * <p>Through SQL on a {@code 'type' = 'sluice'} catalog: a partitioned table appended to twice and
 * overwritten in a partition, an upsert table written by two jobs, both read back through Sluice.
 * Checked independently: the metastore's table (Hive's own client: {@code table_type}, location,
 * {@code metadata_location}), the table at that metadata read by Iceberg's generic reader of the
 * test class path from the bytes the AWS SDK (or Hadoop's HDFS client) fetched, the live data
 * files' rows counted by parquet-java; every object or file under a table (the database's
 * directory marker aside), no mutating request outside the warehouse, no multipart upload open.
 */
class IcebergRemoteMetastoreIT {

    private static final String BUCKET = "iceberg-remote";

    @RegisterExtension
    @Order(1)
    static final S3Server S3 = S3Server.inMemory(BUCKET).withFlinkFileSystems(FlinkS3FileSystem.HADOOP);

    @RegisterExtension
    @Order(2)
    static final HdfsServer HDFS = new HdfsServer();

    /** Started after the S3 server and HDFS: its settings name the S3 endpoint. */
    @RegisterExtension
    @Order(3)
    static final StandaloneMetastore METASTORE = new StandaloneMetastore()
            .withClassPathResource(StandaloneMetastore.S3A_CLASSPATH_RESOURCE)
            .withServerProperties(IcebergRemoteMetastoreIT::metastoreSettings)
            .withTransactionTables();

    @RegisterExtension
    @Order(4)
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    static Path tmp;

    /** The metastore's own Hadoop: S3A for the bucket, HDFS's client for one DataNode. */
    static Map<String, String> metastoreSettings() {
        Map<String, String> settings =
                new TreeMap<>(StandaloneMetastore.s3aSettings(S3.endpoint(), S3Server.ACCESS_KEY, S3Server.SECRET_KEY));
        settings.putAll(HdfsServer.ONE_DATANODE_CLIENT_SETTINGS);
        return settings;
    }

    @BeforeAll
    static void pluginDir() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    private static TableEnvironment hiveCatalog(String name, String warehouse) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        tEnv.executeSql("CREATE CATALOG " + name + " WITH ('type' = 'sluice', 'target' = 'iceberg', "
                + "'sluice.plugins.dir' = '" + TestPluginsDir.get() + "', 'cache-enabled' = 'false', "
                + "'catalog-type' = 'hive', 'uri' = '" + METASTORE.uri() + "', 'warehouse' = '" + warehouse + "')");
        return tEnv;
    }

    @Test
    void hiveCatalogOnS3() throws Exception {
        S3.traffic().clearRequests();
        String warehouse = "s3a://" + BUCKET + "/hive-wh";
        TableEnvironment tEnv = hiveCatalog("ice", warehouse);
        ObjectStoreRoundTrip.writeAndReadBack(tEnv, "ice", "db");

        List<String> tables = new ArrayList<>();
        for (String table : List.of("orders", "users")) {
            String prefix = "hive-wh/db.db/" + table + "/";
            tables.add(prefix);
            String metadata = metadataLocation("db", table, warehouse + "/db.db/" + table);
            assertThat(metadata).startsWith("s3a://" + BUCKET + "/" + prefix + "metadata/");
            ObjectStoreRoundTrip.checkTableOnS3(
                    S3, BUCKET, tmp, "s3a", prefix, table, io -> new StaticTableOperations(metadata, io));
        }
        // every object in the bucket is a table's, but the directory marker the metastore made for
        // the database; so is every change since the test began (S3A's deletes of parent markers,
        // never sent with 'keep', aside)
        assertThat(S3.keys(BUCKET, ""))
                .allMatch(k -> k.equals("hive-wh/db.db/") || tables.stream().anyMatch(k::startsWith));
        List<S3Request> outside = S3.traffic().requests().stream()
                .filter(r -> r.kind().mutates() && r.kind() != S3Request.Kind.DELETE_MULTIPLE)
                .filter(r -> !r.bucket().equals(BUCKET)
                        || !(r.key().equals("hive-wh/db.db/") || tables.stream().anyMatch(r.key()::startsWith)))
                .collect(Collectors.toList());
        assertThat(outside).isEmpty();
        assertThat(S3.traffic().requests())
                .anyMatch(r -> r.kind() == S3Request.Kind.PUT && r.key().startsWith("hive-wh/db.db/orders/data/"));
        assertThat(S3.openUploads(BUCKET)).isEmpty();
    }

    @Test
    void hiveCatalogOnHdfs() throws Exception {
        String warehouse = HDFS.uri() + "/iceberg-wh";
        TableEnvironment tEnv = hiveCatalog("ice_hdfs", warehouse);
        ObjectStoreRoundTrip.writeAndReadBack(tEnv, "ice_hdfs", "hdb");

        // Hadoop's HDFS client and Iceberg of the test class path, not the plugin's
        Configuration conf = new Configuration();
        for (String table : List.of("orders", "users")) {
            String location = warehouse + "/hdb.db/" + table;
            String metadata = metadataLocation("hdb", table, location);
            assertThat(metadata).startsWith(location + "/metadata/").endsWith(".metadata.json");
            Table loaded = new BaseTable(new StaticTableOperations(metadata, new HadoopFileIO(conf)), table);
            assertThat(loaded.location()).isEqualTo(location);
            ObjectStoreRoundTrip.checkRows(
                    loaded, table, file -> HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file), conf));
        }
        org.apache.hadoop.fs.FileSystem hdfs = org.apache.hadoop.fs.FileSystem.get(URI.create(HDFS.uri()), conf);
        List<String> files = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> listed = hdfs.listFiles(new org.apache.hadoop.fs.Path("/"), true);
        while (listed.hasNext()) {
            files.add(listed.next().getPath().toUri().getPath());
        }
        assertThat(files)
                .as("every file on HDFS is a table's data or metadata")
                .isNotEmpty()
                .allMatch(f -> f.matches("/iceberg-wh/hdb\\.db/(orders|users)/(data|metadata)/.+"));
        assertThat(files).anyMatch(f -> f.startsWith("/iceberg-wh/hdb.db/orders/data/") && f.endsWith(".parquet"));
    }

    /**
     * The metastore's {@code metadata_location} of {@code database.table}, by Hive's client of the
     * test class path; the table is Iceberg's, at {@code location}.
     */
    private static String metadataLocation(String database, String table, String location) throws Exception {
        HiveConf conf = new HiveConf();
        conf.set("hive.metastore.uris", METASTORE.uri());
        HiveMetaStoreClient client = new HiveMetaStoreClient(conf);
        try {
            org.apache.hadoop.hive.metastore.api.Table t = client.getTable(database, table);
            assertThat(t.getParameters()).containsEntry("table_type", "ICEBERG");
            assertThat(t.getSd().getLocation()).isEqualTo(location);
            return t.getParameters().get("metadata_location");
        } finally {
            client.close();
        }
    }
}
