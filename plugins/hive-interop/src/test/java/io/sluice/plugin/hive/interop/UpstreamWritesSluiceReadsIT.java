package io.sluice.plugin.hive.interop;

import io.sluice.testservers.hive.StandaloneMetastore;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.TableType;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Sluice's hive source reads back exactly what upstream's {@code flink-connector-hive} (flat on
 * this module's class path) wrote, in each of the five storage formats of Hive's {@code STORED AS}
 * that upstream writes: Parquet and ORC with Flink's vectorized readers and with Hive's mapred
 * readers, TextFile, SequenceFile and Avro through the table's SerDe. Nulls, a partition column and
 * a projection in another order included.
 */
class UpstreamWritesSluiceReadsIT {

    @RegisterExtension
    static final StandaloneMetastore METASTORE = new StandaloneMetastore();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @BeforeAll
    static void onlyAfterPackaging() {
        Interop.assumeIntegrationTestPhase();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"parquet", "orc", "textfile", "sequencefile", "avro"})
    void sluiceReadsWhatUpstreamWrote(String format) throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        Interop.upstreamCatalog(tEnv, "u", METASTORE);
        Interop.sluiceCatalog(tEnv, "h", METASTORE);
        String table = "r_" + format;
        tEnv.executeSql("CREATE DATABASE IF NOT EXISTS u.rd");
        tEnv.executeSql("CREATE TABLE u.rd." + table
                + " (id BIGINT, name STRING, amount DOUBLE, flag BOOLEAN, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('connector' = 'hive', 'hive.storage.file-format' = '" + format + "')");
        List<Row> expected = new ArrayList<>();
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            String name = i % 9 == 0 ? null : "n" + i + (i % 5 == 0 ? " with space" : "");
            Double amount = i % 7 == 0 ? null : i * 1.5;
            String dt = "d" + (i % 3);
            values.append(i == 0 ? "" : ", ")
                    .append("(CAST(")
                    .append(i)
                    .append(" AS BIGINT), ")
                    .append(name == null ? "CAST(NULL AS STRING)" : "'" + name + "'")
                    .append(", ")
                    .append(amount == null ? "CAST(NULL AS DOUBLE)" : "CAST(" + amount + " AS DOUBLE)")
                    .append(", ")
                    .append(i % 2 == 0 ? "TRUE" : "FALSE")
                    .append(", '")
                    .append(dt)
                    .append("')");
            expected.add(Row.of((long) i, name, amount, i % 2 == 0, dt));
        }
        tEnv.executeSql("INSERT INTO u.rd." + table + " VALUES " + values).await();
        assertThat(Interop.rows(tEnv, "SELECT * FROM u.rd." + table))
                .as("upstream reads its own table")
                .containsExactlyInAnyOrderElementsOf(expected);

        for (String mapred : List.of("false", "true")) {
            tEnv.getConfig().set("table.exec.hive.fallback-mapred-reader", mapred);
            assertThat(Interop.rows(tEnv, "SELECT * FROM h.rd." + table))
                    .as("%s, fallback-mapred-reader %s", format, mapred)
                    .containsExactlyInAnyOrderElementsOf(expected);
            List<Row> projected = new ArrayList<>();
            for (Row r : expected) {
                if ("d1".equals(r.getField(4))) {
                    projected.add(Row.of(r.getField(2), r.getField(0)));
                }
            }
            assertThat(Interop.rows(tEnv, "SELECT amount, id FROM h.rd." + table + " WHERE dt = 'd1'"))
                    .as("%s, fallback-mapred-reader %s, one partition, two columns", format, mapred)
                    .containsExactlyInAnyOrderElementsOf(projected);
        }
    }

    /**
     * Views Hive itself created, straight in the metastore: one in HiveQL that Flink's SQL has no
     * grammar for fails a query naming the view, and can still be described and dropped; one in SQL
     * both share reads.
     */
    @Test
    void aViewInHiveQlFailsNamingTheView() throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        Interop.sluiceCatalog(tEnv, "h", METASTORE);
        tEnv.executeSql("CREATE DATABASE IF NOT EXISTS h.vw");
        tEnv.executeSql("CREATE TABLE h.vw.base (id BIGINT, tags STRING)");
        tEnv.executeSql("INSERT INTO h.vw.base VALUES (CAST(1 AS BIGINT), 'a'), (CAST(2 AS BIGINT), 'b')")
                .await();
        try (HiveMetaStoreClient client = Interop.client(METASTORE)) {
            client.createTable(hiveView(
                    "vw",
                    "exploded",
                    List.of("id", "x"),
                    "SELECT `base`.`id`, `t`.`x` FROM `vw`.`base` LATERAL VIEW explode(array(1, 2)) `t` AS `x`"));
            client.createTable(hiveView("vw", "plain", List.of("id"), "SELECT `base`.`id` FROM `vw`.`base`"));
        }

        assertThat(Interop.rows(tEnv, "SELECT id FROM h.vw.plain"))
                .as("a view Hive created in SQL both share")
                .containsExactlyInAnyOrder(Row.of(1L), Row.of(2L));

        Throwable error = catchThrowable(() -> Interop.rows(tEnv, "SELECT * FROM h.vw.exploded"));
        assertThat(error).isNotNull();
        assertThat(rootMessages(error))
                .contains("`h`.`vw`.`exploded`")
                .contains("cannot parse")
                .contains("LATERAL");
        Throwable joined = catchThrowable(
                () -> Interop.rows(tEnv, "SELECT b.id FROM h.vw.base AS b JOIN h.vw.exploded AS e ON b.id = e.id"));
        assertThat(rootMessages(joined)).as("read inside a larger query").contains("`h`.`vw`.`exploded`");

        assertThat(Interop.rows(tEnv, "DESCRIBE h.vw.exploded"))
                .extracting(r -> r.getField(0))
                .containsExactly("id", "x");
        tEnv.executeSql("DROP VIEW h.vw.exploded");
        try (HiveMetaStoreClient client = Interop.client(METASTORE)) {
            assertThat(client.tableExists("vw", "exploded")).isFalse();
        }
        assertThat(Interop.rows(tEnv, "SELECT id FROM h.vw.base")).hasSize(2);
    }

    private static Table hiveView(String db, String name, List<String> columns, String query) {
        List<FieldSchema> fields = new ArrayList<>();
        for (String column : columns) {
            fields.add(new FieldSchema(column, column.equals("id") ? "bigint" : "int", null));
        }
        StorageDescriptor sd = new StorageDescriptor();
        sd.setCols(fields);
        sd.setSerdeInfo(new SerDeInfo());
        Table view = new Table();
        view.setDbName(db);
        view.setTableName(name);
        view.setTableType(TableType.VIRTUAL_VIEW.name());
        view.setViewOriginalText(query);
        view.setViewExpandedText(query);
        view.setSd(sd);
        view.setPartitionKeys(new ArrayList<>());
        view.setParameters(new HashMap<>());
        return view;
    }

    private static String rootMessages(Throwable error) {
        StringBuilder messages = new StringBuilder();
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            messages.append(t.getMessage()).append('\n');
        }
        return messages.toString();
    }
}
