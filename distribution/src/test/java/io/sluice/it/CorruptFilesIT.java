package io.sluice.it;

import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Corrupt files met by the file source in a job: a malformed csv line and a truncated Parquet file
 * fail the job with an error naming the file (and the line and offset); with {@code
 * json.ignore-parse-errors} the malformed lines are skipped and counted in the source's {@code
 * numRecordsInErrors} metric, and every good row is read. (For csv, as upstream, the option sets
 * fields that do not parse to null and skips only records that do not split into fields.)
 */
class CorruptFilesIT {

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setConfiguration(METRICS.addToConfiguration(new Configuration()))
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    private Path csvWithTwoMalformedLines() throws Exception {
        Path data = tmp.resolve("data");
        Files.createDirectories(data);
        Files.write(data.resolve("good.csv"), "1,a\n2,b\n".getBytes(StandardCharsets.UTF_8));
        Files.write(
                data.resolve("bad.csv"), "3,c\nnot-a-number,d\n4,e\nfive,f\n6,g\n".getBytes(StandardCharsets.UTF_8));
        return data;
    }

    private static TableEnvironment table(Path data, String format, String extra) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE TABLE t (id INT, name STRING) WITH ('connector' = 'sluice', "
                + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "', 'path' = '" + data + "', "
                + "'format' = '" + format + "'" + extra + ")");
        return tEnv;
    }

    @Test
    void aMalformedCsvLineFailsTheJobNamingFileLineAndOffset() throws Exception {
        Path data = csvWithTwoMalformedLines();
        TableEnvironment tEnv = table(data, "csv", "");
        Throwable error = catchThrowable(() -> {
            try (CloseableIterator<Row> it = tEnv.executeSql("SELECT * FROM t").collect()) {
                it.forEachRemaining(r -> {});
            }
        });
        assertThat(error)
                .hasStackTraceContaining(data.resolve("bad.csv").toString())
                .hasStackTraceContaining("line 2")
                .hasStackTraceContaining("byte offset 4");
    }

    @Test
    void withIgnoreParseErrorsMalformedLinesAreSkippedAndCounted() throws Exception {
        Path data = tmp.resolve("json");
        Files.createDirectories(data);
        Files.write(
                data.resolve("events.json"),
                ("{\"id\":1,\"name\":\"a\"}\n{broken\n{\"id\":2,\"name\":\"b\"}\n"
                                + "not json at all\n{\"id\":3,\"name\":\"c\"}\n")
                        .getBytes(StandardCharsets.UTF_8));
        TableEnvironment tEnv = table(data, "json", ", 'json.ignore-parse-errors' = 'true'");
        TableResult result = tEnv.executeSql("SELECT id, name FROM t");
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        assertThat(rows).containsExactlyInAnyOrder("+I[1, a]", "+I[2, b]", "+I[3, c]");

        JobID job = result.getJobClient().get().getJobID();
        long skipped = 0;
        for (Map.Entry<String, Metric> m :
                METRICS.findMetrics(job, "numRecordsInErrors").entrySet()) {
            if (m.getKey().contains("Source")) {
                skipped += ((Counter) m.getValue()).getCount();
            }
        }
        assertThat(skipped).as("numRecordsInErrors of the source").isEqualTo(2);
    }

    @Test
    void aTruncatedParquetFileFailsTheJobNamingTheFile() throws Exception {
        Path data = tmp.resolve("parquet");
        TableEnvironment writer = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        writer.executeSql("CREATE TABLE w (id INT, name STRING) WITH ('connector' = 'sluice', 'target' = 'filesystem', "
                + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "', 'path' = '" + data + "', "
                + "'format' = 'parquet')");
        writer.executeSql("INSERT INTO w VALUES (1, 'a'), (2, 'b'), (3, 'c')").await();
        Path file = CommittedFiles.visible(data).get(0);
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));

        TableEnvironment tEnv = table(data, "parquet", "");
        Throwable error = catchThrowable(() -> {
            try (CloseableIterator<Row> it = tEnv.executeSql("SELECT * FROM t").collect()) {
                it.forEachRemaining(r -> {});
            }
        });
        assertThat(error).hasStackTraceContaining(file.toString());
    }

    /**
     * A zero-byte file holds no header and no footer, so it is no file of a binary format: Parquet
     * and Avro always failed on one; ORC's reader takes it for a file without rows, and the read
     * skipped it (issue 31). Every binary format now fails naming the file.
     */
    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {"parquet", "avro", "orc"})
    void aZeroByteFileFailsTheJobNamingTheFile(String format) throws Exception {
        Path data = tmp.resolve(format);
        TableEnvironment writer = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        writer.executeSql("CREATE TABLE w (id INT, name STRING) WITH ('connector' = 'sluice', 'target' = 'filesystem', "
                + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "', 'path' = '" + data + "', "
                + "'format' = '" + format + "')");
        writer.executeSql("INSERT INTO w VALUES (1, 'a'), (2, 'b')").await();
        Path empty = Files.createFile(data.resolve("empty." + format));

        TableEnvironment tEnv = table(data, format, "");
        Throwable error = catchThrowable(() -> {
            try (CloseableIterator<Row> it = tEnv.executeSql("SELECT * FROM t").collect()) {
                it.forEachRemaining(r -> {});
            }
        });
        assertThat(error).as("reading %s", empty).isNotNull().hasStackTraceContaining(empty.toString());
    }
}
