package io.sluice.plugin.iceberg.it;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.NumberSequenceIterator;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SQL upserts whose versions of one key come from different source subtasks within one checkpoint
 * interval: the sink routes every version of a key to one writer, so the table keeps exactly one
 * row per key, a version of that key. Without the routing, the writers' files of one
 * checkpoint land in one snapshot, whose equality deletes do not remove rows of the same snapshot:
 * every key keeps a version per writer.
 *
 * <p>The surviving version is the last one some source subtask emitted: each subtask reads one
 * split of the generator's number sequence in order, and its rows reach the key's writer in that
 * order, so the writer's last version of a key is the last of its split. The table is read three
 * ways that must agree: Iceberg's generic reader, upstream iceberg-flink's SQL source, and a merge
 * on read by hand from the raw files ({@link IcebergTables#rowsMergedByHand}), so a failure tells a
 * reader's error from what the sink committed. {@code -Dsluice.it.rounds=N} repeats each case.
 */
class IcebergUpsertRoutingIT {

    private static final int KEYS = 50;
    private static final long COUNT = 4_000;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    static Stream<Arguments> cases() {
        int rounds = Integer.getInteger("sluice.it.rounds", 1);
        return IntStream.rangeClosed(1, rounds)
                .boxed()
                .flatMap(round -> Stream.of(Arguments.of(2, round), Arguments.of(3, round)));
    }

    @ParameterizedTest(name = "parallelism {0} (round {1})")
    @MethodSource("cases")
    void oneRowPerKeyTheLastVersionOfASource(int parallelism, int round) throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        env.enableCheckpointing(300);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        // index i is version i of key i % KEYS; each source subtask reads its own range of indexes
        DataGeneratorSource<Row> source = new DataGeneratorSource<>(
                i -> Row.of((int) (i % KEYS), i),
                COUNT,
                RateLimiterStrategy.perSecond(4000),
                Types.ROW_NAMED(new String[] {"id", "v"}, Types.INT, Types.LONG));
        tEnv.createTemporaryView("versions", env.fromSource(source, WatermarkStrategy.noWatermarks(), "versions"));
        tEnv.executeSql("CREATE TABLE k (id INT NOT NULL, v BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ("
                + "'connector' = 'sluice', 'target' = 'iceberg', 'sluice.plugins.dir' = '" + TestPluginsDir.get()
                + "', "
                + "'catalog-type' = 'hadoop', 'warehouse' = '" + warehouse.toUri() + "', "
                + "'catalog-database' = 'db', 'catalog-table' = 'k', 'format-version' = '2')");
        tEnv.executeSql("INSERT INTO k /*+ OPTIONS('upsert-enabled' = 'true') */ SELECT id, v FROM versions")
                .await();

        Table table = IcebergTables.load(warehouse, "db", "k");
        List<String> rows = IcebergTables.rows(table);
        assertThat(IcebergTables.rowsMergedByHand(table))
                .as("merged on read by hand from the raw files")
                .containsExactlyInAnyOrderElementsOf(rows);
        assertThat(upstreamRows(warehouse))
                .as("read by upstream iceberg-flink")
                .containsExactlyInAnyOrderElementsOf(rows);
        Map<Integer, Long> byKey = new HashMap<>();
        for (String row : rows) {
            String[] f = row.split("\\|");
            assertThat(byKey.put(Integer.parseInt(f[0]), Long.parseLong(f[1])))
                    .as("key %s has one row, rows: %s", f[0], rows)
                    .isNull();
        }
        assertThat(byKey).hasSize(KEYS);
        for (Map.Entry<Integer, Long> e : byKey.entrySet()) {
            assertThat((int) (e.getValue() % KEYS))
                    .as("a version of key %s", e.getKey())
                    .isEqualTo(e.getKey());
        }

        // the last version of each key in each split the source subtasks read (NumberSequenceSource's splits)
        Map<Integer, Set<Long>> lastOfASplit = new HashMap<>();
        for (NumberSequenceIterator split : new NumberSequenceIterator(0, COUNT - 1).split(parallelism)) {
            Map<Integer, Long> last = new HashMap<>();
            split.forEachRemaining(i -> last.put((int) (i % KEYS), i));
            last.forEach((key, v) ->
                    lastOfASplit.computeIfAbsent(key, k -> new TreeSet<>()).add(v));
        }
        for (Map.Entry<Integer, Long> e : byKey.entrySet()) {
            assertThat(e.getValue())
                    .as(() ->
                            "key " + e.getKey() + " keeps the last version of a split; its rows and the table's files:"
                                    + IcebergTables.describe(table, e.getKey()))
                    .isIn(lastOfASplit.get(e.getKey()));
        }
    }

    /** {@code SELECT * FROM db.k} through upstream's own catalog and SQL source, as {@code id|v}. */
    private static List<String> upstreamRows(Path warehouse) throws Exception {
        TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        batch.executeSql("CREATE CATALOG upstream WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', "
                + "'warehouse' = '" + warehouse.toUri() + "')");
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it =
                batch.executeSql("SELECT id, v FROM upstream.db.k").collect()) {
            it.forEachRemaining(r -> rows.add(r.getField(0) + "|" + r.getField(1)));
        }
        return rows;
    }
}
