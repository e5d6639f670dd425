package io.sluice.plugin.hive.it;

import io.sluice.runtime.plugin.PluginBound;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code CREATE CATALOG ... 'target' = 'hive'} with an embedded Derby metastore, in Flink's default
 * dialect on a MiniCluster: databases, a partitioned Hive table stored as Parquet, a partition,
 * {@code SHOW} and {@code DESCRIBE}; then Hive's own metastore client, a second one on the same
 * metastore, reads what was created, and the directories are checked on disk.
 */
@Tag("both-lines")
class HiveCatalogIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(1)
                    .build());

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        HivePluginDir.assumeIntegrationTestPhase();
    }

    @Test
    void aPartitionedParquetHiveTableIsCreatedInTheEmbeddedMetastore() throws Exception {
        Path metastore = tmp.resolve("metastore");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.sales COMMENT 'orders by day'");
        // Flink's default dialect: the storage format is the table option the Hive dialect's
        // STORED AS becomes; no 'connector' = 'hive' needed, every table of the catalog is a Hive table
        tEnv.executeSql(
                "CREATE TABLE h.sales.orders (id BIGINT, amount DECIMAL(10, 2), note STRING, dt STRING, region STRING)"
                        + " PARTITIONED BY (dt, region) WITH ('hive.storage.file-format' = 'parquet')");
        tEnv.executeSql("ALTER TABLE h.sales.orders ADD PARTITION (dt = '2026-12-01', region = 'eu')");

        tEnv.executeSql("USE CATALOG h");
        assertThat(column(tEnv, "SHOW DATABASES", 0)).contains("default", "sales");
        assertThat(column(tEnv, "SHOW TABLES IN sales", 0)).containsExactly("orders");
        List<String> describe = rows(tEnv, "DESCRIBE sales.orders").stream()
                .map(r -> r.getField(0) + " " + r.getField(1))
                .collect(Collectors.toList());
        assertThat(describe)
                .containsExactly("id BIGINT", "amount DECIMAL(10, 2)", "note STRING", "dt STRING", "region STRING");
        assertThat(column(tEnv, "SHOW PARTITIONS sales.orders", 0)).containsExactly("dt=2026-12-01/region=eu");

        Catalog catalog = tEnv.getCatalog("h").orElseThrow();
        CatalogBaseTable table = catalog.getTable(new ObjectPath("sales", "orders"));
        assertThat(((CatalogTable) table).getPartitionKeys()).containsExactly("dt", "region");

        try (MetastoreProbe probe = MetastoreProbe.of(catalog)) {
            assertThat(probe.databases()).contains("default", "sales");
            MetastoreProbe.HiveTable orders = probe.table("sales", "orders");
            assertThat(orders.type()).isEqualTo("MANAGED_TABLE");
            assertThat(orders.inputFormat()).isEqualTo("org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat");
            assertThat(orders.outputFormat())
                    .isEqualTo("org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat");
            assertThat(orders.serde()).isEqualTo("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe");
            // a Hive table: columns and partition keys in Hive types, not Flink properties
            assertThat(orders.columns()).containsExactly("id bigint", "amount decimal(10,2)", "note string");
            assertThat(orders.partitionKeys()).containsExactly("dt string", "region string");
            Path tableDir = Paths.get(URI.create(orders.location()));
            assertThat(tableDir)
                    .isEqualTo(
                            metastore.resolve("warehouse").resolve("sales.db").resolve("orders"));
            assertThat(tableDir).isDirectory();

            assertThat(probe.partitionNames("sales", "orders")).containsExactly("dt=2026-12-01/region=eu");
            Path partitionDir =
                    Paths.get(URI.create(probe.partitionLocation("sales", "orders", "dt=2026-12-01/region=eu")));
            assertThat(partitionDir).isEqualTo(tableDir.resolve("dt=2026-12-01").resolve("region=eu"));
            assertThat(partitionDir).isDirectory();
        }
        assertThat(metastore.resolve("metastore_db")).isDirectory();
        assertThat(Files.exists(Paths.get("derby.log")))
                .as("derby.log goes under metastore.dir")
                .isFalse();

        // the Hive classes came from the plugin, next to another Hive (hive-common 2.3.10) on the
        // test's own class path, as a job may have: each side sees its own version
        ClassLoader plugin = ((PluginBound) catalog).pluginClassLoader();
        assertThat(((PluginBound) catalog).unwrap().getClass().getClassLoader()).isSameAs(plugin);
        assertThat(hiveVersion(HiveCatalogIT.class.getClassLoader())).isEqualTo("2.3.10");
        assertThat(hiveVersion(plugin)).isEqualTo("3.1.3");
        assertThat(Class.forName("org.apache.hadoop.hive.conf.HiveConf", false, plugin))
                .isNotSameAs(Class.forName(
                        "org.apache.hadoop.hive.conf.HiveConf", false, HiveCatalogIT.class.getClassLoader()));
        // and the Hive connector is the plugin's only
        assertThatThrownBy(() -> Class.forName("org.apache.flink.table.catalog.hive.HiveCatalog"))
                .isInstanceOf(ClassNotFoundException.class);

        tEnv.executeSql("ALTER TABLE sales.orders DROP PARTITION (dt = '2026-12-01', region = 'eu')");
        assertThat(column(tEnv, "SHOW PARTITIONS sales.orders", 0)).isEmpty();
        tEnv.executeSql("DROP TABLE sales.orders");
        assertThat(column(tEnv, "SHOW TABLES IN sales", 0)).isEmpty();
        assertThat(metastore.resolve("warehouse").resolve("sales.db").resolve("orders"))
                .doesNotExist();
    }

    /**
     * Functions, as upstream's catalog keeps them: a Flink function of the job, created in the
     * metastore, listed, called in a query (its class from the job's class path, never from the
     * plugin's) and dropped.
     */
    @Test
    void aFlinkFunctionIsKeptInTheMetastoreAndCalled() throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + tmp.resolve("metastore-functions") + "')");
        tEnv.executeSql("CREATE DATABASE h.fn");
        tEnv.executeSql("CREATE FUNCTION h.fn.shout AS '" + Shout.class.getName() + "' LANGUAGE JAVA");
        assertThat(column(tEnv, "SHOW USER FUNCTIONS IN h.fn", 0)).contains("shout");
        assertThat(column(tEnv, "SELECT h.fn.shout(s) FROM (VALUES ('hi'), ('ho')) AS v(s)", 0))
                .containsExactlyInAnyOrder("HI!", "HO!");
        tEnv.executeSql("DROP FUNCTION h.fn.shout");
        assertThat(column(tEnv, "SHOW USER FUNCTIONS IN h.fn", 0)).doesNotContain("shout");
    }

    @Test
    void theSameMetastoreDirectoryFindsTheSameTablesInANewCatalog() throws Exception {
        Path metastore = tmp.resolve("reopened");
        String options = "'type' = 'sluice', 'target' = 'hive', 'sluice.plugins.dir' = '" + HivePluginDir.get()
                + "', 'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "'";
        TableEnvironment first = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        first.executeSql("CREATE CATALOG h1 WITH (" + options + ")");
        first.executeSql("CREATE DATABASE h1.db");
        first.executeSql("CREATE TABLE h1.db.t (a INT, b STRING) PARTITIONED BY (b)");
        first.executeSql("DROP CATALOG h1"); // closes its metastore client

        TableEnvironment second = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        second.executeSql("CREATE CATALOG h2 WITH (" + options + ", 'default-database' = 'db')");
        second.executeSql("USE CATALOG h2");
        assertThat(column(second, "SHOW TABLES", 0)).containsExactly("t");
        try (MetastoreProbe probe = MetastoreProbe.of(second.getCatalog("h2").orElseThrow())) {
            // no 'hive.storage.file-format': Hive's default format (hive.default.fileformat, TextFile)
            assertThat(probe.table("db", "t").inputFormat()).isEqualTo("org.apache.hadoop.mapred.TextInputFormat");
            assertThat(probe.table("db", "t").partitionKeys()).containsExactly("b string");
        }
    }

    @Test
    void tablesOfOtherConnectorsAndBadOptionsAreClearErrors() {
        Path metastore = tmp.resolve("errors");
        String plugins = "'type' = 'sluice', 'target' = 'hive', 'sluice.plugins.dir' = '" + HivePluginDir.get() + "'";
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG h WITH (" + plugins + ", 'metastore' = 'embedded', 'metastore.dir' = '"
                + metastore + "')");
        assertThat(catchThrowable(
                        () -> tEnv.executeSql("CREATE TABLE h.`default`.g (a INT) WITH ('connector' = 'datagen')")))
                .hasStackTraceContaining("a hive catalog holds Hive tables only");

        assertThat(catchThrowable(() -> tEnv.executeSql("CREATE CATALOG c1 WITH (" + plugins
                        + ", 'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "', 'nope' = 'x')")))
                .hasStackTraceContaining("Unsupported options for a hive catalog: [nope]")
                .hasStackTraceContaining("metastore.dir");
        assertThat(catchThrowable(
                        () -> tEnv.executeSql("CREATE CATALOG c2 WITH (" + plugins + ", 'metastore' = 'embedded')")))
                .hasStackTraceContaining("'metastore' = 'embedded' needs 'metastore.dir'");
        assertThat(catchThrowable(() -> tEnv.executeSql("CREATE CATALOG c3 WITH (" + plugins
                        + ", 'metastore' = 'embedded', 'metastore.dir' = 'relative/dir')")))
                .hasStackTraceContaining("must be an absolute path or URI");
        // no hive-site.xml with metastore URIs: never quietly an embedded metastore
        assertThat(catchThrowable(() -> tEnv.executeSql("CREATE CATALOG c4 WITH (" + plugins + ")")))
                .hasStackTraceContaining("No metastore URIs");
        assertThat(catchThrowable(() -> tEnv.executeSql(
                        "CREATE CATALOG c5 WITH (" + plugins + ", 'metastore' = 'embedded', 'metastore.dir' = '"
                                + metastore + "', 'hive-version' = '2.3.9')")))
                .hasStackTraceContaining("only 3.1.x versions work");
        assertThat(catchThrowable(
                        () -> tEnv.executeSql("CREATE CATALOG c6 WITH (" + plugins + ", 'metastore' = 'elsewhere')")))
                .hasStackTraceContaining("Invalid 'metastore' 'elsewhere'");
    }

    /**
     * SHOW CREATE TABLE prints a statement that makes the same Hive table: run under another name
     * it gives a table with the same storage descriptor (formats, SerDe and its properties),
     * columns, partition keys and table properties, for ORC, Parquet and a delimited TextFile.
     */
    @Test
    void showCreateTablePrintsAStatementThatMakesTheSameHiveTable() throws Exception {
        Path metastore = tmp.resolve("show-create");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
        String[][] tables = {
            {"src_orc", "'hive.storage.file-format' = 'orc', 'orc.compress' = 'SNAPPY'"},
            {"src_parquet", "'hive.storage.file-format' = 'parquet', 'parquet.compression' = 'GZIP'"},
            {"src_text", "'hive.storage.file-format' = 'textfile', 'hive.serde.info.prop.field.delim' = '|'"},
        };
        for (String[] t : tables) {
            tEnv.executeSql(
                    "CREATE TABLE h.db." + t[0] + " (id BIGINT, note STRING, dt STRING) PARTITIONED BY (dt)" + " WITH ("
                            + t[1] + ", 'owner.team' = 'ingest', 'sink.partition-commit.policy.kind' = 'metastore')");
            String ddl = column(tEnv, "SHOW CREATE TABLE h.db." + t[0], 0).get(0);
            String copy = ddl.replace("`" + t[0] + "`", "`copy_" + t[0] + "`");
            assertThat(copy).as(ddl).isNotEqualTo(ddl);
            tEnv.executeSql(copy);

            try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
                MetastoreProbe.HiveTable original = probe.table("db", t[0]);
                MetastoreProbe.HiveTable made = probe.table("db", "copy_" + t[0]);
                assertThat(made.inputFormat()).as(ddl).isEqualTo(original.inputFormat());
                assertThat(made.outputFormat()).as(ddl).isEqualTo(original.outputFormat());
                assertThat(made.serde()).as(ddl).isEqualTo(original.serde());
                assertThat(made.columns()).isEqualTo(original.columns());
                assertThat(made.partitionKeys()).isEqualTo(original.partitionKeys());
                assertThat(made.location()).isNotEqualTo(original.location());
                assertThat(probe.serdeParameters("db", "copy_" + t[0]))
                        .as(ddl)
                        .isEqualTo(probe.serdeParameters("db", t[0]));
                assertThat(withoutHiveBookkeeping(probe.tableParameters("db", "copy_" + t[0])))
                        .as(ddl)
                        .isEqualTo(withoutHiveBookkeeping(probe.tableParameters("db", t[0])))
                        .containsEntry("owner.team", "ingest")
                        .containsEntry("sink.partition-commit.policy.kind", "metastore");
            }
        }
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.table("db", "copy_src_orc").inputFormat()).contains("Orc");
            assertThat(probe.tableParameters("db", "copy_src_orc")).containsEntry("orc.compress", "SNAPPY");
            assertThat(probe.serdeParameters("db", "copy_src_text")).containsEntry("field.delim", "|");
        }
    }

    /**
     * ALTER TABLE ... SET writes the table back as the catalog read it: its properties under
     * 'hive.table.property.', the Sluice options a job runs with. Twice in a row, the properties
     * must neither nest ('hive.table.property.hive.table.property.x') nor gain Sluice's options, and
     * SHOW CREATE TABLE still prints each property once, updated as asked.
     */
    @Test
    void alterTableSetTwiceKeepsTheTablesPropertiesAsTheyAreAndUpdatesTheOnesSet() throws Exception {
        Path metastore = tmp.resolve("alter");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
        tEnv.executeSql("CREATE TABLE h.db.t (id BIGINT, dt STRING) PARTITIONED BY (dt) WITH ("
                + "'hive.storage.file-format' = 'orc', 'orc.compress' = 'SNAPPY', 'owner.team' = 'ingest')");
        java.util.Map<String, String> before;
        String location;
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            before = withoutHiveBookkeeping(probe.tableParameters("db", "t"));
            location = probe.table("db", "t").location();
        }

        tEnv.executeSql("ALTER TABLE h.db.t SET ('owner.team' = 'lake')");
        tEnv.executeSql("ALTER TABLE h.db.t SET ('sink.partition-commit.policy.kind' = 'metastore')");

        String ddl = column(tEnv, "SHOW CREATE TABLE h.db.t", 0).get(0);
        assertThat(ddl)
                .doesNotContain("hive.table.property.hive.table.property.")
                .contains("'hive.table.property.owner.team' = 'lake'")
                .contains("'hive.table.property.orc.compress' = 'SNAPPY'")
                .contains("'sink.partition-commit.policy.kind' = 'metastore'")
                .contains("'hive.storage.file-format' = 'orc'");
        assertThat(ddl.split("owner\\.team", -1)).as(ddl).hasSize(2);
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            java.util.Map<String, String> after = withoutHiveBookkeeping(probe.tableParameters("db", "t"));
            after.keySet().removeAll(List.of("last_modified_by", "last_modified_time")); // the ALTER's own
            java.util.Map<String, String> expected = new java.util.TreeMap<>(before);
            expected.put("owner.team", "lake");
            expected.put("sink.partition-commit.policy.kind", "metastore");
            assertThat(after).as("the metastore's table parameters").isEqualTo(expected);
            assertThat(probe.table("db", "t").inputFormat()).contains("Orc");
            assertThat(probe.table("db", "t").location()).isEqualTo(location);
        }

        // RESET names a property as SET does, although the catalog shows it under the prefix
        tEnv.executeSql("ALTER TABLE h.db.t RESET ('owner.team')");
        tEnv.executeSql("ALTER TABLE h.db.t RESET ('hive.table.property.orc.compress')");
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.tableParameters("db", "t"))
                    .doesNotContainKeys("owner.team", "orc.compress")
                    .containsEntry("sink.partition-commit.policy.kind", "metastore");
            assertThat(probe.table("db", "t").inputFormat()).contains("Orc");
        }
    }

    /**
     * SHOW PARTITIONS lists a partition's keys in the table's order and the default partition
     * (a NULL partition value) by Hive's name for it, which is also what SELECT reads back.
     */
    @Test
    void showPartitionsListsKeysInTheTablesOrderAndTheDefaultPartitionByItsName() throws Exception {
        Path metastore = tmp.resolve("partitions");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
        tEnv.executeSql(
                "CREATE TABLE h.db.hourly (id BIGINT, `day` STRING, `hour` STRING) PARTITIONED BY (`day`, `hour`)"
                        + " WITH ('hive.storage.file-format' = 'parquet')");
        tEnv.executeSql("INSERT INTO h.db.hourly /*+ OPTIONS('sink.partition-commit.policy.kind' = 'metastore') */"
                        + " VALUES (1, '2022-08-08', '14'), (2, CAST(NULL AS STRING), '15')")
                .await();

        assertThat(column(tEnv, "SHOW PARTITIONS h.db.hourly", 0))
                .containsExactlyInAnyOrder("day=2022-08-08/hour=14", "day=__HIVE_DEFAULT_PARTITION__/hour=15");
        assertThat(column(tEnv, "SHOW PARTITIONS h.db.hourly PARTITION (`hour` = '14')", 0))
                .containsExactly("day=2022-08-08/hour=14");
        assertThat(column(tEnv, "SELECT `day` FROM h.db.hourly WHERE id = 2", 0))
                .containsExactly("__HIVE_DEFAULT_PARTITION__");
    }

    /** A table's parameters without the statistics and times the metastore and writers keep. */
    private static java.util.Map<String, String> withoutHiveBookkeeping(java.util.Map<String, String> parameters) {
        java.util.Map<String, String> own = new java.util.TreeMap<>(parameters);
        own.keySet()
                .removeAll(List.of(
                        "transient_lastDdlTime",
                        "bucketing_version",
                        "numFiles",
                        "numRows",
                        "rawDataSize",
                        "totalSize",
                        "COLUMN_STATS_ACCURATE",
                        "numFilesErasureCoded"));
        return own;
    }

    /** The Hive version the Hive classes of {@code loader} report. */
    private static String hiveVersion(ClassLoader loader) throws Exception {
        return (String) Class.forName("org.apache.hive.common.util.HiveVersionInfo", true, loader)
                .getMethod("getVersion")
                .invoke(null);
    }

    private static List<Row> rows(TableEnvironment tEnv, String sql) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(sql).collect()) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    private static List<String> column(TableEnvironment tEnv, String sql, int field) throws Exception {
        return rows(tEnv, sql).stream()
                .map(r -> String.valueOf(r.getField(field)))
                .collect(Collectors.toList());
    }
}
