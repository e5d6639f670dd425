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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code CREATE CATALOG ... WITH ('type' = 'sluice', 'target' = ...)}: a plugin's catalog serves
 * the metadata, and its tables are written and read through Sluice's pipeline (here a test plugin's
 * in-memory catalog whose tables live as files of the {@code filesystem} target).
 */
class SluiceCatalogIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    @Test
    void tablesOfAPluginsCatalogAreWrittenAndReadThroughSluice() throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG files WITH ('type' = 'sluice', 'target' = 'acme-files', "
                + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDirWithTestPlugins() + "', "
                + "'warehouse' = '" + warehouse + "')");
        tEnv.executeSql("CREATE TABLE files.`default`.orders (id INT, name STRING) WITH ('format' = 'json')");
        tEnv.executeSql("INSERT INTO files.`default`.orders VALUES (1, 'a'), (2, 'b')")
                .await();

        assertThat(CommittedFiles.lines(warehouse.resolve("default").resolve("orders")))
                .containsExactlyInAnyOrder("{\"id\":1,\"name\":\"a\"}", "{\"id\":2,\"name\":\"b\"}");
        tEnv.executeSql("USE CATALOG files");
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it =
                tEnv.executeSql("SELECT id, name FROM orders").collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        assertThat(rows).containsExactlyInAnyOrder("+I[1, a]", "+I[2, b]");
        assertThat(tEnv.listTables()).containsExactly("orders");
    }

    @Test
    void badCatalogOptionsAreClearErrors() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        String plugins = "'sluice.plugins.dir' = '" + TestDistribution.pluginsDirWithTestPlugins() + "'";
        assertThat(catchThrowable(() -> tEnv.executeSql(
                        "CREATE CATALOG c WITH ('type' = 'sluice', " + plugins + ", 'target' = 'nope')")))
                .hasStackTraceContaining("Invalid options of catalog 'c'")
                .hasStackTraceContaining("TargetCatalogFactory")
                .hasStackTraceContaining("'nope'")
                .hasStackTraceContaining("acme-files");
        assertThat(catchThrowable(() -> tEnv.executeSql(
                        "CREATE CATALOG c2 WITH ('type' = 'sluice', " + plugins + ", 'target' = 'acme-files')")))
                .hasStackTraceContaining("Missing option 'warehouse' of catalog 'c2'");
        assertThat(catchThrowable(() -> tEnv.executeSql("CREATE CATALOG c3 WITH ('type' = 'sluice', " + plugins + ")")))
                .hasStackTraceContaining("target");
    }
}
