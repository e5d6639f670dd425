package io.sluice.plugin.hive.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Partition pruning of bounded Hive reads with any filter on partition columns (issue 34, item 4):
 * ranges, {@code BETWEEN}, {@code LIKE}, functions of a column, casts and {@code AND}/{@code
 * OR}/{@code NOT} mixes prune as equalities do. A table of 12 partitions (six days over three
 * months, two regions) is queried with each form; before each query every partition the filter
 * excludes gets a file that is not Parquet, so reading it would fail the query naming the file:
 * the query succeeding with exactly the rows of the kept partitions proves that those and only
 * those were opened. {@code EXPLAIN} names the kept partitions and no other.
 */
class HivePartitionPruningIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    private static final List<String> DAYS =
            List.of("2024-01-15", "2024-01-31", "2024-02-01", "2024-02-15", "2024-03-01", "2024-03-31");
    private static final List<String> REGIONS = List.of("eu", "us");
    private static final int ROWS_PER_PARTITION = 3;

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        HivePluginDir.assumeIntegrationTestPhase();
    }

    @Test
    void anyFilterOnPartitionColumnsReadsOnlyTheMatchingPartitions() throws Exception {
        TableEnvironment tEnv = table();
        Path table = tmp.resolve("metastore/warehouse/db.db/t");

        check(tEnv, table, "dt > '2024-02-01'", (dt, region) -> dt.compareTo("2024-02-01") > 0);
        check(
                tEnv,
                table,
                "dt BETWEEN '2024-01-31' AND '2024-02-15'",
                (dt, region) -> dt.compareTo("2024-01-31") >= 0 && dt.compareTo("2024-02-15") <= 0);
        check(tEnv, table, "dt LIKE '2024-03%'", (dt, region) -> dt.startsWith("2024-03"));
        check(tEnv, table, "SUBSTR(dt, 1, 7) = '2024-01'", (dt, region) -> dt.startsWith("2024-01"));
        check(tEnv, table, "CAST(dt AS DATE) >= DATE '2024-03-01'", (dt, region) -> dt.compareTo("2024-03-01") >= 0);
        check(
                tEnv,
                table,
                "(dt < '2024-02-01' AND region = 'eu') OR NOT (region = 'eu')",
                (dt, region) -> (dt.compareTo("2024-02-01") < 0 && region.equals("eu")) || !region.equals("eu"));
        check(
                tEnv,
                table,
                "region <> 'us' AND dt NOT IN ('2024-01-15', '2024-03-31')",
                (dt, region) -> region.equals("eu") && !dt.equals("2024-01-15") && !dt.equals("2024-03-31"));
        check(
                tEnv,
                table,
                "UPPER(region) = 'US' AND dt >= '2024-03-01'",
                (dt, region) -> region.equals("us") && dt.compareTo("2024-03-01") >= 0);
        check(tEnv, table, "dt = '2024-02-15'", (dt, region) -> dt.equals("2024-02-15"));
        check(tEnv, table, "dt > '2025-01-01'", (dt, region) -> false);
    }

    /**
     * The table's partition columns are strings, so the hive catalog lists its partitions for the
     * planner: equalities go to the metastore as a filter (its audit log shows {@code
     * get_partitions_by_filter}), anything else is listed by name and evaluated by the planner.
     */
    @Test
    void equalitiesAreFilteredByTheMetastoreAndTheRestByThePlanner() throws Exception {
        TableEnvironment tEnv = table();
        Path table = tmp.resolve("metastore/warehouse/db.db/t");
        String equalities = "dt IN ('2024-01-31', '2024-03-01') AND region = 'us'";
        String byFilter = metastoreCalls(() -> check(
                tEnv,
                table,
                equalities,
                (dt, region) -> region.equals("us") && (dt.equals("2024-01-31") || dt.equals("2024-03-01"))));
        assertThat(byFilter).contains("cmd=get_partitions_by_filter : tbl=hive.db.t");
        String byName =
                metastoreCalls(() -> check(tEnv, table, "region LIKE 'e%'", (dt, region) -> region.equals("eu")));
        assertThat(byName)
                .contains("cmd=get_partition_names : tbl=hive.db.t")
                .doesNotContain("get_partitions_by_filter");
    }

    /**
     * An integer partition column, with Hive's default partition (a NULL value): the source lists
     * the partitions (the default one as NULL, as its rows read), and the planner evaluates ranges,
     * functions and {@code IS NULL} on them.
     */
    @Test
    void anIntegerPartitionColumnAndTheDefaultPartitionPruneAsTheirRowsRead() throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + tmp.resolve("metastore") + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
        tEnv.executeSql("CREATE TABLE h.db.n (id BIGINT, hr INT) PARTITIONED BY (hr) WITH"
                + " ('hive.storage.file-format' = 'parquet', 'sink.partition-commit.policy.kind' = 'metastore')");
        tEnv.executeSql("INSERT INTO h.db.n VALUES (CAST(0 AS BIGINT), CAST(NULL AS INT)), (CAST(1 AS BIGINT), 1),"
                        + " (CAST(2 AS BIGINT), 2), (CAST(3 AS BIGINT), 3), (CAST(4 AS BIGINT), 4),"
                        + " (CAST(5 AS BIGINT), 5), (CAST(6 AS BIGINT), 6)")
                .await();
        Path table = tmp.resolve("metastore/warehouse/db.db/n");
        List<String> all = List.of("__HIVE_DEFAULT_PARTITION__", "1", "2", "3", "4", "5", "6");
        Map<String, List<String>> cases = new LinkedHashMap<>();
        cases.put("hr > 3", List.of("4", "5", "6"));
        cases.put("MOD(hr, 2) = 0", List.of("2", "4", "6"));
        cases.put("hr IS NULL", List.of("__HIVE_DEFAULT_PARTITION__"));
        cases.put("hr IS NULL OR hr < 2", List.of("__HIVE_DEFAULT_PARTITION__", "1"));
        for (Map.Entry<String, List<String>> c : cases.entrySet()) {
            List<Path> broken = new ArrayList<>();
            for (String hr : all) {
                if (!c.getValue().contains(hr)) {
                    Path file = table.resolve("hr=" + hr).resolve("part-broken");
                    Files.writeString(file, "not a parquet file");
                    broken.add(file);
                }
            }
            List<String> expected = new ArrayList<>();
            for (String hr : c.getValue()) {
                expected.add(hr.startsWith("__") ? "+I[0, null]" : "+I[" + hr + ", " + hr + "]");
            }
            String query = "SELECT * FROM h.db.n WHERE " + c.getKey();
            String calls;
            try {
                List<String> rows = new ArrayList<>();
                calls = metastoreCalls(() -> rows.addAll(collect(tEnv, query)));
                assertThat(rows).as(c.getKey()).containsExactlyInAnyOrderElementsOf(expected);
            } finally {
                for (Path file : broken) {
                    Files.delete(file);
                }
            }
            assertThat(calls).as(c.getKey()).contains("cmd=get_partition_names : tbl=hive.db.n");
            String plan = tEnv.explainSql(query);
            for (String hr : all) {
                String spec = "{hr=" + (hr.startsWith("__") ? "null" : hr) + "}";
                if (c.getValue().contains(hr)) {
                    assertThat(plan).as(c.getKey()).contains(spec);
                } else {
                    assertThat(plan).as(c.getKey()).doesNotContain(spec);
                }
            }
        }
    }

    private interface Query {
        void run() throws Exception;
    }

    /**
     * The metastore's audit lines ({@code cmd=...}) logged while {@code query} runs: the embedded
     * metastore logs through the plugin's class loader, whose log4j context writes the same file
     * as the test's.
     */
    private static String metastoreCalls(Query query) throws Exception {
        Path file = Path.of(System.getProperty("java.io.tmpdir"), "test.log");
        long before = Files.exists(file) ? Files.size(file) : 0;
        query.run();
        byte[] all = Files.readAllBytes(file);
        String added =
                new String(all, (int) before, all.length - (int) before, java.nio.charset.StandardCharsets.UTF_8);
        return added.lines().filter(line -> line.contains("cmd=")).collect(java.util.stream.Collectors.joining("\n"));
    }

    /**
     * A filter on partition columns and one on a data column: the partitions are pruned by the
     * first, the rows by both.
     */
    @Test
    void aFilterOnADataColumnStillFiltersTheRowsOfTheKeptPartitions() throws Exception {
        TableEnvironment tEnv = table();
        Path table = tmp.resolve("metastore/warehouse/db.db/t");
        BiPredicate<String, String> kept = (dt, region) -> dt.compareTo("2024-03-01") >= 0;
        List<Path> broken = breakPartitions(table, (dt, region) -> !kept.test(dt, region));
        try {
            List<String> expected = new ArrayList<>();
            forEachRow((dt, region, id, amount) -> {
                if (kept.test(dt, region) && amount > 1) {
                    expected.add("+I[" + id + ", " + amount + ", " + dt + ", " + region + "]");
                }
            });
            assertThat(collect(tEnv, "SELECT * FROM h.db.t WHERE dt >= '2024-03-01' AND amount > 1"))
                    .hasSize(8)
                    .containsExactlyInAnyOrderElementsOf(expected);
        } finally {
            for (Path file : broken) {
                Files.delete(file);
            }
        }
    }

    /**
     * A filter on a data column alone prunes nothing: every partition is read (a broken file in
     * any one of them fails the query) and the rows are exact.
     */
    @Test
    void aFilterOnADataColumnAloneReadsEveryPartition() throws Exception {
        TableEnvironment tEnv = table();
        Path table = tmp.resolve("metastore/warehouse/db.db/t");
        List<String> expected = new ArrayList<>();
        forEachRow((dt, region, id, amount) -> {
            if (amount == 2) {
                expected.add("+I[" + id + ", " + amount + ", " + dt + ", " + region + "]");
            }
        });
        assertThat(collect(tEnv, "SELECT * FROM h.db.t WHERE amount = 2"))
                .hasSize(12)
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(tEnv.explainSql("SELECT * FROM h.db.t WHERE amount = 2")).doesNotContain("partitions=");

        List<Path> broken = breakPartitions(table, (dt, region) -> dt.equals("2024-03-31") && region.equals("us"));
        assertThat(catchThrowable(() -> collect(tEnv, "SELECT * FROM h.db.t WHERE amount = 2")))
                .hasStackTraceContaining("part-broken");
        Files.delete(broken.get(0));
    }

    /**
     * The query's rows are exactly those of the partitions {@code kept} allows, with every other
     * partition unreadable while it runs; {@code EXPLAIN} names the kept partitions and no other.
     */
    private void check(TableEnvironment tEnv, Path table, String filter, BiPredicate<String, String> kept)
            throws Exception {
        String query = "SELECT * FROM h.db.t WHERE " + filter;
        List<String> expected = new ArrayList<>();
        List<String> keptSpecs = new ArrayList<>();
        List<String> prunedSpecs = new ArrayList<>();
        for (String dt : DAYS) {
            for (String region : REGIONS) {
                (kept.test(dt, region) ? keptSpecs : prunedSpecs).add("{dt=" + dt + ", region=" + region + "}");
            }
        }
        forEachRow((dt, region, id, amount) -> {
            if (kept.test(dt, region)) {
                expected.add("+I[" + id + ", " + amount + ", " + dt + ", " + region + "]");
            }
        });
        List<Path> broken = breakPartitions(table, (dt, region) -> !kept.test(dt, region));
        try {
            assertThat(collect(tEnv, query))
                    .as(filter)
                    .hasSize(keptSpecs.size() * ROWS_PER_PARTITION)
                    .containsExactlyInAnyOrderElementsOf(expected);
        } finally {
            for (Path file : broken) {
                Files.delete(file);
            }
        }
        String plan = tEnv.explainSql(query);
        if (keptSpecs.isEmpty()) {
            // nothing to read: the planner replaces the scan with no rows at all
            assertThat(plan).as(filter).doesNotContain("TableSourceScan");
            return;
        }
        String scan = plan.lines()
                .filter(line -> line.contains("TableSourceScan"))
                .findFirst()
                .orElseThrow();
        assertThat(scan).as(filter).contains("partitions=[");
        for (String spec : keptSpecs) {
            assertThat(scan).as(filter).contains(spec);
        }
        assertThat(scan.split("\\{dt=", -1)).as(filter).hasSize(keptSpecs.size() + 1);
        for (String pruned : prunedSpecs) {
            assertThat(scan).as(filter).doesNotContain(pruned);
        }
    }

    /** A batch environment with {@code h.db.t}: 12 partitions of {@link #ROWS_PER_PARTITION} rows in Parquet. */
    private TableEnvironment table() throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + tmp.resolve("metastore") + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
        tEnv.executeSql("CREATE TABLE h.db.t (id BIGINT, amount INT, dt STRING, region STRING)"
                + " PARTITIONED BY (dt, region) WITH ('hive.storage.file-format' = 'parquet',"
                + " 'sink.partition-commit.policy.kind' = 'metastore')");
        StringBuilder values = new StringBuilder();
        forEachRow((dt, region, id, amount) -> values.append(values.length() == 0 ? "" : ", ")
                .append("(CAST(")
                .append(id)
                .append(" AS BIGINT), ")
                .append(amount)
                .append(", '")
                .append(dt)
                .append("', '")
                .append(region)
                .append("')"));
        tEnv.executeSql("INSERT INTO h.db.t VALUES " + values).await();
        assertThat(collect(tEnv, "SELECT COUNT(*) FROM h.db.t"))
                .containsExactly("+I[" + DAYS.size() * REGIONS.size() * ROWS_PER_PARTITION + "]");
        return tEnv;
    }

    /** Puts a file that is not Parquet into each partition {@code which} names; returns the files. */
    private static List<Path> breakPartitions(Path table, BiPredicate<String, String> which) throws Exception {
        List<Path> broken = new ArrayList<>();
        for (String dt : DAYS) {
            for (String region : REGIONS) {
                if (which.test(dt, region)) {
                    Path dir = table.resolve("dt=" + dt).resolve("region=" + region);
                    assertThat(dir).isDirectory();
                    Path file = dir.resolve("part-broken");
                    Files.writeString(file, "not a parquet file");
                    broken.add(file);
                }
            }
        }
        return broken;
    }

    private interface RowConsumer {
        void accept(String dt, String region, long id, int amount);
    }

    /** The table's rows: partition {@code p} (days times regions) holds ids {@code 10p+1..10p+3}, amounts 1..3. */
    private static void forEachRow(RowConsumer consumer) {
        Map<String, Integer> partitions = new LinkedHashMap<>();
        for (String dt : DAYS) {
            for (String region : REGIONS) {
                partitions.put(dt + "/" + region, partitions.size());
            }
        }
        partitions.forEach((name, p) -> {
            String[] parts = name.split("/");
            for (int k = 1; k <= ROWS_PER_PARTITION; k++) {
                consumer.accept(parts[0], parts[1], 10L * p + k, k);
            }
        });
    }

    private static List<String> collect(TableEnvironment tEnv, String query) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        return rows;
    }
}
