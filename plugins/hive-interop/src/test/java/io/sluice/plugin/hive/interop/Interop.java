package io.sluice.plugin.hive.interop;

import io.sluice.testservers.hive.StandaloneMetastore;

import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * What the interop tests share: the plugins directory (the hive, formats and filesystem plugin
 * zips as their modules packaged them, unpacked by the build; system property {@code
 * sluice.test.plugins-dir}), the two catalogs on one {@link StandaloneMetastore}, and upstream's
 * metastore client, all on this module's flat class path. Public for the benchmarks' package.
 */
public final class Interop {

    private Interop() {}

    /** Skips the test class outside the integration-test phase, where the plugins are not unpacked yet. */
    public static void assumeIntegrationTestPhase() {
        Assumptions.assumeTrue(
                System.getProperty("sluice.test.plugins-dir") != null,
                "integration test: runs in the integration-test phase (failsafe), after the plugins are unpacked");
    }

    public static Path pluginsDir() {
        Path dir = Paths.get(System.getProperty("sluice.test.plugins-dir", ""));
        for (String id : new String[] {"hive", "formats", "filesystem"}) {
            if (!Files.isRegularFile(dir.resolve(id).resolve("plugin.properties"))) {
                throw new IllegalStateException("No " + id + " plugin in " + dir + ": run the tests through Maven");
            }
        }
        return dir;
    }

    /** Sluice's hive catalog on the metastore, remote mode (the default). */
    public static void sluiceCatalog(TableEnvironment tEnv, String name, StandaloneMetastore metastore) {
        tEnv.executeSql("CREATE CATALOG " + name + " WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + pluginsDir() + "', "
                + "'hive-conf-dir' = '" + metastore.hiveConfDir() + "')");
    }

    /** Upstream's HiveCatalog (flink-connector-hive on the class path) on the same metastore. */
    public static void upstreamCatalog(TableEnvironment tEnv, String name, StandaloneMetastore metastore) {
        tEnv.executeSql("CREATE CATALOG " + name + " WITH ('type' = 'hive', " + "'hive-conf-dir' = '"
                + metastore.hiveConfDir() + "')");
    }

    /** Upstream Hive's own metastore client (hive-exec 3.1.3 on the class path), from the same hive-site.xml. */
    public static HiveMetaStoreClient client(StandaloneMetastore metastore) throws Exception {
        HiveConf conf = new HiveConf();
        conf.addResource(new org.apache.hadoop.fs.Path(
                metastore.hiveConfDir().resolve("hive-site.xml").toUri()));
        return new HiveMetaStoreClient(conf);
    }

    public static List<Row> rows(TableEnvironment tEnv, String sql) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(sql).collect()) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }
}
