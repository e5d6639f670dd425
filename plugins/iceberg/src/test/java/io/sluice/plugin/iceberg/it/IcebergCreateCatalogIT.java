package io.sluice.plugin.iceberg.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code CREATE CATALOG ... WITH ('type' = 'sluice', 'target' = 'iceberg', ...)}: Iceberg's own
 * Flink catalog for the metadata (databases, tables, partitions), Sluice's pipeline for the writes;
 * a table created through it, and one an upstream catalog created, are written with plain {@code
 * INSERT INTO catalog.db.table}.
 */
class IcebergCreateCatalogIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    @Test
    void tablesOfTheCatalogAreCreatedAndWrittenThroughSluice() throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG ice WITH ('type' = 'sluice', 'target' = 'iceberg', "
                + "'sluice.plugins.dir' = '" + TestPluginsDir.get() + "', "
                + "'catalog-type' = 'hadoop', 'warehouse' = '" + warehouse.toUri() + "', 'cache-enabled' = 'false')");
        tEnv.executeSql("CREATE DATABASE ice.db");
        tEnv.executeSql("CREATE TABLE ice.db.events (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt) "
                + "WITH ('write.format.default' = 'orc')");
        tEnv.executeSql("INSERT INTO ice.db.events VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, 'c', 'x')")
                .await();
        // a hint works on catalog tables as on connector tables
        tEnv.executeSql("INSERT INTO ice.db.events /*+ OPTIONS('write-format' = 'avro') */ VALUES (4, 'd', 'y')")
                .await();

        Table table = IcebergTables.load(warehouse, "db", "events");
        assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrder("1|a|x", "2|b|y", "3|c|x", "4|d|y");
        assertThat(table.spec().fields()).extracting(f -> f.name()).containsExactly("dt");
        assertThat(table.properties()).containsEntry("write.format.default", "orc");
        assertThat(table.currentSnapshot().addedDataFiles(table.io()))
                .allSatisfy(f -> assertThat(f.format().name()).isEqualTo("AVRO"));
        assertThat(IcebergTables.snapshots(table))
                .allSatisfy(s -> assertThat(s.summary()).containsKey("flink.job-id"));

        // and read back through Sluice's scan source, whole or pruned by a filter
        assertThat(collect(tEnv, "SELECT * FROM ice.db.events"))
                .containsExactlyInAnyOrder("1|a|x", "2|b|y", "3|c|x", "4|d|y");
        assertThat(collect(tEnv, "SELECT name FROM ice.db.events WHERE dt = 'y'"))
                .containsExactlyInAnyOrder("b", "d");

        tEnv.executeSql("USE CATALOG ice");
        tEnv.executeSql("USE db");
        assertThat(tEnv.listTables()).containsExactly("events");
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

    @Test
    void aTableTheUpstreamConnectorCreatedIsWrittenThroughTheSluiceCatalog() throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG upstream WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', "
                + "'warehouse' = '" + warehouse.toUri() + "')");
        tEnv.executeSql("CREATE DATABASE upstream.db");
        tEnv.executeSql("CREATE TABLE upstream.db.t (id INT, s STRING)");
        tEnv.executeSql("INSERT INTO upstream.db.t VALUES (1, 'upstream')").await();
        tEnv.executeSql("CREATE CATALOG ice WITH ('type' = 'sluice', 'target' = 'iceberg', "
                + "'sluice.plugins.dir' = '" + TestPluginsDir.get() + "', "
                + "'catalog-type' = 'hadoop', 'warehouse' = '" + warehouse.toUri() + "')");
        tEnv.executeSql("INSERT INTO ice.db.t VALUES (2, 'sluice')").await();

        assertThat(IcebergTables.rows(IcebergTables.load(warehouse, "db", "t")))
                .containsExactlyInAnyOrder("1|upstream", "2|sluice");
        assertThat(collect(tEnv, "SELECT * FROM ice.db.t")).containsExactlyInAnyOrder("1|upstream", "2|sluice");
    }

    @Test
    void defaultDatabaseAndBaseNamespaceNameWhereUnqualifiedTablesGo() throws Exception {
        Path warehouse = tmp.resolve("namespaced");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG ice WITH ('type' = 'sluice', 'target' = 'iceberg', "
                + "'sluice.plugins.dir' = '" + TestPluginsDir.get() + "', "
                + "'catalog-type' = 'hadoop', 'warehouse' = '" + warehouse.toUri() + "', "
                + "'default-database' = 'sales', 'base-namespace' = 'lake')");
        tEnv.executeSql("CREATE DATABASE ice.sales");
        tEnv.executeSql("USE CATALOG ice");
        assertThat(tEnv.getCurrentDatabase()).isEqualTo("sales");
        tEnv.executeSql("CREATE TABLE t (id BIGINT)");
        tEnv.executeSql("INSERT INTO t VALUES (1), (2)").await();

        // the database is a namespace below the base namespace
        try (org.apache.iceberg.hadoop.HadoopCatalog catalog = IcebergTables.catalog(warehouse)) {
            Table table = catalog.loadTable(org.apache.iceberg.catalog.TableIdentifier.of(
                    org.apache.iceberg.catalog.Namespace.of("lake", "sales"), "t"));
            assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrder("1", "2");
        }
        assertThat(collect(tEnv, "SELECT * FROM t")).containsExactlyInAnyOrder("1", "2");
    }

    @Test
    void badCatalogOptionsAreClearErrors() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        String plugins = "'sluice.plugins.dir' = '" + TestPluginsDir.get() + "'";
        assertThat(catchThrowable(
                        () -> tEnv.executeSql("CREATE CATALOG c1 WITH ('type' = 'sluice', " + "'target' = 'iceberg', "
                                + plugins + ", 'catalog-type' = 'hadoop', 'warehouse' = '/w', 'nope' = 'x')")))
                .hasStackTraceContaining("Unsupported options for an iceberg catalog: [nope]")
                .hasStackTraceContaining("warehouse");
        assertThat(catchThrowable(() -> tEnv.executeSql("CREATE CATALOG c2 WITH ('type' = 'sluice', "
                        + "'target' = 'iceberg', " + plugins + ", 'catalog-type' = 'hadoop')")))
                .hasStackTraceContaining("'warehouse'");
        assertThat(catchThrowable(() -> tEnv.executeSql("CREATE CATALOG c3 WITH ('type' = 'sluice', "
                        + "'target' = 'iceberg', " + plugins + ", 'catalog-type' = 'hadoop', 'warehouse' = '/w', "
                        + "'cache.expiration-interval-ms' = '0')")))
                .hasStackTraceContaining("cache.expiration-interval-ms");
    }
}
