package io.sluice.plugin.hive.it;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A STREAMING job with checkpoints into a partitioned Parquet Hive table: files become visible at
 * checkpoints through the framework's committer, and the partition commit runs both the plugin's
 * {@code metastore} policy and the filesystem plugin's {@code success-file} policy on the
 * metastore's partition locations. Every row comes back exactly once.
 */
class HiveStreamingWriteIT {

    private static final int ROWS = 300;

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

    /** {@code distribution-mode} 'hash': every partition's files come from one writer. */
    @Test
    void hashDistributionPutsEachPartitionOnOneWriter() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "300 ms");
        conf.setString("restart-strategy.type", "none");
        conf.setString("parallelism.default", "2");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.newInstance()
                .inStreamingMode()
                .withConfiguration(conf)
                .build());
        Path metastore = tmp.resolve("metastore-hash");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.logs");
        tEnv.executeSql("CREATE TABLE h.logs.events (id BIGINT, msg STRING, bucket STRING) PARTITIONED BY (bucket)"
                + " WITH ('hive.storage.file-format' = 'parquet')");
        tEnv.executeSql("CREATE TEMPORARY TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" + ROWS + "', "
                + "'rows-per-second' = '300')");
        tEnv.executeSql("INSERT INTO h.logs.events /*+ OPTIONS('distribution-mode' = 'hash',"
                        + " 'sink.partition-commit.policy.kind' = 'metastore') */"
                        + " SELECT id, CONCAT('m', CAST(id AS STRING)), CAST(id % 3 AS STRING) FROM numbers")
                .await();

        Path table = metastore.resolve("warehouse").resolve("logs.db").resolve("events");
        List<Long> ids = new ArrayList<>();
        for (String partition : List.of("bucket=0", "bucket=1", "bucket=2")) {
            java.util.Set<String> writers = new java.util.TreeSet<>();
            for (Path file : ParquetFiles.dataFiles(table.resolve(partition))) {
                String name = file.getFileName().toString();
                assertThat(name).as("part file %s", file).startsWith("part-");
                writers.add(name.substring("part-".length(), "part-".length() + 36));
            }
            assertThat(writers).as("writers of %s", partition).hasSize(1);
            for (String id : ParquetFiles.rows(table.resolve(partition), g -> String.valueOf(g.getLong("id", 0)))) {
                ids.add(Long.parseLong(id));
            }
        }
        assertThat(ids)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, ROWS).boxed().collect(Collectors.toList()));
    }

    /**
     * {@code distribution-mode} 'range' on 24 partitions of Zipf-like traffic from one source
     * subtask, paced by checkpoints: once the framework's statistics are applied (within two
     * cycles; the second half of the ids comes at least seven cycles in), each of the two writers
     * holds a run of partitions, those at the boundary split between them, and its share
     * of the rows is within 20% of even. Upstream's Hive sink has no RANGE; with NONE each writer
     * would write every partition.
     */
    @Test
    void rangeDistributionGivesEachWriterAnEvenRunOfPartitions() throws Exception {
        int rows = 6_000;
        int keys = 24;
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "200 ms");
        conf.setString("restart-strategy.type", "none");
        conf.setString("parallelism.default", "2");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        Path metastore = tmp.resolve("metastore-range");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.logs");
        tEnv.executeSql("CREATE TABLE h.logs.skewed (id BIGINT, p STRING) PARTITIONED BY (p)"
                + " WITH ('hive.storage.file-format' = 'parquet')");
        double[] cumulative = zipf(keys);
        DataGeneratorSource<Row> source = new DataGeneratorSource<>(
                i -> Row.of(i + 1, String.format("k%02d", keyOf(cumulative, i))),
                rows,
                RateLimiterStrategy.perCheckpoint(rows / 15),
                Types.ROW_NAMED(new String[] {"id", "p"}, Types.LONG, Types.STRING));
        tEnv.createTemporaryView(
                "skewed_input",
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "skewed")
                        .setParallelism(1));
        // the planner gives a sink its input's parallelism (1 here) unless 'sink.parallelism' says
        tEnv.executeSql("INSERT INTO h.logs.skewed /*+ OPTIONS('distribution-mode' = 'range', 'sink.parallelism' = '2',"
                        + " 'sink.partition-commit.policy.kind' = 'metastore') */"
                        + " SELECT id, p FROM skewed_input")
                .await();

        Path table = metastore.resolve("warehouse").resolve("logs.db").resolve("skewed");
        List<Long> ids = new ArrayList<>();
        Map<String, Long> lateRowsByWriter = new TreeMap<>();
        Map<String, Set<String>> lateWritersByPartition = new TreeMap<>();
        for (int k = 0; k < keys; k++) {
            String partition = String.format("k%02d", k);
            for (Path file : ParquetFiles.dataFiles(table.resolve("p=" + partition))) {
                String writer = file.getFileName().toString().substring("part-".length(), "part-".length() + 36);
                for (String id : ParquetFiles.rowsOf(file, g -> String.valueOf(g.getLong("id", 0)))) {
                    ids.add(Long.parseLong(id));
                    if (Long.parseLong(id) > rows / 2) {
                        lateRowsByWriter.merge(writer, 1L, Long::sum);
                        lateWritersByPartition
                                .computeIfAbsent(partition, x -> new TreeSet<>())
                                .add(writer);
                    }
                }
            }
        }
        assertThat(ids)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, rows).boxed().collect(Collectors.toList()));
        String report = "late rows by writer " + lateRowsByWriter + ", writers by partition " + lateWritersByPartition;
        System.out.println("HiveStreamingWriteIT range: " + report);
        assertThat(lateRowsByWriter).as(report).hasSize(2);
        assertThat(lateRowsByWriter.values())
                .as(report)
                .allSatisfy(n -> assertThat(n).isBetween((long) (0.4 * rows / 2), (long) (0.6 * rows / 2)));
        // one assignment splits at most the one partition at the writers' boundary; the boundary
        // may move by a key between cycles as the statistics settle
        assertThat(lateWritersByPartition.values().stream().filter(w -> w.size() > 1))
                .as("partitions split between the writers: " + report)
                .hasSizeLessThanOrEqualTo(2);
    }

    /** The cumulative shares of {@code keys} keys of Zipf-like traffic: key k weighs 1 / (k + 1). */
    private static double[] zipf(int keys) {
        double[] cumulative = new double[keys];
        double total = 0;
        for (int k = 0; k < keys; k++) {
            total += 1.0 / (k + 1);
            cumulative[k] = total;
        }
        for (int k = 0; k < keys; k++) {
            cumulative[k] /= total;
        }
        return cumulative;
    }

    /** Row {@code i}'s key: an evenly spread point of [0, 1) (a multiplicative hash of i) in the shares. */
    private static int keyOf(double[] cumulative, long i) {
        double u = ((i * 0x9E3779B97F4A7C15L) >>> 11) / (double) (1L << 53);
        int k = 0;
        while (k < cumulative.length - 1 && u >= cumulative[k]) {
            k++;
        }
        return k;
    }

    /**
     * The page's two streaming examples in the default dialect: the Hive dialect's {@code STORED AS
     * parquet TBLPROPERTIES (...)} as table options, read by the sink from the table (no hint), a
     * partition-time trigger with a delay, on a TIMESTAMP watermark and on a TIMESTAMP_LTZ one
     * with {@code sink.partition-commit.watermark-time-zone} 'Asia/Shanghai'. The bounded input's
     * final watermark commits every partition: each is in the metastore with its success file.
     */
    @Test
    void thePagesStreamingExamplesRunWithTheirTablePropertiesAsOptions() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "300 ms");
        conf.setString("restart-strategy.type", "none");
        conf.setString("parallelism.default", "2");
        conf.setString("table.local-time-zone", "Asia/Shanghai");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.newInstance()
                .inStreamingMode()
                .withConfiguration(conf)
                .build());
        Path metastore = tmp.resolve("metastore-page");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.page");
        for (String zone : List.of("", "'sink.partition-commit.watermark-time-zone'='Asia/Shanghai',")) {
            String name = zone.isEmpty() ? "hive_table" : "hive_table_ltz";
            tEnv.executeSql(
                    "CREATE TABLE h.page." + name + " (user_id STRING, order_amount DOUBLE, dt STRING, hr STRING)"
                            + " PARTITIONED BY (dt, hr) WITH ('hive.storage.file-format' = 'parquet',"
                            + " 'partition.time-extractor.timestamp-pattern'='$dt $hr:00:00',"
                            + " 'sink.partition-commit.trigger'='partition-time',"
                            + " 'sink.partition-commit.delay'='1 h', " + zone
                            + " 'sink.partition-commit.policy.kind'='metastore,success-file')");
        }
        // the page's kafka_table: 3 hours of orders from 2020-05-20 11:00, one every 36 s
        tEnv.executeSql("CREATE TEMPORARY TABLE seq (n BIGINT) WITH ('connector' = 'datagen',"
                + " 'fields.n.kind' = 'sequence', 'fields.n.start' = '0', 'fields.n.end' = '299',"
                + " 'rows-per-second' = '300')");
        tEnv.executeSql("CREATE TEMPORARY VIEW kafka_table AS SELECT CONCAT('u', CAST(n AS STRING)) AS user_id,"
                + " CAST(n AS DOUBLE) AS order_amount,"
                + " TO_TIMESTAMP(FROM_UNIXTIME(1589972400 + n * 36, 'yyyy-MM-dd HH:mm:ss')) AS log_ts,"
                + " TO_TIMESTAMP_LTZ((1589972400 + n * 36) * 1000, 3) AS ts_ltz FROM seq");
        org.apache.flink.table.api.StatementSet set = tEnv.createStatementSet();
        set.addInsertSql("INSERT INTO h.page.hive_table SELECT user_id, order_amount,"
                + " DATE_FORMAT(log_ts, 'yyyy-MM-dd'), DATE_FORMAT(log_ts, 'HH') FROM kafka_table");
        set.addInsertSql("INSERT INTO h.page.hive_table_ltz SELECT user_id, order_amount,"
                + " DATE_FORMAT(ts_ltz, 'yyyy-MM-dd'), DATE_FORMAT(ts_ltz, 'HH') FROM kafka_table");
        set.execute().await();

        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            // FROM_UNIXTIME and DATE_FORMAT of the LTZ column both speak the session's zone
            for (String name : List.of("hive_table", "hive_table_ltz")) {
                List<String> partitions = probe.partitionNames("page", name);
                assertThat(partitions)
                        .as(name)
                        .containsExactlyInAnyOrder("dt=2020-05-20/hr=19", "dt=2020-05-20/hr=20", "dt=2020-05-20/hr=21");
                int rows = 0;
                for (String partition : partitions) {
                    Path dir = Paths.get(URI.create(probe.partitionLocation("page", name, partition)));
                    assertThat(dir.resolve("_SUCCESS"))
                            .as(name + " " + partition)
                            .isRegularFile();
                    rows += ParquetFiles.rows(dir, g -> g.getString("user_id", 0))
                            .size();
                }
                assertThat(rows).as(name).isEqualTo(300);
            }
        }
    }

    @Test
    void checkpointedWritesCommitPartitionsToTheMetastoreWithSuccessFiles() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "300 ms");
        conf.setString("restart-strategy.type", "none"); // a failure must fail the test, not repeat quietly
        conf.setString("parallelism.default", "2");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        Path metastore = tmp.resolve("metastore");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.logs");
        tEnv.executeSql("CREATE TABLE h.logs.events (id BIGINT, msg STRING, bucket STRING) PARTITIONED BY (bucket)"
                + " WITH ('hive.storage.file-format' = 'parquet')");
        // paced by checkpoints, not by time: a third of the rows per completed checkpoint, so the
        // job spans several commits however busy the machine is
        DataGeneratorSource<Long> numbers =
                new DataGeneratorSource<>(i -> i + 1, ROWS, RateLimiterStrategy.perCheckpoint(ROWS / 3), Types.LONG);
        tEnv.createTemporaryView("numbers", env.fromSource(numbers, WatermarkStrategy.noWatermarks(), "numbers"));
        tEnv.executeSql("INSERT INTO h.logs.events /*+ OPTIONS("
                        + "'sink.partition-commit.policy.kind' = 'metastore,success-file') */"
                        + " SELECT f0, CONCAT('m', CAST(f0 AS STRING)), CAST(f0 % 3 AS STRING) FROM numbers")
                .await();

        Path table = metastore.resolve("warehouse").resolve("logs.db").resolve("events");
        List<String> rows = new ArrayList<>();
        int files = 0;
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.partitionNames("logs", "events"))
                    .containsExactlyInAnyOrder("bucket=0", "bucket=1", "bucket=2");
            for (String partition : probe.partitionNames("logs", "events")) {
                Path dir = Paths.get(URI.create(probe.partitionLocation("logs", "events", partition)));
                assertThat(dir).isEqualTo(table.resolve(partition));
                assertThat(dir.resolve("_SUCCESS")).isRegularFile();
                files += ParquetFiles.dataFiles(dir).size();
                String bucket = partition.substring("bucket=".length());
                for (String row : ParquetFiles.rows(dir, g -> g.getLong("id", 0) + "|" + g.getString("msg", 0))) {
                    assertThat(Long.parseLong(row.substring(0, row.indexOf('|'))) % 3)
                            .hasToString(bucket);
                    rows.add(row);
                }
            }
        }
        // Parquet files roll at every checkpoint: more than one per writer and partition (2 x 3)
        // shows the rows were committed over several checkpoints, not only at the end
        assertThat(files).isGreaterThan(6);
        assertThat(rows)
                .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, ROWS)
                        .mapToObj(i -> i + "|m" + i)
                        .collect(Collectors.toList()));
    }
}
