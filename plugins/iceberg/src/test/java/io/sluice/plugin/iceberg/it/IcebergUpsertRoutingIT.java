package io.sluice.plugin.iceberg.it;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SQL upserts whose versions of one key come from different source subtasks within one checkpoint
 * interval: the sink routes every version of a key to one writer, so the table keeps exactly one
 * row per key, a version of that key. Without the routing, the writers' files of one
 * checkpoint land in one snapshot, whose equality deletes do not remove rows of the same snapshot:
 * every key keeps a version per writer.
 */
class IcebergUpsertRoutingIT {

    private static final int KEYS = 50;
    private static final long COUNT = 4_000;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(4).build());

    @TempDir Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {2, 3})
    void oneRowPerKeyTheLastVersionOfASource(int parallelism) throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        env.enableCheckpointing(300);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        // index i is version i of key i % KEYS; each source subtask reads its own range of indexes
        DataGeneratorSource<Row> source = new DataGeneratorSource<>(i -> Row.of((int) (i % KEYS), i), COUNT,
                RateLimiterStrategy.perSecond(4000), Types.ROW_NAMED(new String[] {"id", "v"}, Types.INT, Types.LONG));
        tEnv.createTemporaryView("versions", env.fromSource(source, WatermarkStrategy.noWatermarks(), "versions"));
        tEnv.executeSql("CREATE TABLE k (id INT NOT NULL, v BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ("
                + "'connector' = 'sluice', 'target' = 'iceberg', 'sluice.plugins.dir' = '" + TestPluginsDir.get() + "', "
                + "'catalog-type' = 'hadoop', 'warehouse' = '" + warehouse.toUri() + "', "
                + "'catalog-database' = 'db', 'catalog-table' = 'k', 'format-version' = '2')");
        tEnv.executeSql("INSERT INTO k /*+ OPTIONS('upsert-enabled' = 'true') */ SELECT id, v FROM versions").await();

        Table table = IcebergTables.load(warehouse, "db", "k");
        List<String> rows = IcebergTables.rows(table);
        Map<Integer, Long> byKey = new HashMap<>();
        for (String row : rows) {
            String[] f = row.split("\\|");
            assertThat(byKey.put(Integer.parseInt(f[0]), Long.parseLong(f[1])))
                    .as("key %s has one row, rows: %s", f[0], rows).isNull();
        }
        assertThat(byKey).hasSize(KEYS);
        for (Map.Entry<Integer, Long> e : byKey.entrySet()) {
            assertThat((int) (e.getValue() % KEYS)).as("a version of key %s", e.getKey()).isEqualTo(e.getKey());
        }
    }
}
