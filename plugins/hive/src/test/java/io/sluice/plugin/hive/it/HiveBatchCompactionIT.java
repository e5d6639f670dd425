package io.sluice.plugin.hive.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code auto-compaction} of a BATCH write into a Hive table, in every format the target writes
 * (Parquet and ORC with Hive's record writer and the native one, text through the SerDe,
 * SequenceFile): two writers write a partition of small files and one of large files; at the end
 * the partition whose files are on average below {@code compaction.small-files.avg-size} has one
 * file holding all its rows, the other keeps its two files, one per writer (published as they
 * were, not merged). No hidden file is left, every row is read back once by a reader independent of
 * the writers (parquet-java, ORC's reader, Hive's SerDe), and the metastore has both partitions
 * with statistics that match the files on disk.
 */
class HiveBatchCompactionIT {

    /** ids 1..ROWS; every 100th goes to the small partition. */
    private static final int ROWS = 4000;

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

    @ParameterizedTest(name = "{0}, mapred writer {1}")
    @CsvSource({"parquet, true", "parquet, false", "orc, true", "orc, false", "textfile, false", "sequencefile, false"})
    void smallFilesOfAPartitionAreCompactedLargeOnesPublishedAsTheyAre(String format, boolean mapred) throws Exception {
        Path metastore = tmp.resolve("metastore");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        tEnv.getConfig().set("table.exec.hive.fallback-mapred-writer", String.valueOf(mapred));
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
        tEnv.executeSql("CREATE TABLE h.db.t (id BIGINT, msg STRING, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('hive.storage.file-format' = '" + format + "')");
        // two writers ('sink.parallelism'), each with rows of both partitions: two files per partition
        tEnv.executeSql("CREATE TEMPORARY TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" + ROWS + "', "
                + "'number-of-rows' = '" + ROWS + "')");
        tEnv.executeSql("INSERT INTO h.db.t /*+ OPTIONS('auto-compaction' = 'true',"
                        + " 'compaction.small-files.avg-size' = '16kb', 'sink.parallelism' = '2',"
                        + " 'sink.partition-commit.policy.kind' = 'metastore') */"
                        + " SELECT id, " + msg("id") + ", CASE WHEN MOD(id, 100) = 0 THEN 'small' ELSE 'large' END"
                        + " FROM numbers")
                .await();

        Path table = metastore.resolve("warehouse").resolve("db.db").resolve("t");
        assertThat(HiveFiles.hiddenFiles(table)).as("hidden files left").isEmpty();
        List<Path> small = ParquetFiles.dataFiles(table.resolve("dt=small"));
        List<Path> large = ParquetFiles.dataFiles(table.resolve("dt=large"));
        assertThat(small).as("the small partition, compacted").hasSize(1);
        assertThat(large)
                .as("the large partition: one file per writer, as written")
                .hasSize(2);
        assertThat(writers(large)).hasSize(2);
        for (Path file : large) {
            assertThat(Files.size(file)).as("%s", file).isGreaterThanOrEqualTo(16 * 1024);
        }

        List<String> expectedSmall = new ArrayList<>();
        List<String> expectedLarge = new ArrayList<>();
        for (long id = 1; id <= ROWS; id++) {
            (id % 100 == 0 ? expectedSmall : expectedLarge).add(id + "|" + expectedMsg(id));
        }
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.partitionNames("db", "t")).containsExactlyInAnyOrder("dt=small", "dt=large");
            assertThat(HiveFiles.rows(format, table.resolve("dt=small"), probe, "db", "t"))
                    .containsExactlyInAnyOrderElementsOf(expectedSmall);
            assertThat(HiveFiles.rows(format, table.resolve("dt=large"), probe, "db", "t"))
                    .containsExactlyInAnyOrderElementsOf(expectedLarge);
            assertStatistics(probe.partitionParameters("db", "t", "dt=small"), small, expectedSmall.size(), format);
            assertStatistics(probe.partitionParameters("db", "t", "dt=large"), large, expectedLarge.size(), format);
        }
    }

    /**
     * {@code compaction.parallelism}: the units of the final commit run on that many threads. Four
     * small partitions give four units; at 2 they are compacted by two named threads, at 1 by the
     * committer's own thread. Each unit's DEBUG line names its thread.
     */
    @Test
    void theUnitsOfACommitAreCompactedByCompactionParallelismThreads() throws Exception {
        Path metastore = tmp.resolve("parallel-metastore");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "2");
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
        tEnv.executeSql("CREATE TEMPORARY TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '400', "
                + "'number-of-rows' = '400')");
        for (int threads : new int[] {2, 1}) {
            String name = "p" + threads;
            tEnv.executeSql("CREATE TABLE h.db." + name + " (id BIGINT, dt STRING) PARTITIONED BY (dt)"
                    + " WITH ('hive.storage.file-format' = 'parquet')");
            Path log = Path.of(System.getProperty("java.io.tmpdir"), "test.log");
            long before = Files.exists(log) ? Files.size(log) : 0;
            tEnv.executeSql("INSERT INTO h.db." + name + " /*+ OPTIONS('auto-compaction' = 'true',"
                            + " 'compaction.parallelism' = '" + threads + "', 'sink.parallelism' = '2',"
                            + " 'sink.partition-commit.policy.kind' = 'metastore') */"
                            + " SELECT id, CONCAT('d', CAST(MOD(id, 4) AS STRING)) FROM numbers")
                    .await();
            byte[] all = Files.readAllBytes(log);
            List<String> lines = new String(
                            all, (int) before, all.length - (int) before, java.nio.charset.StandardCharsets.UTF_8)
                    .lines()
                    .filter(line -> line.contains("FileTargetCommitter - Compacting"))
                    .filter(line -> line.contains("'dt=d"))
                    .collect(java.util.stream.Collectors.toList());
            // "HH:mm:ss,SSS LEVEL thread logger - message": the thread is the third field
            Set<String> compactors = lines.stream()
                    .map(line -> line.trim().split("\\s+")[2])
                    .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
            assertThat(lines).as("one line per unit: %s", lines).hasSize(4);
            assertThat(compactors).as("%s", lines).hasSize(threads);
            if (threads > 1) {
                assertThat(compactors).allMatch(t -> t.startsWith("sluice-compaction-"));
            }
            Path table = metastore.resolve("warehouse").resolve("db.db").resolve(name);
            assertThat(HiveFiles.hiddenFiles(table)).as("hidden files left").isEmpty();
            for (int d = 0; d < 4; d++) {
                assertThat(ParquetFiles.dataFiles(table.resolve("dt=d" + d)))
                        .as("dt=d%s", d)
                        .hasSize(1);
            }
        }
    }

    /** A message of 64 hex digits, which no format compresses much. */
    static String msg(String id) {
        return "CONCAT(MD5(CAST(" + id + " AS STRING)), MD5(CAST(" + id + " + 1 AS STRING)))";
    }

    static String expectedMsg(long id) throws Exception {
        return md5(Long.toString(id)) + md5(Long.toString(id + 1));
    }

    private static String md5(String s) throws Exception {
        byte[] digest = java.security.MessageDigest.getInstance("MD5")
                .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        StringBuilder hex = new StringBuilder();
        for (byte b : digest) {
            hex.append(String.format("%02x", b));
        }
        return hex.toString();
    }

    /** The writers (their uids in the part file names) of the files. */
    static Set<String> writers(List<Path> files) {
        Set<String> writers = new TreeSet<>();
        for (Path file : files) {
            String name = file.getFileName().toString();
            assertThat(name).startsWith("part-");
            writers.add(name.substring("part-".length(), "part-".length() + 36));
        }
        return writers;
    }

    /** numFiles and totalSize as on disk; for Parquet and ORC numRows as written. */
    private static void assertStatistics(Map<String, String> params, List<Path> files, long rows, String format)
            throws Exception {
        long size = 0;
        for (Path file : files) {
            size += Files.size(file);
        }
        assertThat(params)
                .containsEntry("numFiles", Integer.toString(files.size()))
                .containsEntry("totalSize", Long.toString(size));
        if (format.equals("parquet") || format.equals("orc")) {
            assertThat(params).containsEntry("numRows", Long.toString(rows));
        }
    }
}
