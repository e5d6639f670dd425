package io.sluice.plugin.hive.interop;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.testservers.hive.StandaloneMetastore;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Paths;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The isolation point of the interop module: its flat class path carries upstream's Hive connector,
 * hive-exec 3.1.3, a Hadoop {@value #FLAT_HADOOP} client and Avro {@value #FLAT_AVRO}; the hive
 * plugin next to it carries its own Hive connector and hive-exec, Hadoop {@value #PLUGIN_HADOOP}
 * and the Avro of hive-exec's bundle, {@value #PLUGIN_AVRO}. Each class below is a different {@code Class} on each side,
 * the versions differ, and both sides write and read one table in one JVM.
 */
class FlatAndIsolatedHiveIT {

    static final String FLAT_HADOOP = "3.4.1";
    static final String PLUGIN_HADOOP = "3.3.6";
    static final String FLAT_AVRO = "1.12.0";
    /** The Avro hive-exec 3.1.3's bundle carries. */
    static final String PLUGIN_AVRO = "1.8.2";

    @RegisterExtension
    static final StandaloneMetastore METASTORE = new StandaloneMetastore();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @BeforeAll
    static void onlyAfterPackaging() {
        Interop.assumeIntegrationTestPhase();
    }

    @Test
    void eachSideHasItsOwnHiveHadoopAndAvroAndBothWorkInOneJvm() throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        Interop.sluiceCatalog(tEnv, "h", METASTORE);
        Interop.upstreamCatalog(tEnv, "u", METASTORE);
        Catalog sluice = tEnv.getCatalog("h").orElseThrow();
        Catalog upstream = tEnv.getCatalog("u").orElseThrow();
        ClassLoader plugin = ((PluginBound) sluice).pluginClassLoader();
        ClassLoader flat = FlatAndIsolatedHiveIT.class.getClassLoader();

        // the framework is the jar a cluster's lib/ holds, on the flat class path with upstream's connector
        assertThat(Paths.get(PluginBound.class
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation()
                                .toURI())
                        .getFileName()
                        .toString())
                .endsWith("-framework.jar");
        // upstream's catalog is the flat class path's HiveCatalog; Sluice's is the plugin's
        assertThat(upstream).isInstanceOf(org.apache.flink.table.catalog.hive.HiveCatalog.class);
        assertThat(upstream.getClass().getClassLoader()).isNotSameAs(plugin);
        Object delegate = ((PluginBound) sluice).unwrap();
        assertThat(delegate.getClass().getClassLoader()).isSameAs(plugin);
        assertThat(delegate).isNotInstanceOf(org.apache.flink.table.catalog.hive.HiveCatalog.class);

        for (String name : new String[] {
            "org.apache.hadoop.hive.conf.HiveConf",
            "org.apache.hadoop.hive.metastore.HiveMetaStoreClient",
            "org.apache.flink.table.catalog.hive.HiveCatalog",
            "org.apache.hadoop.conf.Configuration",
            "org.apache.avro.Schema"
        }) {
            Class<?> flatClass = Class.forName(name, false, flat);
            Class<?> pluginClass = Class.forName(name, false, plugin);
            assertThat(pluginClass).as(name).isNotSameAs(flatClass);
            assertThat(pluginClass.getClassLoader()).as(name).isSameAs(plugin);
        }
        // the upstream catalog's HiveConf is the flat one
        assertThat(((org.apache.flink.table.catalog.hive.HiveCatalog) upstream)
                        .getHiveConf()
                        .getClass())
                .isSameAs(org.apache.hadoop.hive.conf.HiveConf.class);

        // other versions on each side
        assertThat(hadoopVersion(flat)).isEqualTo(FLAT_HADOOP);
        assertThat(hadoopVersion(plugin)).isEqualTo(PLUGIN_HADOOP);
        assertThat(jarOf(flat, "org.apache.avro.Schema")).isEqualTo("avro-" + FLAT_AVRO + ".jar");
        assertThat(jarOf(plugin, "org.apache.avro.Schema")).isEqualTo("hive-exec-3.1.3.jar");
        assertThat(avroVersion(flat)).isEqualTo(FLAT_AVRO);
        assertThat(avroVersion(plugin)).isEqualTo(PLUGIN_AVRO);
        assertThat(jarOf(plugin, "org.apache.hadoop.conf.Configuration"))
                .isEqualTo("hadoop-client-api-" + PLUGIN_HADOOP + ".jar");
        assertThat(jarOf(flat, "org.apache.hadoop.conf.Configuration"))
                .isEqualTo("hadoop-client-api-" + FLAT_HADOOP + ".jar");

        // and both work in this JVM, on one table: upstream creates and writes, Sluice appends, upstream reads
        tEnv.executeSql("CREATE DATABASE u.iso");
        tEnv.executeSql("CREATE TABLE u.iso.t (id INT, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('connector' = 'hive', 'hive.storage.file-format' = 'orc')");
        tEnv.executeSql("INSERT INTO u.iso.t VALUES (1, 'a')").await();
        tEnv.executeSql("INSERT INTO h.iso.t /*+ OPTIONS('sink.partition-commit.policy.kind' = 'metastore') */"
                        + " VALUES (2, 'a'), (3, 'b')")
                .await();
        assertThat(Interop.rows(tEnv, "SELECT id, dt FROM u.iso.t"))
                .containsExactlyInAnyOrder(Row.of(1, "a"), Row.of(2, "a"), Row.of(3, "b"));
    }

    private static String hadoopVersion(ClassLoader loader) throws Exception {
        return (String) Class.forName("org.apache.hadoop.util.VersionInfo", true, loader)
                .getMethod("getVersion")
                .invoke(null);
    }

    /**
     * The version in the Maven metadata of Avro inside the jar {@code loader} loads Avro's {@code
     * Schema} from (other jars may carry Avro's metadata too: the plugin's shaded Hadoop client does).
     */
    private static String avroVersion(ClassLoader loader) throws Exception {
        java.net.URL jar = Class.forName("org.apache.avro.Schema", false, loader)
                .getProtectionDomain()
                .getCodeSource()
                .getLocation();
        java.util.Properties properties = new java.util.Properties();
        try (java.io.InputStream in =
                new java.net.URL("jar:" + jar + "!/META-INF/maven/org.apache.avro/avro/pom.properties").openStream()) {
            properties.load(in);
        }
        return properties.getProperty("version");
    }

    /** The file name of the jar {@code loader} loads class {@code name} from. */
    private static String jarOf(ClassLoader loader, String name) throws Exception {
        java.net.URL location = Class.forName(name, false, loader)
                .getProtectionDomain()
                .getCodeSource()
                .getLocation();
        return Paths.get(location.toURI()).getFileName().toString();
    }
}
