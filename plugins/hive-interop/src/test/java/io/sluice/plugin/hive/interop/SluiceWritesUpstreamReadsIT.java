package io.sluice.plugin.hive.interop;

import io.sluice.testservers.hive.StandaloneMetastore;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sluice writes (its {@code 'target' = 'hive'} catalog, the hive plugin in its own class loader)
 * partitioned Hive tables in every storage format it supports, with both writers where there are
 * two; upstream's {@code HiveCatalog} (flink-connector-hive with hive-exec 3.1.3 on the flat class
 * path) reads each table back through the same standalone metastore, with its native and its
 * mapred readers, and gets exactly the rows that were written: nulls, separators inside strings,
 * several partitions, ints, bigints, doubles, decimals, dates and timestamps.
 */
class SluiceWritesUpstreamReadsIT {

    @RegisterExtension
    static final StandaloneMetastore METASTORE = new StandaloneMetastore();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    private static final String COLUMNS =
            "id INT, big BIGINT, d DOUBLE, amount DECIMAL(10, 2), s STRING, birthday DATE, ts TIMESTAMP(9), dt STRING";

    private static final String VALUES = " VALUES"
            + " (1, CAST(10000000000 AS BIGINT), CAST(1.5 AS DOUBLE), CAST(12.34 AS DECIMAL(10, 2)), 'plain',"
            + "   DATE '2026-12-01', TIMESTAMP '2026-12-01 10:15:30.123', '2026-12-01'),"
            + " (2, CAST(-5 AS BIGINT), CAST(-0.25 AS DOUBLE), CAST(-0.01 AS DECIMAL(10, 2)), 'a, b | c\\d',"
            + "   DATE '1970-01-01', TIMESTAMP '1999-12-31 23:59:59', '2026-12-01'),"
            + " (CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS DOUBLE), CAST(NULL AS DECIMAL(10, 2)),"
            + "   CAST(NULL AS STRING), CAST(NULL AS DATE), CAST(NULL AS TIMESTAMP(9)), '2026-12-02'),"
            + " (4, CAST(0 AS BIGINT), CAST(1e10 AS DOUBLE), CAST(99999999.99 AS DECIMAL(10, 2)), '',"
            + "   DATE '2000-02-29', TIMESTAMP '2026-06-15 00:00:00', '2026-12-03'),"
            + " (5, CAST(9223372036854775807 AS BIGINT), CAST(-1e-3 AS DOUBLE), CAST(0 AS DECIMAL(10, 2)),"
            + "   'say \"hi\"', DATE '2026-12-31', TIMESTAMP '2026-12-31 23:59:59.999', '2026-12-02')";

    private static final List<Row> EXPECTED = List.of(
            Row.of(
                    1,
                    10000000000L,
                    1.5,
                    new BigDecimal("12.34"),
                    "plain",
                    LocalDate.of(2026, 12, 1),
                    LocalDateTime.of(2026, 12, 1, 10, 15, 30, 123_000_000),
                    "2026-12-01"),
            Row.of(
                    2,
                    -5L,
                    -0.25,
                    new BigDecimal("-0.01"),
                    "a, b | c\\d",
                    LocalDate.of(1970, 1, 1),
                    LocalDateTime.of(1999, 12, 31, 23, 59, 59),
                    "2026-12-01"),
            Row.of(null, null, null, null, null, null, null, "2026-12-02"),
            Row.of(
                    4,
                    0L,
                    1e10,
                    new BigDecimal("99999999.99"),
                    "",
                    LocalDate.of(2000, 2, 29),
                    LocalDateTime.of(2026, 6, 15, 0, 0),
                    "2026-12-03"),
            Row.of(
                    5,
                    Long.MAX_VALUE,
                    -1e-3,
                    new BigDecimal("0.00"),
                    "say \"hi\"",
                    LocalDate.of(2026, 12, 31),
                    LocalDateTime.of(2026, 12, 31, 23, 59, 59, 999_000_000),
                    "2026-12-02"));

    private TableEnvironment tEnv;

    @BeforeAll
    static void onlyAfterPackaging() {
        Interop.assumeIntegrationTestPhase();
    }

    @BeforeEach
    void catalogs() {
        tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        Interop.sluiceCatalog(tEnv, "h", METASTORE);
        Interop.upstreamCatalog(tEnv, "u", METASTORE);
        tEnv.executeSql("CREATE DATABASE IF NOT EXISTS h.db");
    }

    /** Table name, the table's storage options, {@code table.exec.hive.fallback-mapred-writer} (or null: the default). */
    static Stream<Arguments> formats() {
        return Stream.of(
                // an escaping text table: separators and the escape character inside values come back
                Arguments.of(
                        "text_escaped",
                        "'hive.storage.file-format' = 'textfile', 'hive.serde.info.prop.field.delim' = ',',"
                                + " 'hive.serde.info.prop.escape.delim' = '\\'",
                        null),
                Arguments.of("seq", "'hive.storage.file-format' = 'sequencefile'", null),
                Arguments.of("orc_mapred", "'hive.storage.file-format' = 'orc'", "true"),
                Arguments.of("orc_native", "'hive.storage.file-format' = 'orc'", "false"),
                Arguments.of("parquet_mapred", "'hive.storage.file-format' = 'parquet'", "true"),
                Arguments.of("parquet_native", "'hive.storage.file-format' = 'parquet'", "false"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void upstreamReadsWhatSluiceWrote(String table, String storage, String mapredWriter) throws Exception {
        tEnv.executeSql("CREATE TABLE h.db." + table + " (" + COLUMNS + ") PARTITIONED BY (dt) WITH (" + storage + ")");
        if (mapredWriter != null) {
            tEnv.getConfig().set("table.exec.hive.fallback-mapred-writer", mapredWriter);
        }
        tEnv.executeSql("INSERT INTO h.db." + table
                        + " /*+ OPTIONS('sink.partition-commit.policy.kind' = 'metastore') */" + VALUES)
                .await();

        for (String mapredReader : new String[] {"false", "true"}) {
            tEnv.getConfig().set("table.exec.hive.fallback-mapred-reader", mapredReader);
            assertThat(Interop.rows(tEnv, "SELECT id, big, d, amount, s, birthday, ts, dt FROM u.db." + table))
                    .as("%s read by upstream, fallback-mapred-reader %s", table, mapredReader)
                    .containsExactlyInAnyOrderElementsOf(EXPECTED);
            // and by Sluice's own scan source, with the same reader
            assertThat(Interop.rows(tEnv, "SELECT id, big, d, amount, s, birthday, ts, dt FROM h.db." + table))
                    .as("%s read by Sluice, fallback-mapred-reader %s", table, mapredReader)
                    .containsExactlyInAnyOrderElementsOf(EXPECTED);
        }
        assertPartitions(table, "dt=2026-12-01", "dt=2026-12-02", "dt=2026-12-03");
    }

    /** OpenCSVSerde: every column a string, values quoted; commas and quotes inside values come back. */
    @Test
    void upstreamReadsAnOpenCsvTableSluiceWrote() throws Exception {
        tEnv.executeSql("CREATE TABLE h.db.csv (id STRING, note STRING, dt STRING) PARTITIONED BY (dt) WITH ("
                + " 'hive.storage.file-format' = 'textfile',"
                + " 'hive.serde.lib.class.name' = 'org.apache.hadoop.hive.serde2.OpenCSVSerde')");
        tEnv.executeSql("INSERT INTO h.db.csv /*+ OPTIONS('sink.partition-commit.policy.kind' = 'metastore') */ VALUES"
                        + " ('1', 'a, b', 'x'), ('2', 'say \"hi\"', 'x'), ('3', '', 'y'), ('4', 'tab\there', 'y')")
                .await();
        for (String catalog : new String[] {"u", "h"}) {
            assertThat(Interop.rows(tEnv, "SELECT id, note, dt FROM " + catalog + ".db.csv"))
                    .as("read through catalog " + catalog)
                    .containsExactlyInAnyOrder(
                            Row.of("1", "a, b", "x"),
                            Row.of("2", "say \"hi\"", "x"),
                            Row.of("3", "", "y"),
                            Row.of("4", "tab\there", "y"));
        }
        assertPartitions("csv", "dt=x", "dt=y");
    }

    /** The metastore has each partition once, at its directory under the table's location. */
    private static void assertPartitions(String table, String... names) throws Exception {
        HiveMetaStoreClient client = Interop.client(METASTORE);
        try {
            assertThat(client.listPartitionNames("db", table, (short) -1)).containsExactlyInAnyOrder(names);
            String location = client.getTable("db", table).getSd().getLocation();
            assertThat(Paths.get(URI.create(location)))
                    .isEqualTo(METASTORE.warehouse().resolve("db.db").resolve(table));
            for (String name : names) {
                assertThat(client.getPartition("db", table, name).getSd().getLocation())
                        .isEqualTo(location + "/" + name);
            }
        } finally {
            client.close();
        }
    }
}
