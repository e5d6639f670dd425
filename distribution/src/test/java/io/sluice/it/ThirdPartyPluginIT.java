package io.sluice.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A third party's plugin, built by its own module against the published SPI jar only
 * ({@code examples/example-plugin}), loads from the plugins directory next to the
 * distribution's plugins and its extensions are chosen by name in SQL tables: its enumerator reads
 * only the files its manifest lists; its compactor merges a sink's small files into sorted ones.
 */
@Tag("both-lines")
class ThirdPartyPluginIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    private Path pluginsWithExample() throws Exception {
        Path plugins = tmp.resolve("plugins");
        TestDistribution.copyTree(TestDistribution.pluginsDir(), plugins);
        TestDistribution.copyTree(Paths.get(System.getProperty("sluice.test.example-plugins")), plugins);
        return plugins;
    }

    @Test
    void manifestEnumeratorReadsOnlyTheListedFiles() throws Exception {
        Path plugins = pluginsWithExample();
        Path data = tmp.resolve("data");
        Files.createDirectories(data);
        Files.write(data.resolve("a.csv"), "1,a\n2,a\n".getBytes(StandardCharsets.UTF_8));
        Files.write(data.resolve("b.csv"), "3,b\n".getBytes(StandardCharsets.UTF_8));
        Files.write(data.resolve("c.csv"), "4,c\n".getBytes(StandardCharsets.UTF_8));
        Files.write(data.resolve("_MANIFEST"), "# published files\na.csv\nc.csv\n".getBytes(StandardCharsets.UTF_8));

        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE TABLE t (id INT, name STRING) WITH ('connector' = 'sluice', "
                + "'sluice.plugins.dir' = '" + plugins + "', 'path' = '" + data + "', 'format' = 'csv', "
                + "'source.enumerator' = 'manifest')");
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it =
                tEnv.executeSql("SELECT id, name FROM t").collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        assertThat(rows).containsExactlyInAnyOrder("+I[1, a]", "+I[2, a]", "+I[4, c]");
    }

    @Test
    void sortedLinesCompactorMergesTheSinksFilesIntoSortedOnes() throws Exception {
        Path plugins = pluginsWithExample();
        Path out = tmp.resolve("out");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql(
                "CREATE TABLE t (id INT, name STRING) WITH ('connector' = 'sluice', "
                        + "'target' = 'filesystem', 'sluice.plugins.dir' = '" + plugins + "', 'path' = '" + out
                        + "', 'format' = 'csv', "
                        + "'sink.rolling-policy.file-size' = '64b', "
                        + "'auto-compaction' = 'true', 'compaction.file-size' = '1mb', 'compaction.compactor' = 'sorted-lines')");
        StringBuilder values = new StringBuilder();
        for (int i = 1000; i > 0; i--) {
            values.append(i == 1000 ? "" : ", ")
                    .append("(")
                    .append(i)
                    .append(", 'n")
                    .append(i)
                    .append("')");
        }
        tEnv.executeSql("INSERT INTO t VALUES " + values).await();

        List<Path> files = CommittedFiles.visible(out);
        assertThat(files).as("one compacted file from many 64-byte ones").hasSize(1);
        List<String> lines = Files.readAllLines(files.get(0));
        assertThat(lines).hasSize(1000).isSorted();
        assertThat(lines.stream().map(l -> Integer.parseInt(l.split(",")[0])).distinct())
                .hasSize(1000);
        assertThat(CommittedFiles.uncompacted(out)).isEmpty();
    }

    @Test
    void unknownCompactorListsTheAvailableOnes() throws Exception {
        Path plugins = pluginsWithExample();
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE TABLE t (id INT) WITH ('connector' = 'sluice', 'target' = 'filesystem', "
                + "'sluice.plugins.dir' = '" + plugins + "', 'path' = '" + tmp
                + "', 'format' = 'csv', 'auto-compaction' = 'true', "
                + "'compaction.compactor' = 'nope')");
        Throwable error =
                catchThrowable(() -> tEnv.executeSql("INSERT INTO t VALUES (1)").await());
        assertThat(error)
                .hasStackTraceContaining("Invalid 'compaction.compactor' 'nope'")
                .hasStackTraceContaining("concat")
                .hasStackTraceContaining("record-wise")
                .hasStackTraceContaining("sorted-lines");

        tEnv.executeSql("CREATE TABLE p (id INT) WITH ('connector' = 'sluice', 'target' = 'filesystem', "
                + "'sluice.plugins.dir' = '" + plugins + "', 'path' = '" + tmp
                + "', 'format' = 'parquet', 'auto-compaction' = 'true', "
                + "'compaction.compactor' = 'concat')");
        Throwable concat =
                catchThrowable(() -> tEnv.executeSql("INSERT INTO p VALUES (1)").await());
        assertThat(concat)
                .hasStackTraceContaining("'concat'")
                .hasStackTraceContaining("'parquet'")
                .hasStackTraceContaining("record-wise");
    }

    @Test
    void unknownEnumeratorListsTheAvailableOnes() throws Exception {
        Path plugins = pluginsWithExample();
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE TABLE t (id INT) WITH ('connector' = 'sluice', 'sluice.plugins.dir' = '" + plugins
                + "', 'path' = '" + tmp + "', 'format' = 'csv', 'source.enumerator' = 'nope')");
        Throwable error = catchThrowable(
                () -> tEnv.executeSql("SELECT * FROM t").collect().close());
        assertThat(error)
                .hasStackTraceContaining("No FileEnumeratorFactory named 'nope'")
                .hasStackTraceContaining("manifest")
                .hasStackTraceContaining("recursive")
                .hasStackTraceContaining("block-splitting");
    }
}
