package io.sluice.it;

import io.sluice.testservers.hdfs.HdfsServer;
import io.sluice.testservers.s3.FlinkS3FileSystem;
import io.sluice.testservers.s3.S3Server;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The filesystem target and the file source through Flink SQL on real storage: an S3 API server
 * through Flink's own S3 file systems ({@code s3a://} by {@code flink-s3-fs-hadoop}, {@code s3p://}
 * by {@code flink-s3-fs-presto}, both loaded as a cluster loads its plugins) and HDFS. Every format
 * is written and read back, by Sluice's source and, for csv and Parquet, by independent readers
 * (the AWS SDK's or Hadoop's client, plain text and parquet-java).
 */
class ObjectStoreSqlIT {

    private static final String BUCKET = "sql-lake";
    private static final int ROWS = 2000;

    @RegisterExtension
    static final S3Server S3 =
            S3Server.inMemory(BUCKET).withFlinkFileSystems(FlinkS3FileSystem.HADOOP, FlinkS3FileSystem.PRESTO);

    @RegisterExtension
    static final HdfsServer HDFS = new HdfsServer();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    static Stream<Arguments> storesAndFormats() {
        return Stream.of("s3a", "hdfs")
                .flatMap(store ->
                        Stream.of("csv", "json", "parquet", "orc", "avro").map(format -> Arguments.of(store, format)));
    }

    private static String tableRoot(String store, String name) {
        return store.equals("hdfs") ? HDFS.uri() + "/sql/" + name : store + "://" + BUCKET + "/sql/" + name;
    }

    private static void createTable(TableEnvironment tEnv, String name, String path, String format) {
        tEnv.executeSql("CREATE TABLE " + name + " (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt) WITH ("
                + "'connector' = 'sluice', 'target' = 'filesystem', 'sluice.plugins.dir' = '"
                + TestDistribution.pluginsDir() + "', 'path' = '" + path + "', 'format' = '" + format + "', "
                + "'sink.partition-commit.policy.kind' = 'success-file')");
    }

    private static void insertNumbers(TableEnvironment tEnv, String table) throws Exception {
        tEnv.executeSql("CREATE TEMPORARY TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', "
                + "'number-of-rows' = '" + ROWS + "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
                + "'fields.id.end' = '" + ROWS + "')");
        tEnv.executeSql("INSERT INTO " + table + " SELECT id, CONCAT('n', CAST(id AS STRING)), "
                        + "CONCAT('d', CAST(id % 4 AS STRING)) FROM numbers")
                .await();
    }

    private static List<Long> readIds(TableEnvironment tEnv, String table) throws Exception {
        List<Long> ids = new ArrayList<>();
        try (CloseableIterator<Row> rows =
                tEnv.executeSql("SELECT id, name, dt FROM " + table).collect()) {
            while (rows.hasNext()) {
                Row row = rows.next();
                long id = (Long) row.getField(0);
                assertThat(row.getField(1)).isEqualTo("n" + id);
                assertThat(row.getField(2)).isEqualTo("d" + id % 4);
                ids.add(id);
            }
        }
        return ids;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("storesAndFormats")
    void everyFormatIsWrittenAndReadBack(String store, String format) throws Exception {
        String table = "t_" + format;
        String root = tableRoot(store, table);
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        createTable(tEnv, table, root, format);
        insertNumbers(tEnv, table);

        List<Long> read = readIds(tEnv, table);
        assertThat(read).hasSize(ROWS);
        assertThat(new TreeSet<>(read)).containsExactlyElementsOf(all());

        Path copy = localCopy(store, "sql/" + table);
        assertThat(CommittedFiles.named(copy, "_SUCCESS")).hasSize(4);
        assertThat(CommittedFiles.inProgress(copy)).isEmpty();
        if (format.equals("csv")) {
            TreeSet<Long> ids = CommittedFiles.lines(copy).stream()
                    .map(l -> Long.parseLong(l.split(",")[0]))
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(ids).containsExactlyElementsOf(all());
        } else if (format.equals("parquet")) {
            TreeSet<Long> ids = new TreeSet<>(CommittedFiles.parquet(copy, g -> g.getLong("id", 0)));
            assertThat(ids).containsExactlyElementsOf(all());
        }
        if (store.startsWith("s3")) {
            assertThat(S3.openUploads(BUCKET, "sql/" + table)).isEmpty();
        }
    }

    @Test
    void prestosFileSystemReadsWhatS3AWrote() throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        createTable(tEnv, "written", tableRoot("s3a", "presto_read"), "parquet");
        insertNumbers(tEnv, "written");
        createTable(tEnv, "through_presto", tableRoot("s3p", "presto_read"), "parquet");

        List<Long> read = readIds(tEnv, "through_presto");
        assertThat(read).hasSize(ROWS);
        assertThat(new TreeSet<>(read)).containsExactlyElementsOf(all());
    }

    @Test
    void prestosFileSystemCannotWriteAndTheErrorSaysWhatCan() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        createTable(tEnv, "presto_written", tableRoot("s3p", "presto_write"), "csv");
        // refused while the statement is planned, before a job runs
        assertThatThrownBy(() -> tEnv.executeSql("INSERT INTO presto_written VALUES (1, 'n1', 'd1')"))
                .hasStackTraceContaining("Cannot write to 'path' s3p://" + BUCKET + "/sql/presto_write")
                .hasStackTraceContaining("does not support recoverable writers")
                .hasStackTraceContaining("flink-s3-fs-hadoop writes part files");
        assertThat(S3.keys(BUCKET, "sql/presto_write")).isEmpty();
    }

    private static TreeSet<Long> all() {
        return LongStream.rangeClosed(1, ROWS).boxed().collect(Collectors.toCollection(TreeSet::new));
    }

    private Path localCopy(String store, String relative) throws Exception {
        Path copy = tmp.resolve("copy");
        if (store.equals("hdfs")) {
            org.apache.hadoop.fs.FileSystem hdfs =
                    org.apache.hadoop.fs.FileSystem.get(URI.create(HDFS.uri()), new Configuration());
            hdfs.copyToLocalFile(
                    false,
                    new org.apache.hadoop.fs.Path("/" + relative),
                    new org.apache.hadoop.fs.Path(copy.toUri()),
                    true);
            return copy;
        }
        return S3.download(BUCKET, relative + "/", copy);
    }
}
