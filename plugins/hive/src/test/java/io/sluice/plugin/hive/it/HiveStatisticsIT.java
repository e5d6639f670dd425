package io.sluice.plugin.hive.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code table.exec.hive.sink.statistic-auto-gather.enable} in BATCH mode: after the commit, each
 * written partition (an existing one through the target's committer, a new one through the {@code
 * metastore} policy that adds it) or the unpartitioned table has {@code numFiles} and {@code
 * totalSize} equal to its data files on disk, and for Parquet and ORC {@code numRows} equal to the
 * rows written and {@code rawDataSize} equal to the footers' (read here by parquet-java and ORC's
 * reader); read with Hive's metastore client. With the option false nothing is gathered.
 */
class HiveStatisticsIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    private static final String POLICY = "/*+ OPTIONS('sink.partition-commit.policy.kind' = 'metastore') */";

    @TempDir
    Path tmp;

    private Path metastore;
    private TableEnvironment tEnv;

    @BeforeAll
    static void onlyAfterPackaging() {
        HivePluginDir.assumeIntegrationTestPhase();
    }

    @BeforeEach
    void catalog() {
        metastore = tmp.resolve("metastore");
        tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
    }

    @Test
    void partitionsOfAParquetTableGetTheirFilesSizesAndRows() throws Exception {
        tEnv.executeSql("CREATE TABLE h.db.p (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('hive.storage.file-format' = 'parquet')");
        // x exists before the job (the committer sets its statistics), y is new (the policy's)
        tEnv.executeSql("ALTER TABLE h.db.p ADD PARTITION (dt = 'x')");
        tEnv.executeSql("INSERT INTO h.db.p " + POLICY + " SELECT CAST(id AS BIGINT), 'n' || CAST(id AS STRING),"
                        + " CASE WHEN id < 30 THEN 'x' ELSE 'y' END FROM (VALUES "
                        + values(50) + ") AS t(id)")
                .await();
        Path table = table("p");
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertStatistics(probe.partitionParameters("db", "p", "dt=x"), table.resolve("dt=x"), 30, "parquet");
            assertStatistics(probe.partitionParameters("db", "p", "dt=y"), table.resolve("dt=y"), 20, "parquet");
        }

        // an append: the values are the partition's, not the job's
        tEnv.executeSql("INSERT INTO h.db.p " + POLICY + " VALUES (100, 'a', 'x')")
                .await();
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertStatistics(probe.partitionParameters("db", "p", "dt=x"), table.resolve("dt=x"), 31, "parquet");
            assertStatistics(probe.partitionParameters("db", "p", "dt=y"), table.resolve("dt=y"), 20, "parquet");
        }
        // an overwrite replaces them
        tEnv.executeSql("INSERT OVERWRITE h.db.p " + POLICY + " VALUES (101, 'b', 'y')")
                .await();
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertStatistics(probe.partitionParameters("db", "p", "dt=y"), table.resolve("dt=y"), 1, "parquet");
        }
    }

    @Test
    void anUnpartitionedOrcTableAndATextTableGetTableStatistics() throws Exception {
        tEnv.executeSql("CREATE TABLE h.db.o (id INT, name STRING) WITH ('hive.storage.file-format' = 'orc')");
        tEnv.executeSql("INSERT INTO h.db.o SELECT id, 'v' || CAST(id AS STRING) FROM (VALUES " + values(40)
                        + ") AS t(id)")
                .await();
        tEnv.executeSql("CREATE TABLE h.db.t (id INT, name STRING) WITH ('hive.storage.file-format' = 'textfile')");
        tEnv.executeSql("INSERT INTO h.db.t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
                .await();
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertStatistics(probe.tableParameters("db", "o"), table("o"), 40, "orc");
            Map<String, String> text = probe.tableParameters("db", "t");
            assertStatistics(text, table("t"), 3, "textfile");
        }
    }

    @Test
    void nothingIsGatheredWithTheOptionOff() throws Exception {
        tEnv.getConfig().set("table.exec.hive.sink.statistic-auto-gather.enable", "false");
        tEnv.executeSql("CREATE TABLE h.db.p (id BIGINT, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('hive.storage.file-format' = 'parquet')");
        tEnv.executeSql("ALTER TABLE h.db.p ADD PARTITION (dt = 'x')");
        tEnv.executeSql("CREATE TABLE h.db.o (id INT) WITH ('hive.storage.file-format' = 'orc')");
        tEnv.executeSql("INSERT INTO h.db.p " + POLICY + " VALUES (1, 'x'), (2, 'y')")
                .await();
        tEnv.executeSql("INSERT INTO h.db.o VALUES (1), (2)").await();
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(ParquetFiles.dataFiles(table("p").resolve("dt=x"))).isNotEmpty();
            for (String partition : List.of("dt=x", "dt=y")) {
                assertThat(probe.partitionParameters("db", "p", partition))
                        .doesNotContainKeys("numRows", "rawDataSize");
            }
            // the existing partition was never touched: the metastore's values from before the job
            assertThat(probe.partitionParameters("db", "p", "dt=x").getOrDefault("numFiles", "0"))
                    .isEqualTo("0");
            Map<String, String> orc = probe.tableParameters("db", "o");
            assertThat(orc.getOrDefault("numRows", "0")).isEqualTo("0");
            assertThat(orc.getOrDefault("numFiles", "0")).isEqualTo("0");
        }
    }

    /**
     * As upstream, statistics are gathered in BATCH only: a STREAMING job with the option on (its
     * default) commits partitions and an unpartitioned table whose files are there, without rows
     * counted in the metastore. Its own metastore directory: one embedded metastore per directory.
     */
    @Test
    void nothingIsGatheredInStreaming() throws Exception {
        TableEnvironment streaming = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        streaming.getConfig().set("parallelism.default", "1");
        streaming.getConfig().set("execution.checkpointing.interval", "200 ms");
        Path streamingMetastore = tmp.resolve("metastore-streaming");
        streaming.executeSql("CREATE CATALOG hs WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + streamingMetastore + "')");
        streaming.executeSql("CREATE DATABASE hs.db");
        streaming.executeSql("CREATE TABLE hs.db.p (id BIGINT, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('hive.storage.file-format' = 'parquet')");
        streaming.executeSql("CREATE TABLE hs.db.o (id INT) WITH ('hive.storage.file-format' = 'orc')");
        streaming
                .executeSql("INSERT INTO hs.db.p " + POLICY + " VALUES (1, 'x'), (2, 'y'), (3, 'y')")
                .await();
        streaming.executeSql("INSERT INTO hs.db.o VALUES (1), (2)").await();

        Path tables = streamingMetastore.resolve("warehouse").resolve("db.db");
        try (MetastoreProbe probe = MetastoreProbe.of(streaming.getCatalog("hs").orElseThrow())) {
            for (String partition : List.of("dt=x", "dt=y")) {
                assertThat(ParquetFiles.dataFiles(tables.resolve("p").resolve(partition)))
                        .as("files of %s", partition)
                        .isNotEmpty();
                assertThat(probe.partitionParameters("db", "p", partition))
                        .as("statistics of %s", partition)
                        .doesNotContainKeys("numRows", "rawDataSize");
            }
            assertThat(probe.tableParameters("db", "o").getOrDefault("numRows", "0"))
                    .as("rows counted for the ORC table")
                    .isEqualTo("0");
        }
    }

    /**
     * {@code table.exec.hive.sink.statistic-auto-gather.thread-num}: the footers of a directory's
     * files are read by that many threads, no more. Three writers leave three Parquet files; one
     * thread reads all three footers, two threads share them. The threads are seen in the DEBUG
     * line each footer read logs (the pool's threads are named); the statistics are the same either way.
     */
    @Test
    void theFootersAreReadByTheConfiguredNumberOfThreads() throws Exception {
        tEnv.executeSql("CREATE TEMPORARY TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '300', "
                + "'number-of-rows' = '300')");
        for (int threads : new int[] {1, 2}) {
            String name = "threads" + threads;
            tEnv.executeSql("CREATE TABLE h.db." + name + " (id BIGINT) WITH ('hive.storage.file-format' = 'parquet')");
            tEnv.getConfig().set("table.exec.hive.sink.statistic-auto-gather.thread-num", String.valueOf(threads));
            tEnv.getConfig().set("parallelism.default", "3");
            String log = capturingStatisticsLog(() -> tEnv.executeSql("INSERT INTO h.db." + name
                            + " /*+ OPTIONS('sink.parallelism' = '3') */ SELECT id FROM numbers")
                    .await());
            assertThat(ParquetFiles.dataFiles(table(name))).hasSize(3);
            java.util.regex.Pattern thread = java.util.regex.Pattern.compile("sluice-hive-statistics-\\d+");
            List<String> readers = log.lines()
                    .filter(line -> line.contains("for the statistics") && line.contains("/" + name + "/"))
                    .map(line -> {
                        java.util.regex.Matcher m = thread.matcher(line);
                        return m.find() ? m.group() : line;
                    })
                    .toList();
            assertThat(readers).as(log).hasSize(3);
            assertThat(new java.util.TreeSet<>(readers)).as(log).hasSize(threads);
            try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
                assertStatistics(probe.tableParameters("db", name), table(name), 300, "parquet");
            }
        }
    }

    private interface Job {
        void run() throws Exception;
    }

    /**
     * The statistics' DEBUG lines logged while the job runs: the plugin logs through its own class
     * loader's log4j context, not the test's, so they are read from the file every context writes
     * (DEBUG for this class in the test's log4j file).
     */
    private static String capturingStatisticsLog(Job job) throws Exception {
        Path file = Path.of(System.getProperty("java.io.tmpdir"), "test.log");
        long before = Files.exists(file) ? Files.size(file) : 0;
        job.run();
        byte[] all = Files.readAllBytes(file);
        return new String(all, (int) before, all.length - (int) before, java.nio.charset.StandardCharsets.UTF_8)
                .lines()
                .filter(line -> line.contains("HiveStatistics - "))
                .collect(java.util.stream.Collectors.joining("\n"));
    }

    private static void assertStatistics(Map<String, String> params, Path dir, long rows, String format)
            throws IOException {
        List<Path> files = ParquetFiles.dataFiles(dir);
        assertThat(files).isNotEmpty();
        long size = 0;
        for (Path file : files) {
            size += Files.size(file);
        }
        assertThat(params)
                .as("statistics of %s", dir)
                .containsEntry("numFiles", Integer.toString(files.size()))
                .containsEntry("totalSize", Long.toString(size));
        if (format.equals("textfile")) {
            return;
        }
        long raw = 0;
        long counted = 0;
        for (Path file : files) {
            long[] footer = format.equals("orc") ? orcFooter(file) : parquetFooter(file);
            counted += footer[0];
            raw += footer[1];
        }
        assertThat(counted).isEqualTo(rows);
        assertThat(raw).isPositive();
        assertThat(params)
                .containsEntry("numRows", Long.toString(rows))
                .containsEntry("rawDataSize", Long.toString(raw));
    }

    private static long[] parquetFooter(Path file) throws IOException {
        try (ParquetFileReader reader = ParquetFileReader.open(
                HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
            long rows = 0;
            long raw = 0;
            for (BlockMetaData block : reader.getFooter().getBlocks()) {
                rows += block.getRowCount();
                raw += block.getTotalByteSize();
            }
            return new long[] {rows, raw};
        }
    }

    private static long[] orcFooter(Path file) throws IOException {
        try (org.apache.orc.Reader reader = org.apache.orc.OrcFile.createReader(
                new org.apache.hadoop.fs.Path(file.toUri()),
                org.apache.orc.OrcFile.readerOptions(new Configuration()))) {
            return new long[] {reader.getNumberOfRows(), reader.getRawDataSize()};
        }
    }

    private Path table(String name) {
        return metastore.resolve("warehouse").resolve("db.db").resolve(name);
    }

    private static String values(int n) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < n; i++) {
            out.append(i == 0 ? "" : ", ").append('(').append(i).append(')');
        }
        return out.toString();
    }
}
