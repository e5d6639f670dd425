package io.sluice.plugin.hive;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bundled {@code flink-connector-hive} is a binary built for Flink 1.20: nothing compiles it
 * against the line the plugin runs on, so a Flink release that drops a class or method it calls
 * fails only when a job first runs that code. This test links, without running anything, every
 * reference of every connector class the plugin can reach against the running line's Flink jars
 * (the test class path), and fails on a reference that does not resolve unless its method is one
 * of {@link #NEVER_RUN}: connector code the plugin holds but never executes. The plugin must then
 * not run those methods, called by itself or through the connector's own calls.
 *
 * <p>On Flink 2.1.1 (checked with the walk on a class path of its jars) the unresolved references
 * are all in this list: upstream's factories, sink and sources, and the catalog's table path
 * ({@code HiveCatalog#createTable}, {@code #alterTable}, {@code #instantiateCatalogTable} and the
 * constraint methods behind them), which {@code SluiceHiveCatalog} does itself.
 */
class ConnectorLinkageTest {

    /**
     * Connector classes ({@code Class#*}, with their nested classes) and methods ({@code
     * Class#name}, every overload) that the plugin reaches through its class references but never
     * runs: Sluice has its own sink, scan source, lookup
     * join and streaming monitor, and its catalog answers {@code getFactory} itself
     * (SluiceCatalog), so upstream's table factories and what they make stay idle. A reference in
     * one of these may be missing on a line; a call from the plugin into one fails the test.
     */
    static final Set<String> NEVER_RUN = Set.of(
            "org.apache.flink.connectors.hive.HiveDynamicTableFactory#*",
            "org.apache.flink.connectors.hive.HiveTableFactory#*",
            "org.apache.flink.connectors.hive.HiveTableSink#*",
            "org.apache.flink.connectors.hive.HiveTableSource#*",
            "org.apache.flink.connectors.hive.HiveLookupTableSource#*",
            "org.apache.flink.table.catalog.hive.HiveCatalogLock#*",
            // upstream's streaming sink's bucket builder (StreamingFileSink, gone in Flink 2)
            "org.apache.flink.streaming.api.functions.sink.filesystem.HadoopPathBasedBulkFormatBuilder#*",
            // the catalog's table path, which SluiceHiveCatalog owns (MetastoreTables): it links
            // against ManagedTableListener, the legacy UniqueConstraint and CatalogTable.of
            "org.apache.flink.table.catalog.hive.HiveCatalog#createTable",
            "org.apache.flink.table.catalog.hive.HiveCatalog#alterTable",
            "org.apache.flink.table.catalog.hive.HiveCatalog#instantiateCatalogTable",
            "org.apache.flink.table.catalog.hive.util.HiveTableUtil#instantiateHiveTable",
            "org.apache.flink.table.catalog.hive.util.HiveTableUtil#alterTableViaCatalogBaseTable",
            "org.apache.flink.table.catalog.hive.util.HiveTableUtil#createSchema",
            "org.apache.flink.table.catalog.hive.util.HiveTableUtil#createResolvedSchema",
            "org.apache.flink.table.catalog.hive.util.HiveTableUtil#extractHiveTableInfo",
            "org.apache.flink.table.catalog.hive.util.HiveTableUtil#getColumnInformation",
            "org.apache.flink.table.catalog.hive.util.HiveTableUtil#lambda$extractHiveTableInfo$2",
            "org.apache.flink.table.catalog.hive.client.HiveMetastoreClientWrapper#createTableWithConstraints",
            "org.apache.flink.table.catalog.hive.client.HiveMetastoreClientWrapper#getPrimaryKey",
            "org.apache.flink.table.catalog.hive.client.HiveShimV210#createTableWithConstraints",
            "org.apache.flink.table.catalog.hive.client.HiveShimV210#createHivePKs",
            "org.apache.flink.table.catalog.hive.client.HiveShimV210#getPrimaryKey",
            "org.apache.flink.table.catalog.hive.client.HiveShimV310#createTableWithConstraints");

    private static ConnectorLinkage linkage;
    private static ConnectorLinkage.Result result;

    @BeforeAll
    static void walk() throws IOException, URISyntaxException {
        ClassLoader line = ConnectorLinkageTest.class.getClassLoader();
        // by name: the class itself does not load here, its superclass is in the bundled connector
        String catalog = "io/sluice/plugin/hive/SluiceHiveCatalog.class";
        Path pluginClasses = Paths.get(line.getResource(catalog).toURI());
        for (int i = 0; i < catalog.split("/").length; i++) {
            pluginClasses = pluginClasses.getParent();
        }
        linkage = new ConnectorLinkage(bundledJars(), line::getResourceAsStream);
        result = linkage.walk(pluginClasses);
    }

    @Test
    void everyReferenceThePluginCanRunResolvesOnTheRunningLine() {
        // the walk got through the connector: the catalog, the split planning, the readers and writer
        assertThat(result.reachedBundled())
                .contains(
                        "org/apache/flink/table/catalog/hive/HiveCatalog",
                        "org/apache/flink/connectors/hive/HiveSourceFileEnumerator",
                        "org/apache/flink/connectors/hive/read/HiveInputFormat",
                        "org/apache/flink/connectors/hive/write/HiveWriterFactory")
                .hasSizeGreaterThan(1_000);
        assertThat(result.pluginCalls())
                .extracting(ConnectorLinkage.PluginCall::caller)
                .contains("io/sluice/plugin/hive/SluiceHiveCatalog", "io/sluice/plugin/hive/HiveScanPlanner");

        List<String> unresolved = result.missing().stream()
                .filter(m -> !neverRun(m.holder()))
                .map(ConnectorLinkage.Missing::toString)
                .collect(Collectors.toList());
        assertThat(unresolved)
                .as("references the plugin may run that the running line's Flink cannot resolve"
                        + " (connector method -> what it names)")
                .isEmpty();
    }

    @Test
    void thePluginRunsNoMethodItCountsOnNeverRunning() {
        List<String> chains = linkage.pathsFromPlugin(result, ConnectorLinkageTest::neverRun).stream()
                .map(chain -> String.join(" -> ", chain))
                .collect(Collectors.toList());
        assertThat(chains)
                .as("calls from the plugin, directly or through the connector, into " + NEVER_RUN)
                .isEmpty();
    }

    /** Whether {@code holder} ({@code pkg.Class#name(descriptor)}) is in {@link #NEVER_RUN}. */
    static boolean neverRun(String holder) {
        String className = holder.substring(0, holder.indexOf('#'));
        String method = holder.substring(holder.indexOf('#') + 1);
        String name = method.contains("(") ? method.substring(0, method.indexOf('(')) : method;
        for (String entry : NEVER_RUN) {
            String entryClass = entry.substring(0, entry.indexOf('#'));
            String entryMethod = entry.substring(entry.indexOf('#') + 1);
            boolean wholeClass =
                    entryMethod.equals("*") && (className.equals(entryClass) || className.startsWith(entryClass + "$"));
            if (wholeClass || (className.equals(entryClass) && entryMethod.equals(name))) {
                return true;
            }
        }
        return false;
    }

    private static List<Path> bundledJars() throws IOException {
        try (InputStream in = ConnectorLinkageTest.class.getResourceAsStream("bundled-flink.classpath")) {
            assertThat(in).as("bundled-flink.classpath (written by the build)").isNotNull();
            String path = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            List<Path> jars = Arrays.stream(path.split(File.pathSeparator))
                    .map(Paths::get)
                    .collect(Collectors.toList());
            assertThat(jars.stream().map(j -> j.getFileName().toString()))
                    .anyMatch(n -> n.startsWith("flink-connector-hive"));
            return jars;
        }
    }
}
