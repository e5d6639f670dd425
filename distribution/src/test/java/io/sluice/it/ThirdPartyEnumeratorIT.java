package io.sluice.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
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
 * ({@code examples/manifest-enumerator-plugin}), loads from the plugins directory next to the
 * distribution's plugins and is chosen by name in a SQL table: only the files its manifest lists
 * are read.
 */
class ThirdPartyEnumeratorIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir Path tmp;

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
        try (CloseableIterator<Row> it = tEnv.executeSql("SELECT id, name FROM t").collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        assertThat(rows).containsExactlyInAnyOrder("+I[1, a]", "+I[2, a]", "+I[4, c]");
    }

    @Test
    void unknownEnumeratorListsTheAvailableOnes() throws Exception {
        Path plugins = pluginsWithExample();
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE TABLE t (id INT) WITH ('connector' = 'sluice', 'sluice.plugins.dir' = '" + plugins
                + "', 'path' = '" + tmp + "', 'format' = 'csv', 'source.enumerator' = 'nope')");
        Throwable error = catchThrowable(() -> tEnv.executeSql("SELECT * FROM t").collect().close());
        StringBuilder messages = new StringBuilder();
        for (Throwable c = error; c != null; c = c.getCause()) {
            messages.append(c.getMessage()).append('\n');
        }
        assertThat(messages.toString()).contains("No FileEnumeratorFactory named 'nope'")
                .contains("manifest").contains("recursive").contains("block-splitting");
    }
}
