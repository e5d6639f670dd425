package io.sluice.plugin.iceberg.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.rest.RESTCatalogServer;
import org.apache.iceberg.rest.RESTServerExtension;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Secrets of an Iceberg catalog never show: statements that fail (a catalog that cannot be
 * reached, tables with a misspelt option or an unreachable URI, a job that fails after a commit,
 * Iceberg's S3FileIO that cannot write) carry sentinel values in {@code credential}, {@code
 * header.Authorization}, {@code s3.access-key-id}, {@code s3.secret-access-key}, {@code
 * s3.session-token} and the password of a REST {@code uri}, and neither the exception chain, nor
 * anything logged meanwhile, nor {@code SHOW CREATE TABLE} of a Sluice catalog's table, nor {@code
 * EXPLAIN} of a write into it contains one. The messages still name the catalog, table and option
 * at fault.
 */
class IcebergSecretsIT {

    private static final String CREDENTIAL = "client:sentinel-credential-7f3a";
    private static final String AUTHORIZATION = "Bearer sentinel-header-91c2";
    private static final String ACCESS_KEY = "sentinel-access-key-55d1";
    private static final String PASSWORD = "sentinel-password-0b8e";
    private static final String SECRET_ACCESS_KEY = "sentinel-s3-secret-3c9a";
    private static final String SESSION_TOKEN = "sentinel-s3-session-token-e27b";
    private static final List<String> SENTINELS = List.of(
            "sentinel-credential-7f3a", "sentinel-header-91c2", ACCESS_KEY, PASSWORD, SECRET_ACCESS_KEY, SESSION_TOKEN);

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

    private final StringWriter log = new StringWriter();
    private Appender appender;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    /** Everything logged in this JVM while a test runs, at every logger the test configuration enables. */
    @BeforeEach
    void captureLog() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration config = context.getConfiguration();
        appender = WriterAppender.newBuilder()
                .setName("secrets-" + System.nanoTime())
                .setTarget(log)
                .setLayout(PatternLayout.newBuilder()
                        .withPattern("%-5p %c - %m%n%throwable")
                        .build())
                .build();
        appender.start();
        config.getRootLogger().addAppender(appender, null, null);
        context.updateLoggers();
    }

    @AfterEach
    void stopCapture() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        context.getConfiguration().getRootLogger().removeAppender(appender.getName());
        context.updateLoggers();
        appender.stop();
    }

    private static Path warehouse() {
        try {
            return Files.createTempDirectory(Paths.get("target").toAbsolutePath(), "secrets-warehouse");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int port() {
        return Integer.parseInt(REST.config().get(RESTCatalogServer.REST_PORT));
    }

    private static TableEnvironment batch() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "1");
        return tEnv;
    }

    /** The REST catalog options with every kind of secret; {@code uri} as given. */
    private static String restOptions(String uri) {
        return "'sluice.plugins.dir' = '" + TestPluginsDir.get() + "', 'catalog-type' = 'rest', 'uri' = '" + uri + "', "
                + "'credential' = '" + CREDENTIAL + "', 'header.Authorization' = '" + AUTHORIZATION + "', "
                + "'s3.access-key-id' = '" + ACCESS_KEY + "', 's3.secret-access-key' = '" + SECRET_ACCESS_KEY + "', "
                + "'s3.session-token' = '" + SESSION_TOKEN + "', 'cache-enabled' = 'false'";
    }

    private static String unreachableUriWithPassword() {
        // port 1: nothing listens there, so the catalog cannot be opened
        return "http://sluice:" + PASSWORD + "@localhost:1/";
    }

    private void assertNoSentinel(String what, String text) {
        for (String sentinel : SENTINELS) {
            assertThat(text)
                    .as(what + " must not contain the secret " + sentinel)
                    .doesNotContain(sentinel);
        }
    }

    private void assertFailsWithoutSecrets(Throwable failure, String... mustName) {
        assertThat(failure).as("the statement must fail").isNotNull();
        String chain = ExceptionUtils.stringifyException(failure);
        assertNoSentinel("the exception chain", chain);
        for (String name : mustName) {
            assertThat(chain).contains(name);
        }
        assertNoSentinel("the log", log.toString());
    }

    @Test
    void aCatalogThatCannotBeOpenedNamesItselfAndShowsNoSecret() {
        TableEnvironment tEnv = batch();

        Throwable failure = catchThrowable(() -> tEnv.executeSql("CREATE CATALOG unreachable WITH ('type' = 'sluice', "
                + "'target' = 'iceberg', " + restOptions(unreachableUriWithPassword()) + ")"));

        assertFailsWithoutSecrets(failure, "catalog 'unreachable'", "http://******@localhost:1/");
    }

    @Test
    void aCatalogWithAMisspeltOptionNamesItAndShowsNoSecret() {
        TableEnvironment tEnv = batch();

        Throwable failure = catchThrowable(() -> tEnv.executeSql("CREATE CATALOG misspelt WITH ('type' = 'sluice', "
                + "'target' = 'iceberg', " + restOptions("http://localhost:" + port() + "/") + ", 'tokn' = 'x')"));

        assertFailsWithoutSecrets(failure, "catalog 'misspelt'", "[tokn]");
    }

    @Test
    void tablesWithAMisspeltOptionOrAnUnreachableUriNameThemAndShowNoSecret() {
        TableEnvironment tEnv = batch();
        tEnv.executeSql("CREATE TABLE misspelt (id BIGINT) WITH ('connector' = 'sluice', 'target' = 'iceberg', "
                + restOptions("http://localhost:" + port() + "/") + ", 'catalog-database' = 'web', "
                + "'catalog-table' = 'misspelt', 'write-formt' = 'orc')");
        tEnv.executeSql("CREATE TABLE unreachable (id BIGINT) WITH ('connector' = 'sluice', 'target' = 'iceberg', "
                + restOptions(unreachableUriWithPassword())
                + ", 'catalog-database' = 'web', 'catalog-table' = 'gone')");

        assertFailsWithoutSecrets(
                catchThrowable(
                        () -> tEnv.executeSql("INSERT INTO misspelt VALUES (1)").await()),
                "default_catalog.default_database.misspelt",
                "[write-formt]");
        assertFailsWithoutSecrets(
                catchThrowable(() ->
                        tEnv.executeSql("INSERT INTO unreachable VALUES (1)").await()),
                "default_catalog.default_database.unreachable",
                "http://******@localhost:1/");
        assertFailsWithoutSecrets(
                catchThrowable(() ->
                        tEnv.executeSql("SELECT * FROM misspelt").collect().hasNext()),
                "default_catalog.default_database.misspelt",
                "[write-formt]");
    }

    @Test
    void aFailingJobIntoACatalogTableKeepsTheCommittedRowsAndShowsNoSecret() throws Exception {
        TableEnvironment tEnv = batch();
        tEnv.executeSql("CREATE CATALOG ice WITH ('type' = 'sluice', 'target' = 'iceberg', "
                + restOptions("http://localhost:" + port() + "/") + ")");
        tEnv.executeSql("CREATE DATABASE IF NOT EXISTS ice.jobs");
        tEnv.executeSql("CREATE TABLE ice.jobs.numbers (n INT)");
        tEnv.executeSql("INSERT INTO ice.jobs.numbers VALUES (1), (2), (3)").await();

        Throwable failure = catchThrowable(
                () -> tEnv.executeSql("INSERT INTO ice.jobs.numbers SELECT 10 / (n - n) FROM ice.jobs.numbers")
                        .await());

        assertFailsWithoutSecrets(failure, "ArithmeticException");
        assertThat(IcebergTables.rows(REST.client().loadTable(TableIdentifier.of("jobs", "numbers"))))
                .as("the rows committed before the failed job")
                .containsExactlyInAnyOrder("1", "2", "3");
        String ddl = collectText(tEnv, "SHOW CREATE TABLE ice.jobs.numbers");
        assertNoSentinel("SHOW CREATE TABLE", ddl);
        assertThat(ddl)
                .contains("'credential' = '******'")
                .contains("'header.Authorization' = '******'")
                .contains("'s3.secret-access-key' = '******'")
                .contains("'s3.session-token' = '******'");
        assertNoSentinel(
                "EXPLAIN",
                tEnv.explainSql(
                        "INSERT INTO ice.jobs.numbers VALUES (5)",
                        org.apache.flink.table.api.ExplainDetail.JSON_EXECUTION_PLAN));
        // the catalog table still writes, with the secrets the catalog keeps
        tEnv.executeSql("INSERT INTO ice.jobs.numbers VALUES (4)").await();
        assertThat(IcebergTables.rows(REST.client().loadTable(TableIdentifier.of("jobs", "numbers"))))
                .containsExactlyInAnyOrder("1", "2", "3", "4");
        assertThat(log.toString()).as("the log was captured").contains("ArithmeticException");
        assertNoSentinel("the log", log.toString());
    }

    /**
     * Iceberg's S3FileIO with sentinel keys and session token that cannot write (the table lives on
     * the REST server's local warehouse, and the endpoint has no server): the failure names the
     * table's file, and no key shows.
     */
    @Test
    void aFailingS3FileIoShowsNoSecret() throws Exception {
        TableEnvironment tEnv = batch();
        tEnv.executeSql("CREATE CATALOG s3io WITH ('type' = 'sluice', 'target' = 'iceberg', "
                + restOptions("http://localhost:" + port() + "/")
                + ", 'io-impl' = 'org.apache.iceberg.aws.s3.S3FileIO', 's3.endpoint' = 'http://127.0.0.1:1', "
                + "'s3.path-style-access' = 'true', 'client.region' = 'us-east-1')");
        tEnv.executeSql("CREATE DATABASE IF NOT EXISTS s3io.s3jobs");
        tEnv.executeSql("CREATE TABLE s3io.s3jobs.numbers (n INT)");

        Throwable failure = catchThrowable(() ->
                tEnv.executeSql("INSERT INTO s3io.s3jobs.numbers VALUES (1)").await());

        assertFailsWithoutSecrets(failure, "S3");
        String ddl = collectText(tEnv, "SHOW CREATE TABLE s3io.s3jobs.numbers");
        assertNoSentinel("SHOW CREATE TABLE", ddl);
        assertThat(ddl).contains("'s3.secret-access-key' = '******'").contains("'s3.session-token' = '******'");
    }

    private static String collectText(TableEnvironment tEnv, String sql) throws Exception {
        StringBuilder text = new StringBuilder();
        try (CloseableIterator<Row> rows = tEnv.executeSql(sql).collect()) {
            rows.forEachRemaining(r -> text.append(r).append('\n'));
        }
        return text.toString();
    }
}
