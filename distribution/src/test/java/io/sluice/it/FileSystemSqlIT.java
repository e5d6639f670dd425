package io.sluice.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Flink SQL through {@code 'connector' = 'sluice', 'target' = 'filesystem'}: partitioned Parquet
 * with success files, csv and json, read back by independent readers; streaming with
 * {@code auto-compaction}. Partition values that look
 * like paths stay single escaped directories under the table's path.
 */
@Tag("both-lines")
class FileSystemSqlIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    static String pluginsDirOption() {
        return "'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "'";
    }

    @Test
    void partitionedParquetWithSuccessFilesAndEscapedValues() throws Exception {
        Path out = tmp.resolve("orders");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE TABLE orders (id BIGINT, name STRING, amount DECIMAL(10, 2), "
                + "ts TIMESTAMP(3), dt STRING) PARTITIONED BY (dt) WITH ("
                + "'connector' = 'sluice', 'target' = 'filesystem', " + pluginsDirOption() + ", "
                + "'path' = '" + out + "', 'format' = 'parquet', "
                + "'sink.partition-commit.policy.kind' = 'success-file')");
        tEnv.executeSql("INSERT INTO orders VALUES "
                        + "(1, 'a', 1.50, TIMESTAMP '2024-01-01 10:00:00', '2024-01-01'), "
                        + "(2, 'b', 2.25, TIMESTAMP '2024-01-01 11:00:00', '2024-01-01'), "
                        + "(3, CAST(NULL AS STRING), 3.00, TIMESTAMP '2024-01-02 00:00:00', '2024-01-02'), "
                        + "(4, 'slash', 4.00, TIMESTAMP '2024-01-02 00:00:00', 'a/b'), "
                        + "(5, 'dots', 5.00, TIMESTAMP '2024-01-02 00:00:00', '..'), "
                        + "(6, 'null', 6.00, TIMESTAMP '2024-01-02 00:00:00', CAST(NULL AS STRING))")
                .await();

        try (java.util.stream.Stream<Path> dirs = Files.list(out)) {
            assertThat(dirs.map(p -> p.getFileName().toString()).collect(Collectors.toList()))
                    .containsExactlyInAnyOrder(
                            "dt=2024-01-01", "dt=2024-01-02", "dt=a%2Fb", "dt=%2E%2E", "dt=__DEFAULT_PARTITION__");
        }
        try (java.util.stream.Stream<Path> siblings = Files.list(tmp)) {
            assertThat(siblings.map(p -> p.getFileName().toString()).collect(Collectors.toList()))
                    .as("nothing written next to the table's path")
                    .containsExactly("orders");
        }
        List<String> rows = CommittedFiles.parquet(
                out,
                g -> g.getLong("id", 0) + ":"
                        + (g.getFieldRepetitionCount("name") == 0 ? "null" : g.getString("name", 0)) + ":"
                        + g.getType().getFieldCount());
        // partition columns live in the path, not in the files: 4 columns each
        assertThat(rows).containsExactlyInAnyOrder("1:a:4", "2:b:4", "3:null:4", "4:slash:4", "5:dots:4", "6:null:4");
        List<BigDecimal> amounts = CommittedFiles.parquet(
                out,
                g -> new BigDecimal(
                        new java.math.BigInteger(g.getBinary("amount", 0).getBytes()), 2));
        assertThat(amounts)
                .extracting(BigDecimal::toPlainString)
                .containsExactlyInAnyOrder("1.50", "2.25", "3.00", "4.00", "5.00", "6.00");
        assertThat(CommittedFiles.named(out, "_SUCCESS")).hasSize(5);
        assertThat(CommittedFiles.inProgress(out)).isEmpty();
    }

    /**
     * A BATCH insert into many partitions: the planner sorts the rows by partition before the
     * writer (the target asks for it, as upstream's filesystem sink does), so a writer has one
     * partition's file open at a time and writes one file per partition. Unsorted, 1,000 open
     * Parquet files do not fit the smallest memory budget, which then rolls files of a few rows.
     */
    @Test
    void aBatchInsertIntoManyPartitionsWritesOneFilePerPartition() throws Exception {
        Path out = tmp.resolve("many");
        int partitions = 1000;
        int rowsPerPartition = 3;
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "1");
        tEnv.executeSql("CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '"
                + partitions * rowsPerPartition + "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '0',"
                + " 'fields.id.end' = '" + (partitions * rowsPerPartition - 1) + "')");
        tEnv.executeSql("CREATE TABLE many (id BIGINT, p STRING) PARTITIONED BY (p) WITH ("
                + "'connector' = 'sluice', 'target' = 'filesystem', " + pluginsDirOption() + ", "
                + "'path' = '" + out + "', 'format' = 'parquet', 'sink.writer.memory-budget' = '4mb')");
        // consecutive ids go to different partitions: every partition's rows are spread over the input
        String insert = "INSERT INTO many SELECT id, CAST(MOD(id, " + partitions + ") AS STRING) FROM gen";
        assertThat(tEnv.explainSql(insert)).contains("Sort(orderBy=[");
        tEnv.executeSql(insert).await();

        List<Path> files = CommittedFiles.visible(out);
        assertThat(files).hasSize(partitions);
        assertThat(files.stream().map(Path::getParent).distinct().count()).isEqualTo(partitions);
        List<Long> ids = CommittedFiles.parquet(out, g -> g.getLong("id", 0));
        assertThat(ids).hasSize(partitions * rowsPerPartition).doesNotHaveDuplicates();
        assertThat(CommittedFiles.inProgress(out)).isEmpty();
    }

    @Test
    void csvAndJsonRowFormats() throws Exception {
        Path csv = tmp.resolve("csv");
        Path json = tmp.resolve("json");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        String columns = "(id INT, name STRING, price DOUBLE, ok BOOLEAN, d DATE)";
        tEnv.executeSql("CREATE TABLE c " + columns + " WITH ('connector' = 'sluice', 'target' = 'filesystem', "
                + pluginsDirOption() + ", 'path' = '" + csv + "', 'format' = 'csv', 'csv.field-delimiter' = ';', "
                + "'sink.part-file.prefix' = 'data', 'sink.part-file.suffix' = '.csv')");
        tEnv.executeSql("CREATE TABLE j " + columns + " WITH ('connector' = 'sluice', 'target' = 'filesystem', "
                + pluginsDirOption() + ", 'path' = '" + json + "', 'format' = 'json')");
        String values = "VALUES (1, 'x', 1.5, TRUE, DATE '2024-03-01'), (2, 'y', 2.5, FALSE, DATE '2024-03-02'), "
                + "(3, CAST(NULL AS STRING), 3.5, TRUE, DATE '2024-03-03')";
        tEnv.executeSql("INSERT INTO c " + values).await();
        tEnv.executeSql("INSERT INTO j " + values).await();

        assertThat(CommittedFiles.visible(csv))
                .allSatisfy(f -> assertThat(f.getFileName().toString())
                        .startsWith("data-")
                        .endsWith(".csv"));
        // a small CSV reading: fields split on the delimiter, optional double quotes removed
        List<String> csvRows = CommittedFiles.lines(csv).stream()
                .map(l -> java.util.Arrays.stream(l.split(";", -1))
                        .map(f -> f.replaceAll("^\"(.*)\"$", "$1"))
                        .collect(Collectors.joining(";")))
                .collect(Collectors.toList());
        assertThat(csvRows)
                .containsExactlyInAnyOrder(
                        "1;x;1.5;true;2024-03-01", "2;y;2.5;false;2024-03-02", "3;;3.5;true;2024-03-03");
        List<String> jsonLines = CommittedFiles.lines(json);
        assertThat(jsonLines).hasSize(3);
        assertThat(jsonLines)
                .anySatisfy(l -> assertThat(l)
                        .contains("\"id\":1")
                        .contains("\"name\":\"x\"")
                        .contains("\"d\":\"2024-03-01\""));
        assertThat(jsonLines).anySatisfy(l -> assertThat(l).contains("\"id\":3").contains("\"name\":null"));
    }

    @Test
    void streamingAutoCompactionPublishesFewFilesAndCommitsPartitionsAfterThem() throws Exception {
        Path out = tmp.resolve("events");
        org.apache.flink.configuration.Configuration conf = new org.apache.flink.configuration.Configuration();
        conf.setString("execution.checkpointing.interval", "100ms");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.newInstance()
                .inStreamingMode()
                .withConfiguration(conf)
                .build());
        tEnv.executeSql("CREATE TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', "
                + "'number-of-rows' = '20000', 'rows-per-second' = '10000', 'fields.id.kind' = 'sequence', "
                + "'fields.id.start' = '1', 'fields.id.end' = '20000')");
        tEnv.executeSql("CREATE TABLE events (id BIGINT, part STRING) PARTITIONED BY (part) WITH ("
                + "'connector' = 'sluice', 'target' = 'filesystem', " + pluginsDirOption() + ", "
                + "'path' = '" + out + "', 'format' = 'parquet', "
                + "'auto-compaction' = 'true', 'compaction.file-size' = '1mb', 'compaction.checkpoints' = '0', "
                + "'sink.partition-commit.policy.kind' = 'success-file')");
        tEnv.executeSql("INSERT INTO events SELECT id, CAST(id % 2 AS STRING) FROM numbers")
                .await();

        // many checkpoints x 2 writers x 2 partitions of small files, compacted by size only: one per partition
        assertThat(CommittedFiles.visible(out)).hasSize(2);
        assertThat(CommittedFiles.uncompacted(out)).isEmpty();
        assertThat(CommittedFiles.named(out, "_SUCCESS")).hasSize(2);
        List<Long> ids = CommittedFiles.parquet(out, g -> g.getLong("id", 0));
        assertThat(ids).hasSize(20000).doesNotHaveDuplicates();

        TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        batch.executeSql("CREATE TABLE events (id BIGINT, part STRING) PARTITIONED BY (part) WITH ("
                + "'connector' = 'sluice', 'target' = 'filesystem', " + pluginsDirOption() + ", "
                + "'path' = '" + out + "', 'format' = 'parquet')");
        try (org.apache.flink.util.CloseableIterator<org.apache.flink.types.Row> it = batch.executeSql(
                        "SELECT part, COUNT(*), COUNT(DISTINCT id) FROM events GROUP BY part")
                .collect()) {
            List<String> counts = new java.util.ArrayList<>();
            it.forEachRemaining(r -> counts.add(r.toString()));
            assertThat(counts).containsExactlyInAnyOrder("+I[0, 10000, 10000]", "+I[1, 10000, 10000]");
        }
    }
}
