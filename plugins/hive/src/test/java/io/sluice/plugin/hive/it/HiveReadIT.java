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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bounded reads of Hive tables (issue 12, first step): {@code SELECT} from a table of a hive
 * catalog reads what the hive target wrote, in every format it writes, through upstream's Hive
 * input format (vectorized Parquet and ORC, Hive's mapred readers and the table's SerDe for text
 * and SequenceFile, and for Parquet with {@code table.exec.hive.fallback-mapred-reader}).
 */
class HiveReadIT {

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
        HivePluginDir.assumeIntegrationTestPhase();
    }

    @Test
    void selectReadsBackWhatTheTargetWroteInEveryFormat() throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + tmp.resolve("metastore") + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
        StringBuilder values = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            String name = i % 7 == 0 ? "NULL" : "'n" + i + "'";
            values.append(i == 0 ? "" : ", ")
                    .append("(CAST(")
                    .append(i)
                    .append(" AS BIGINT), CAST(")
                    .append(name)
                    .append(" AS STRING), CAST(")
                    .append(i)
                    .append(".25 AS DOUBLE), '2026-12-0")
                    .append(1 + i % 3)
                    .append("')");
            expected.add("+I[" + i + ", " + (i % 7 == 0 ? "null" : "n" + i) + ", " + i + ".25, 2026-12-0" + (1 + i % 3)
                    + "]");
        }
        for (String format : List.of("parquet", "orc", "textfile", "sequencefile")) {
            String table = "h.db.t_" + format;
            tEnv.executeSql("CREATE TABLE " + table + " (id BIGINT, name STRING, amount DOUBLE, dt STRING)"
                    + " PARTITIONED BY (dt) WITH ('hive.storage.file-format' = '" + format + "',"
                    + " 'sink.partition-commit.policy.kind' = 'metastore')");
            tEnv.executeSql("INSERT INTO " + table + " VALUES " + values).await();

            assertThat(collect(tEnv, "SELECT * FROM " + table))
                    .as(format)
                    .containsExactlyInAnyOrderElementsOf(expected);
            // one partition, fewer columns, in another order
            List<String> onePartition = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                if (1 + i % 3 == 2) {
                    onePartition.add("+I[" + i + ".25, " + i + "]");
                }
            }
            assertThat(collect(tEnv, "SELECT amount, id FROM " + table + " WHERE dt = '2026-12-02'"))
                    .as(format)
                    .containsExactlyInAnyOrderElementsOf(onePartition);
        }
        // LIMIT: each reader stops after that many rows; what comes out is still the table's
        for (String format : List.of("parquet", "textfile")) {
            List<String> limited = collect(tEnv, "SELECT * FROM h.db.t_" + format + " LIMIT 5");
            assertThat(limited).as(format).hasSize(5);
            assertThat(expected).as(format).containsAll(limited);
        }
        // a view of a hive catalog, read with the catalog current
        tEnv.executeSql("CREATE VIEW h.db.december_third AS SELECT id, name FROM h.db.t_orc WHERE dt = '2026-12-03'");
        tEnv.useCatalog("h");
        tEnv.useDatabase("db");
        List<String> third = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            if (1 + i % 3 == 3) {
                third.add("+I[" + i + ", " + (i % 7 == 0 ? "null" : "n" + i) + "]");
            }
        }
        assertThat(collect(tEnv, "SELECT * FROM december_third")).containsExactlyInAnyOrderElementsOf(third);

        // partition pruning: a partition the WHERE excludes is not even opened, so a broken file there is never read
        Path broken = tmp.resolve("metastore/warehouse/db.db/t_parquet/dt=2026-12-01/part-broken");
        java.nio.file.Files.writeString(broken, "not a parquet file");
        assertThat(collect(tEnv, "SELECT COUNT(*) FROM t_parquet WHERE dt = '2026-12-02'"))
                .containsExactly("+I[" + onePartitionSize() + "]");
        assertThat(collect(tEnv, "SELECT COUNT(*) FROM t_parquet WHERE dt IN ('2026-12-02', '2026-12-03') AND id >= 0"))
                .containsExactly("+I[33]");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(
                        () -> collect(tEnv, "SELECT COUNT(*) FROM t_parquet")))
                .hasStackTraceContaining("part-broken");
        java.nio.file.Files.delete(broken);

        // Hive's mapred reader for Parquet, on request
        tEnv.getConfig().set("table.exec.hive.fallback-mapred-reader", "true");
        assertThat(collect(tEnv, "SELECT * FROM t_parquet")).containsExactlyInAnyOrderElementsOf(expected);
    }

    /**
     * The page's {@code fact_tz} / {@code fact_daily} example: an external table whose partition
     * is a directory of another table's deeper partitions. Its subdirectories are read, unless
     * {@code table.exec.hive.read-partition-with-subdirectory.enabled} is false: then upstream's
     * {@code Not a file} error.
     */
    @Test
    void aPartitionsSubdirectoriesAreReadUnlessSwitchedOff() throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        Path metastore = tmp.resolve("metastore-subdirectories");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.useCatalog("h");
        tEnv.executeSql("CREATE TABLE fact_tz (x INT, `day` STRING, `hour` STRING) PARTITIONED BY (`day`, `hour`)"
                + " WITH ('hive.storage.file-format' = 'textfile', 'sink.partition-commit.policy.kind' = 'metastore')");
        tEnv.executeSql("INSERT INTO fact_tz SELECT 1, '2022-8-8', '14'").await();
        tEnv.executeSql("INSERT INTO fact_tz SELECT 2, '2022-8-8', '15'").await();
        Path factTz = metastore.resolve("warehouse/fact_tz"); // the default database is the warehouse itself
        tEnv.executeSql("CREATE TABLE fact_daily (x INT, ds STRING) PARTITIONED BY (ds) WITH ("
                + " 'hive.is-external' = 'true', 'hive.location-uri' = '" + factTz.toUri() + "',"
                + " 'hive.storage.file-format' = 'textfile')");
        tEnv.executeSql("ALTER TABLE fact_daily ADD PARTITION (ds = '2022-07-07') WITH ('hive.location-uri' = '"
                + factTz.resolve("day=2022-8-8").toUri() + "')");

        assertThat(collect(tEnv, "SELECT x, ds FROM fact_daily"))
                .containsExactlyInAnyOrder("+I[1, 2022-07-07]", "+I[2, 2022-07-07]");

        tEnv.getConfig().set("table.exec.hive.read-partition-with-subdirectory.enabled", "false");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> collect(tEnv, "SELECT x FROM fact_daily")))
                .hasStackTraceContaining("Not a file");

        tEnv.getConfig().set("table.exec.hive.read-partition-with-subdirectory.enabled", "true");
        tEnv.getConfig().set("table.exec.hive.load-partition-splits.thread-num", "0");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> collect(tEnv, "SELECT x FROM fact_daily")))
                .hasStackTraceContaining("table.exec.hive.load-partition-splits.thread-num")
                .hasStackTraceContaining("0");
    }

    /**
     * The two thread pools of upstream's split enumerator, counted: {@code
     * table.exec.hive.calculate-partition-size.thread-num} threads size an ORC table's partitions
     * (for the split size), then {@code table.exec.hive.load-partition-splits.thread-num} threads
     * split them. The four partitions are in a file system of the test's ({@code probefs}, in the
     * hive plugin's class loader through {@code hadoop-conf-dir}) that holds each pool's first call
     * per partition until the pool's threads are all inside, and reports how many were at once.
     */
    @Test
    void theEnumeratorSizesAndSplitsPartitionsWithTheConfiguredThreads() throws Exception {
        Path hadoopConf = java.nio.file.Files.createDirectories(tmp.resolve("hadoop-conf-probe"));
        java.nio.file.Files.writeString(
                hadoopConf.resolve("core-site.xml"),
                "<configuration><property>"
                        + "<name>fs.probefs.impl</name><value>io.sluice.it.hivefs.ConcurrencyProbeFileSystem</value>"
                        + "</property></configuration>");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "1");
        Path metastore = tmp.resolve("metastore-threads");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', 'hadoop-conf-dir' = '" + hadoopConf + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.useCatalog("h");
        tEnv.executeSql("CREATE TABLE written (x INT, dt STRING) PARTITIONED BY (dt) WITH ("
                + "'hive.storage.file-format' = 'orc', 'sink.partition-commit.policy.kind' = 'metastore')");
        tEnv.executeSql("INSERT INTO written VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')")
                .await();
        Path written = metastore.resolve("warehouse/written");
        tEnv.executeSql("CREATE TABLE probed (x INT, dt STRING) PARTITIONED BY (dt) WITH ("
                + " 'hive.is-external' = 'true', 'hive.location-uri' = '" + written.toUri() + "',"
                + " 'hive.storage.file-format' = 'orc')");
        for (String dt : List.of("a", "b", "c", "d")) {
            tEnv.executeSql("ALTER TABLE probed ADD PARTITION (dt = '" + dt + "') WITH ('hive.location-uri' = "
                    + "'probefs://" + written.resolve("dt=" + dt).toAbsolutePath() + "')");
        }
        tEnv.getConfig().set("table.exec.hive.infer-source-parallelism.mode", "none"); // one planning per query

        // {size threads, split threads} set, or null for the default (3)
        int[][] runs = {{1, 2}, {2, 1}, null};
        for (int[] run : runs) {
            if (run != null) {
                tEnv.getConfig().set("table.exec.hive.calculate-partition-size.thread-num", String.valueOf(run[0]));
                tEnv.getConfig().set("table.exec.hive.load-partition-splits.thread-num", String.valueOf(run[1]));
            } else {
                tEnv.getConfig()
                        .getConfiguration()
                        .removeConfig(org.apache.flink.configuration.ConfigOptions.key(
                                        "table.exec.hive.calculate-partition-size.thread-num")
                                .intType()
                                .noDefaultValue());
                tEnv.getConfig()
                        .getConfiguration()
                        .removeConfig(org.apache.flink.configuration.ConfigOptions.key(
                                        "table.exec.hive.load-partition-splits.thread-num")
                                .intType()
                                .noDefaultValue());
            }
            System.clearProperty("sluice.it.probefs.calculate-partition-size");
            System.clearProperty("sluice.it.probefs.load-partition-splits");
            String label = run == null ? "defaults" : "thread-num " + run[0] + " and " + run[1];
            assertThat(collect(tEnv, "SELECT x, dt FROM probed"))
                    .as(label)
                    .containsExactlyInAnyOrder("+I[1, a]", "+I[2, b]", "+I[3, c]", "+I[4, d]");
            assertThat(System.getProperty("sluice.it.probefs.calculate-partition-size"))
                    .as("threads sizing the partitions at once, %s", label)
                    .isEqualTo(String.valueOf(run == null ? 3 : run[0]));
            assertThat(System.getProperty("sluice.it.probefs.load-partition-splits"))
                    .as("threads splitting the partitions at once, %s", label)
                    .isEqualTo(String.valueOf(run == null ? 3 : run[1]));
        }
    }

    /**
     * Upstream's parallelism inference from the number of splits (three partitions of one file
     * each): {@code static} fixes the source's parallelism in the plan (capped by {@code .max}),
     * {@code none} keeps the configured one, {@code dynamic} (the default) lets Flink's adaptive
     * batch scheduler ask the source, which the job's vertex then shows.
     */
    @Test
    void theSourceParallelismIsInferredFromTheSplits() throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "1");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + tmp.resolve("metastore-inference") + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
        tEnv.executeSql("CREATE TABLE h.db.t (id BIGINT, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('hive.storage.file-format' = 'parquet', 'sink.partition-commit.policy.kind' = 'metastore')");
        tEnv.executeSql("INSERT INTO h.db.t VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'a')")
                .await();

        String query = "SELECT id FROM h.db.t";
        tEnv.getConfig().set("parallelism.default", "4");
        tEnv.getConfig().set("table.exec.hive.infer-source-parallelism.mode", "static");
        assertThat(sourceParallelism(tEnv, query)).isEqualTo(3);
        tEnv.getConfig().set("table.exec.hive.infer-source-parallelism.max", "2");
        assertThat(sourceParallelism(tEnv, query)).isEqualTo(2);
        tEnv.getConfig().set("table.exec.hive.infer-source-parallelism.max", "1000");
        tEnv.getConfig().set("table.exec.hive.infer-source-parallelism.mode", "none");
        assertThat(sourceParallelism(tEnv, query)).isEqualTo(4);
        tEnv.getConfig().set("table.exec.hive.infer-source-parallelism.mode", "static");
        tEnv.getConfig().set("table.exec.hive.infer-source-parallelism", "false"); // deprecated: off
        assertThat(sourceParallelism(tEnv, query)).isEqualTo(4);

        tEnv.getConfig().set("table.exec.hive.infer-source-parallelism", "true");
        tEnv.getConfig().set("table.exec.hive.infer-source-parallelism.mode", "dynamic");
        org.apache.flink.table.api.TableResult result = tEnv.executeSql(query);
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        assertThat(rows).containsExactlyInAnyOrder("+I[1]", "+I[2]", "+I[3]", "+I[4]");
        org.apache.flink.api.common.JobID job =
                result.getJobClient().orElseThrow().getJobID();
        try (org.apache.flink.client.program.rest.RestClusterClient<
                        org.apache.flink.client.deployment.StandaloneClusterId>
                client = new org.apache.flink.client.program.rest.RestClusterClient<>(
                        MINI_CLUSTER.getClientConfiguration(),
                        org.apache.flink.client.deployment.StandaloneClusterId.getInstance())) {
            org.apache.flink.runtime.rest.messages.job.JobDetailsInfo details =
                    client.getJobDetails(job).get();
            assertThat(details.getJobVertexInfos())
                    .filteredOn(v -> v.getName().startsWith("Source: "))
                    .extracting(
                            org.apache.flink.runtime.rest.messages.job.JobDetailsInfo.JobVertexDetailsInfo
                                    ::getParallelism)
                    .containsExactly(3);
        }
    }

    /**
     * Upstream's split sizing of an ORC table (the only format it applies to): one file of several
     * stripes is one split under the defaults; with {@code table.exec.hive.split-max-size} below a
     * stripe's size every stripe is a split of its own, and the rows are still read once each.
     * {@code table.exec.hive.file-open-cost} bounds a split's size from below where upstream plans
     * for many readers, which is when it infers the parallelism (for {@code
     * infer-source-parallelism.max} splits): at its 4mb default the small file stays one split, at
     * one byte it is split by stripe. The number of splits is what static inference gives the source.
     * The read plans its splits the same way for the readers it has: with four readers (the file's
     * size, footer included, over four is about one and a half stripes) the file is cut by stripes
     * when opening costs a byte, and stays one split at 4mb; the splits read are counted from
     * upstream's reader log, one line per split, and every row comes once.
     */
    @Test
    void splitMaxSizeAndFileOpenCostDecideTheSplitsOfAnOrcTable() throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "1");
        Path metastore = tmp.resolve("metastore-splits");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
        // small stripes: ORC's writer closes one at each of its memory checks (every 5,000 rows)
        tEnv.executeSql("CREATE TABLE h.db.o (id BIGINT) WITH ('hive.storage.file-format' = 'orc',"
                + " 'orc.stripe.size' = '1024')");
        tEnv.executeSql("CREATE TEMPORARY TABLE numbers (id BIGINT) WITH ('connector' = 'datagen',"
                + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '20000',"
                + " 'number-of-rows' = '20000')");
        tEnv.executeSql("INSERT INTO h.db.o SELECT id FROM numbers").await();
        List<Path> files;
        try (java.util.stream.Stream<Path> listed = java.nio.file.Files.list(metastore.resolve("warehouse/db.db/o"))) {
            files = listed.filter(f -> !f.getFileName().toString().startsWith(".")
                            && !f.getFileName().toString().startsWith("_"))
                    .toList();
        }
        assertThat(files).hasSize(1);
        int stripes;
        try (org.apache.orc.Reader reader = org.apache.orc.OrcFile.createReader(
                new org.apache.hadoop.fs.Path(files.get(0).toUri()),
                org.apache.orc.OrcFile.readerOptions(new org.apache.hadoop.conf.Configuration()))) {
            stripes = reader.getStripes().size();
        }
        assertThat(stripes).as("stripes of %s", files.get(0)).isGreaterThan(1);

        String query = "SELECT id FROM h.db.o";
        tEnv.getConfig().set("table.exec.hive.infer-source-parallelism.mode", "static");
        assertThat(sourceParallelism(tEnv, query)).as("defaults").isEqualTo(1);
        tEnv.getConfig().set("table.exec.hive.split-max-size", "100b");
        assertThat(sourceParallelism(tEnv, query)).as("split-max-size 100b").isEqualTo(stripes);
        tEnv.getConfig().set("table.exec.hive.split-max-size", "128mb");
        tEnv.getConfig().set("table.exec.hive.file-open-cost", "1b");
        assertThat(sourceParallelism(tEnv, query)).as("file-open-cost 1b").isEqualTo(stripes);
        tEnv.getConfig().set("table.exec.hive.file-open-cost", "4mb");
        assertThat(sourceParallelism(tEnv, query)).as("file-open-cost 4mb").isEqualTo(1);

        // the read itself: a split per stripe, two readers, every row once
        tEnv.getConfig().set("table.exec.hive.split-max-size", "100b");
        tEnv.getConfig().set("table.exec.hive.infer-source-parallelism.mode", "none");
        tEnv.getConfig().set("parallelism.default", "2");
        String all = "SELECT COUNT(*), COUNT(DISTINCT id), SUM(id) FROM h.db.o";
        assertThat(collect(tEnv, all)).containsExactly("+I[20000, 20000, 200010000]");

        // four readers share the file: a split is a quarter of it unless opening costs more
        tEnv.getConfig().set("parallelism.default", "4");
        tEnv.getConfig().set("table.exec.hive.split-max-size", "128mb");
        tEnv.getConfig().set("table.exec.hive.file-open-cost", "1b");
        List<String> cheap = splitsRead(tEnv, all);
        assertThat(cheap).as("splits read, file-open-cost 1b").hasSizeBetween(2, stripes);
        tEnv.getConfig().set("table.exec.hive.file-open-cost", "4mb");
        assertThat(splitsRead(tEnv, all)).as("splits read, file-open-cost 4mb").hasSize(1);
    }

    /** The splits of {@code h.db.o} the query's readers read, each once, as upstream's reader logs them. */
    private static List<String> splitsRead(TableEnvironment tEnv, String query) throws Exception {
        List<String> rows = new ArrayList<>();
        String log = readerLog("o", () -> rows.addAll(collect(tEnv, query)));
        assertThat(rows).as(query).containsExactly("+I[20000, 20000, 200010000]");
        List<String> splits = log.lines()
                .filter(line -> line.contains("Use native orc reader for"))
                .toList();
        assertThat(splits).as(log).doesNotHaveDuplicates().isNotEmpty();
        return splits;
    }

    /**
     * Which reader reads a Parquet or ORC table with ARRAY, MAP and ROW columns. Upstream's
     * vectorized readers are on by default ({@code table.exec.hive.fallback-mapred-reader} false)
     * and, in the connector version the plugin carries, read these types themselves (they fall
     * back to Hive's mapred reader only for a type they cannot read);
     * with the option true the mapred reader reads everything. The rows are the same either way.
     * Which reader ran is what upstream's {@code HiveInputFormat} logs (DEBUG, on in the test's
     * log4j file), found in the log file by the source's name.
     */
    @Test
    void complexColumnsAreReadWhicheverReaderTheOptionAndTheTypesChoose() throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "1");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + tmp.resolve("metastore-complex") + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
        for (String format : List.of("parquet", "orc")) {
            String table = "c_" + format;
            tEnv.executeSql("CREATE TABLE h.db." + table + " (id BIGINT, tags ARRAY<STRING>, attrs MAP<STRING, INT>,"
                    + " point ROW<x INT, y STRING>) WITH ('hive.storage.file-format' = '" + format + "')");
            tEnv.executeSql("INSERT INTO h.db." + table + " VALUES"
                            + " (CAST(1 AS BIGINT), ARRAY['a', 'b'], MAP['k', 1], ROW(1, 'p')),"
                            + " (CAST(2 AS BIGINT), CAST(NULL AS ARRAY<STRING>), MAP['j', 2, 'l', 3],"
                            + " ROW(2, CAST(NULL AS STRING)))")
                    .await();
            String complex = "SELECT id, tags, attrs['l'], point.x, point.y FROM h.db." + table;
            List<String> expected = List.of("+I[1, [a, b], null, 1, p]", "+I[2, null, 3, 2, null]");
            for (String mapred : List.of("false", "true")) {
                tEnv.getConfig().set("table.exec.hive.fallback-mapred-reader", mapred);
                String log = readerLog(
                        table,
                        () -> assertThat(collect(tEnv, complex))
                                .as("%s, fallback-mapred-reader %s", format, mapred)
                                .containsExactlyInAnyOrderElementsOf(expected));
                System.out.println("HiveReadIT " + format + ", fallback-mapred-reader " + mapred + ":\n" + log);
                assertThat(log)
                        .as("%s, fallback-mapred-reader %s", format, mapred)
                        .isNotEmpty();
                if (mapred.equals("true")) {
                    assertThat(log)
                            .contains("Use MapReduce RecordReader reader for")
                            .doesNotContain("native");
                } else if (format.equals("parquet")) {
                    // Flink's vectorized Parquet reader reads nested types (the page predates it)
                    assertThat(log).contains("Use native parquet reader for").doesNotContain("MapReduce");
                } else {
                    assertThat(log).contains("Use native orc reader for").doesNotContain("MapReduce");
                }
            }
        }
    }

    private interface Query {
        void run() throws Exception;
    }

    /**
     * The lines upstream's {@code HiveInputFormat} logs (which reader it picks) for the source of
     * {@code table} while the query runs: it logs through the plugin's class loader, whose log4j
     * context is not the test's, so they are read from the file every context writes.
     */
    private static String readerLog(String table, Query query) throws Exception {
        Path file = Path.of(System.getProperty("java.io.tmpdir"), "test.log");
        long before = java.nio.file.Files.exists(file) ? java.nio.file.Files.size(file) : 0;
        query.run();
        byte[] all = java.nio.file.Files.readAllBytes(file);
        String added =
                new String(all, (int) before, all.length - (int) before, java.nio.charset.StandardCharsets.UTF_8);
        return added.lines()
                .filter(line -> line.contains("HiveInputFormat - ") && line.contains("Source: " + table + "["))
                .map(line -> line.substring(line.indexOf("HiveInputFormat - ")))
                .collect(java.util.stream.Collectors.joining("\n"));
    }

    private static int sourceParallelism(TableEnvironment tEnv, String query) {
        String plan = tEnv.explainSql(query, org.apache.flink.table.api.ExplainDetail.JSON_EXECUTION_PLAN);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                        "\"type\" : \"Source: [^\"]*\",[^}]*?\"parallelism\" : (\\d+)", java.util.regex.Pattern.DOTALL)
                .matcher(plan);
        assertThat(m.find()).as(plan).isTrue();
        return Integer.parseInt(m.group(1));
    }

    /** Rows of dt=2026-12-02: ids 1, 4, ..., 49. */
    private static int onePartitionSize() {
        return 17;
    }

    private static List<String> collect(TableEnvironment tEnv, String query) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        return rows;
    }
}
