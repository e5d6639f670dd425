package io.sluice.plugin.iceberg.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hive.HiveCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code 'catalog-type' = 'hive'} against a real Hive metastore (thrift, in this JVM, on Derby):
 * Sluice creates the table through the metastore and writes it; the metastore lists it as an
 * Iceberg table, and Iceberg's own Hive catalog (from the test class path, not the plugin's) reads
 * the rows back.
 */
class IcebergHiveCatalogIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    static Path tmp;

    private static HiveMetastoreServer metastore;

    @BeforeAll
    static void startMetastore() throws Exception {
        TestPluginsDir.assumeIntegrationTestPhase();
        metastore = HiveMetastoreServer.start(tmp.resolve("hive-warehouse"));
    }

    @AfterAll
    static void stopMetastore() throws Exception {
        if (metastore != null) {
            metastore.close();
        }
    }

    private static TableEnvironment batch() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        return tEnv;
    }

    private static String sluiceTable(String name, String table, String extraOptions) {
        return "CREATE TABLE " + name + " (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('connector' = 'sluice', 'target' = 'iceberg', 'sluice.plugins.dir' = '" + TestPluginsDir.get()
                + "', "
                + "'catalog-type' = 'hive', 'catalog-name' = 'hms', 'uri' = '" + metastore.uri() + "', "
                + "'warehouse' = '" + tmp.resolve("hive-warehouse").toUri() + "', "
                + "'catalog-database' = 'sales', 'catalog-table' = '" + table + "'" + extraOptions + ")";
    }

    @Test
    void writesThroughTheMetastoreAndReadsBackWithIcebergsHiveCatalog() throws Exception {
        TableEnvironment tEnv = batch();
        tEnv.executeSql(sluiceTable("orders", "orders", ", 'clients' = '3', 'property-version' = '1'"));
        tEnv.executeSql("INSERT INTO orders VALUES (1, 'a', '2024-01-01'), (2, 'b', '2024-01-02'), "
                        + "(3, CAST(NULL AS STRING), '2024-01-01')")
                .await();
        // a second job appends through the same metastore entry
        tEnv.executeSql("INSERT INTO orders VALUES (4, 'd', '2024-01-03')").await();

        HiveConf conf = new HiveConf();
        conf.set("hive.metastore.uris", metastore.uri());
        HiveMetaStoreClient client = new HiveMetaStoreClient(conf);
        try {
            assertThat(client.getAllTables("sales")).contains("orders");
            Map<String, String> parameters = client.getTable("sales", "orders").getParameters();
            assertThat(parameters).containsEntry("table_type", "ICEBERG").containsKey("metadata_location");
        } finally {
            client.close();
        }

        try (HiveCatalog catalog = new HiveCatalog()) {
            catalog.setConf(new Configuration());
            catalog.initialize("reader", Map.of("uri", metastore.uri()));
            Table table = catalog.loadTable(TableIdentifier.of("sales", "orders"));
            assertThat(table.spec().fields()).extracting(f -> f.name()).containsExactly("dt");
            assertThat(IcebergTables.rows(table))
                    .containsExactlyInAnyOrder(
                            "1|a|2024-01-01", "2|b|2024-01-02", "3|null|2024-01-01", "4|d|2024-01-03");
            assertThat(IcebergTables.snapshots(table)).hasSize(2);
            assertThat(Paths.get(URI.create(table.location()))).startsWith(tmp.resolve("hive-warehouse"));
        }
    }

    @Test
    void anUnreachableMetastoreIsAClearError() throws Exception {
        // the metastore URI from a hive-site.xml, with one connection attempt instead of Hive's three
        Path hiveConf = Files.createDirectories(tmp.resolve("hive-conf"));
        Files.writeString(
                hiveConf.resolve("hive-site.xml"),
                "<configuration>"
                        + "<property><name>hive.metastore.uris</name><value>thrift://localhost:1</value></property>"
                        + "<property><name>hive.metastore.connect.retries</name><value>1</value></property>"
                        + "</configuration>");
        TableEnvironment tEnv = batch();
        tEnv.executeSql("CREATE TABLE lost (id BIGINT) WITH ('connector' = 'sluice', 'target' = 'iceberg', "
                + "'sluice.plugins.dir' = '" + TestPluginsDir.get() + "', 'catalog-type' = 'hive', "
                + "'hive-conf-dir' = '" + hiveConf + "', 'catalog-table' = 'lost')");
        assertThatThrownBy(() -> tEnv.executeSql("INSERT INTO lost VALUES (1)").await())
                .hasStackTraceContaining(
                        "Cannot reach the Hive metastore of Iceberg catalog 'default_catalog' configured by"
                                + " 'hive-conf-dir' = '" + hiveConf + "'")
                .hasStackTraceContaining("thrift://localhost:1");
    }

    @Test
    void badHiveOptionsNameOptionAndValue() {
        TableEnvironment tEnv = batch();
        tEnv.executeSql(sluiceTable("bad_uri", "x", "").replace(metastore.uri(), "http://localhost:9083"));
        assertThatThrownBy(() -> tEnv.executeSql("INSERT INTO bad_uri VALUES (1, 'a', 'b')")
                        .await())
                .hasStackTraceContaining("Invalid 'uri' 'http://localhost:9083' for 'catalog-type' = 'hive'");
        tEnv.executeSql(sluiceTable("bad_clients", "x", ", 'clients' = 'many'"));
        assertThatThrownBy(() -> tEnv.executeSql("INSERT INTO bad_clients VALUES (1, 'a', 'b')")
                        .await())
                .hasStackTraceContaining("clients")
                .hasStackTraceContaining("many");
        tEnv.executeSql(sluiceTable("bad_conf", "x", ", 'hive-conf-dir' = '" + tmp.resolve("nowhere") + "'"));
        assertThatThrownBy(() -> tEnv.executeSql("INSERT INTO bad_conf VALUES (1, 'a', 'b')")
                        .await())
                .hasStackTraceContaining("'hive-conf-dir' = '" + tmp.resolve("nowhere") + "'");
    }
}
