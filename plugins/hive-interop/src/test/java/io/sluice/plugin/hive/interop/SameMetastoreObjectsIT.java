package io.sluice.plugin.hive.interop;

import io.sluice.testservers.hive.StandaloneMetastore;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.NotNullConstraintsRequest;
import org.apache.hadoop.hive.metastore.api.PrimaryKeysRequest;
import org.apache.hadoop.hive.metastore.api.SQLNotNullConstraint;
import org.apache.hadoop.hive.metastore.api.SQLPrimaryKey;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same DDL run through Sluice's hive catalog and through upstream's {@code HiveCatalog} stores
 * the same metastore objects: the table (type, columns, partition keys, storage descriptor, SerDe
 * and its parameters, table properties), its primary key and NOT NULL constraints, and a view's
 * texts and properties. Only what names the object (its name, its location under the warehouse,
 * the creation time and the metastore's own time stamp, a NOT NULL constraint's generated name)
 * may differ. Each catalog then reads the other's table and view as its own. The two sides create
 * in two databases, and name their primary keys apart: the metastore keeps a constraint's name
 * unique across all its databases (a second {@code PK_...} that Flink derives from the same columns
 * fails).
 */
class SameMetastoreObjectsIT {

    @RegisterExtension
    static final StandaloneMetastore METASTORE = new StandaloneMetastore();

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
        tEnv.executeSql("CREATE DATABASE IF NOT EXISTS h.same");
        tEnv.executeSql("CREATE DATABASE IF NOT EXISTS h.sameu");
    }

    /** Table name, columns and constraints, the rest of the DDL after the columns. */
    static Stream<Arguments> tables() {
        return Stream.of(
                Arguments.of("plain", "id INT, s STRING", "COMMENT 'a plain table'"),
                Arguments.of(
                        "orc_partitioned",
                        "id BIGINT, amount DECIMAL(10, 2), ts TIMESTAMP(9), tags ARRAY<STRING>, dt STRING, h INT",
                        "PARTITIONED BY (dt, h) WITH ('hive.storage.file-format' = 'orc', 'orc.compress' = 'SNAPPY')"),
                Arguments.of(
                        "text_delimited",
                        "id INT, m MAP<STRING, INT>, s STRING",
                        "WITH ('hive.storage.file-format' = 'textfile', 'hive.serde.info.prop.field.delim' = '|',"
                                + " 'hive.serde.info.prop.collection.delim' = ';', 'owner.team' = 'x')"),
                Arguments.of(
                        "external_parquet",
                        "id INT, s STRING",
                        "WITH ('hive.storage.file-format' = 'parquet', 'hive.is-external' = 'true')"),
                Arguments.of(
                        "keyed",
                        "id INT NOT NULL, part STRING NOT NULL, note STRING,"
                                + " CONSTRAINT pk_SIDE PRIMARY KEY (id, part) NOT ENFORCED",
                        "COMMENT 'with constraints'"),
                Arguments.of(
                        "not_null_only",
                        "id INT NOT NULL, note STRING NOT NULL, other STRING",
                        "WITH ('hive.storage.file-format' = 'orc')"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tables")
    void bothCatalogsStoreTheSameTable(String name, String columns, String rest) throws Exception {
        String upstreamRest = rest.contains("WITH (")
                ? rest.replace("WITH (", "WITH ('connector' = 'hive', ")
                : rest + " WITH ('connector' = 'hive')";
        tEnv.executeSql("CREATE TABLE h.same." + name + " (" + columns.replace("SIDE", "s") + ") " + rest);
        tEnv.executeSql("CREATE TABLE u.sameu." + name + " (" + columns.replace("SIDE", "u") + ") " + upstreamRest);

        try (HiveMetaStoreClient client = Interop.client(METASTORE)) {
            Table sluice = client.getTable("same", name);
            Table upstream = client.getTable("sameu", name);
            assertThat(comparable(sluice)).isEqualTo(comparable(upstream));
            assertThat(primaryKey(client, "same", name))
                    .isEqualTo(primaryKey(client, "sameu", name).stream()
                            .map(k -> k.replace("#pk_u#", "#pk_s#"))
                            .collect(Collectors.toList()));
            assertThat(notNull(client, "same", name)).isEqualTo(notNull(client, "sameu", name));
            if (columns.contains("PRIMARY KEY")) {
                assertThat(primaryKey(client, "same", name))
                        .containsExactly("id#1#pk_s#truefalsetrue", "part#2#pk_s#truefalsetrue");
            }
            if (columns.contains("NOT NULL")) {
                assertThat(notNull(client, "same", name)).isNotEmpty();
            }
        }

        // each catalog reads the other's table as it reads its own
        for (String catalog : new String[] {"h", "u"}) {
            assertThat(describe(catalog + ".sameu." + name))
                    .as("%s reads upstream's table as Sluice's", catalog)
                    .isEqualTo(describe(catalog + ".same." + name));
        }
        assertThat(describe("h.same." + name)).isEqualTo(describe("u.same." + name));
    }

    /** A view keeps upstream's encoding: texts, schema properties; either catalog reads either view. */
    @Test
    void bothCatalogsStoreTheSameView() throws Exception {
        tEnv.executeSql("CREATE TABLE h.same.base (id INT, s STRING)");
        tEnv.executeSql("INSERT INTO h.same.base VALUES (1, 'a'), (2, 'b')").await();
        String query = "SELECT id, UPPER(s) AS big FROM h.same.base WHERE id > 1";
        tEnv.executeSql("CREATE VIEW h.same.v COMMENT 'upper' AS " + query);
        tEnv.executeSql("CREATE VIEW u.sameu.v COMMENT 'upper' AS " + query);

        try (HiveMetaStoreClient client = Interop.client(METASTORE)) {
            Table sluice = client.getTable("same", "v");
            Table upstream = client.getTable("sameu", "v");
            assertThat(sluice.getTableType()).isEqualTo("VIRTUAL_VIEW");
            assertThat(comparable(sluice)).isEqualTo(comparable(upstream));
        }
        for (String catalog : new String[] {"h", "u"}) {
            for (String view : new String[] {"same.v", "sameu.v"}) {
                assertThat(Interop.rows(tEnv, "SELECT id, big FROM " + catalog + "." + view))
                        .as("%s reads %s", catalog, view)
                        .containsExactly(Row.of(2, "B"));
            }
        }
    }

    /** The table's stored fields, without those that name it or say when it was made. */
    private static Map<String, Object> comparable(Table table) {
        Map<String, Object> fields = new TreeMap<>();
        fields.put("type", table.getTableType());
        fields.put("owner", table.getOwner());
        fields.put("partitionKeys", table.getPartitionKeys());
        fields.put("viewOriginalText", table.getViewOriginalText());
        fields.put("viewExpandedText", table.getViewExpandedText());
        Map<String, String> parameters = new TreeMap<>(table.getParameters());
        parameters.remove("transient_lastDdlTime");
        fields.put("parameters", parameters);
        StorageDescriptor sd = table.getSd().deepCopy();
        sd.unsetLocation();
        fields.put("sd", sd);
        fields.put("hasLocation", table.getSd().isSetLocation());
        return fields;
    }

    private static List<String> primaryKey(HiveMetaStoreClient client, String database, String table) throws Exception {
        return client.getPrimaryKeys(new PrimaryKeysRequest(database, table)).stream()
                .map((SQLPrimaryKey k) -> k.getColumn_name() + "#" + k.getKey_seq() + "#" + k.getPk_name() + "#"
                        + k.isEnable_cstr() + k.isValidate_cstr() + k.isRely_cstr())
                .collect(Collectors.toList());
    }

    private static List<String> notNull(HiveMetaStoreClient client, String database, String table) throws Exception {
        return client.getNotNullConstraints(new NotNullConstraintsRequest("hive", database, table)).stream()
                .map((SQLNotNullConstraint c) ->
                        c.getColumn_name() + "#" + c.isEnable_cstr() + c.isValidate_cstr() + c.isRely_cstr())
                .sorted()
                .collect(Collectors.toList());
    }

    /** The columns, types, keys and comment as DESCRIBE prints them. */
    private List<Row> describe(String table) throws Exception {
        return Interop.rows(tEnv, "DESCRIBE " + table);
    }
}
