package io.sluice.plugin.iceberg.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.rest.RESTCatalogServer;
import org.apache.iceberg.rest.RESTServerExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code 'catalog-type' = 'rest'} against Iceberg's own REST catalog server (the REST
 * compatibility kit's {@code RESTCatalogServer} on Jetty, backed by a Hadoop catalog in a local
 * warehouse), started in this JVM on a free port: Sluice creates and writes the table through the
 * REST API, and a REST client from the test class path reads the rows back.
 */
class IcebergRestCatalogIT {

    private static final Path WAREHOUSE = warehouse();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @RegisterExtension
    static final RESTServerExtension REST = new RESTServerExtension(Map.of(
            RESTCatalogServer.REST_PORT, RESTServerExtension.FREE_PORT,
            CatalogProperties.CATALOG_IMPL, HadoopCatalog.class.getName(),
            CatalogProperties.WAREHOUSE_LOCATION, WAREHOUSE.toUri().toString()));

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    private static Path warehouse() {
        try {
            return Files.createTempDirectory(Paths.get("target").toAbsolutePath(), "rest-warehouse");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String uri() {
        return "http://localhost:" + REST.config().get(RESTCatalogServer.REST_PORT) + "/";
    }

    private static TableEnvironment batch() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        return tEnv;
    }

    private static String sluiceTable(String name, String uri, String extraOptions) {
        return "CREATE TABLE " + name + " (id BIGINT, name STRING) WITH ('connector' = 'sluice', 'target' = 'iceberg', "
                + "'sluice.plugins.dir' = '" + TestPluginsDir.get()
                + "', 'catalog-type' = 'rest', 'catalog-name' = 'rest', "
                + "'uri' = '" + uri + "', 'catalog-database' = 'web', 'catalog-table' = 'events'" + extraOptions + ")";
    }

    @Test
    void writesThroughTheRestCatalogAndReadsBackWithARestClient() throws Exception {
        TableEnvironment tEnv = batch();
        // a token is sent as a bearer header; the test server accepts any
        tEnv.executeSql(
                sluiceTable(
                        "events",
                        uri(),
                        ", 'token' = 'secret-token', 'cache-enabled' = 'false', "
                                + "'header.X-Sluice-Test' = 'yes', 'table-default.write.metadata.previous-versions-max' = '7'"));
        tEnv.executeSql("INSERT INTO events VALUES (1, 'a'), (2, 'b'), (3, CAST(NULL AS STRING))")
                .await();

        Table table = REST.client().loadTable(TableIdentifier.of("web", "events"));
        assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrder("1|a", "2|b", "3|null");
        assertThat(IcebergTables.snapshots(table)).hasSize(1);
        assertThat(Paths.get(URI.create(table.location()))).startsWith(WAREHOUSE);
        // a 'table-default.' catalog property reached the REST catalog client that created the table
        assertThat(table.properties()).containsEntry("write.metadata.previous-versions-max", "7");
    }

    @Test
    void badRestOptionsNameOptionAndValue() {
        TableEnvironment tEnv = batch();
        tEnv.executeSql(sluiceTable("no_scheme", "localhost:8181", ""));
        assertThatThrownBy(() ->
                        tEnv.executeSql("INSERT INTO no_scheme VALUES (1, 'a')").await())
                .hasStackTraceContaining("Invalid 'uri' 'localhost:8181' for 'catalog-type' = 'rest'");
        tEnv.executeSql(sluiceTable("zero_cache", uri(), ", 'cache.expiration-interval-ms' = '0'"));
        assertThatThrownBy(() -> tEnv.executeSql("INSERT INTO zero_cache VALUES (1, 'a')")
                        .await())
                .hasStackTraceContaining("Invalid 'cache.expiration-interval-ms' 0");
        tEnv.executeSql(sluiceTable("misspelt", uri(), ", 'tokn' = 'secret'"));
        assertThatThrownBy(() ->
                        tEnv.executeSql("INSERT INTO misspelt VALUES (1, 'a')").await())
                .hasStackTraceContaining("Unsupported options for target 'iceberg': [tokn]")
                .hasStackTraceContaining("header.*");
    }
}
