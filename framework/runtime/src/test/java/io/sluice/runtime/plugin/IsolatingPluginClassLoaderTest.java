package io.sluice.runtime.plugin;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.pf4j.DefaultPluginDescriptor;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.sluice.runtime.plugin.TestPlugins.src;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One plugin class loader between a "cluster" (the framework's class loader: this test's class
 * path plus a jar of classes a cluster's {@code lib/} might hold) and a plugin jar, with copies of
 * the same names on both sides: which copy each load path takes, for classes and for resources.
 */
class IsolatingPluginClassLoaderTest {

    /** Names present in both jars, one per load path; each jar's copy has a resource {@code origin.txt} beside it. */
    private static final List<String> IN_BOTH = List.of(
            "org.apache.flink.sluicetest.Both",
            "org.apache.flink.formats.sluicetest.Both",
            "org.apache.iceberg.sluicetest.Both",
            "io.sluice.runtime.sluicetest.Both",
            "javax.jdo.sluicetest.Both");

    @TempDir
    Path tmp;

    private URLClassLoader cluster;
    private IsolatingPluginClassLoader plugin;

    @BeforeEach
    void setUp() throws IOException {
        Map<String, String> clusterClasses = new LinkedHashMap<>();
        Map<String, String> pluginClasses = new LinkedHashMap<>();
        Map<String, String> clusterResources = new LinkedHashMap<>();
        Map<String, String> pluginResources = new LinkedHashMap<>();
        for (String name : IN_BOTH) {
            clusterClasses.put(name, emptyClass(name));
            pluginClasses.put(name, emptyClass(name));
            String dir = name.substring(0, name.lastIndexOf('.')).replace('.', '/');
            clusterResources.put(dir + "/origin.txt", "cluster");
            pluginResources.put(dir + "/origin.txt", "plugin");
        }
        for (String name : List.of(
                "org.apache.flink.sluicetest.OnlyInCluster",
                "org.apache.flink.formats.sluicetest.OnlyInCluster",
                "org.apache.iceberg.sluicetest.OnlyInCluster")) {
            clusterClasses.put(name, emptyClass(name));
        }
        for (String name : List.of(
                "org.apache.flink.sluicetest.OnlyInPlugin",
                "org.apache.flink.formats.sluicetest.OnlyInPlugin",
                "org.apache.iceberg.sluicetest.OnlyInPlugin",
                "io.sluice.runtime.sluicetest.OnlyInPlugin",
                // non-JDK javax: the JDO API of a Hive plugin, and JSR-305's Nullable, which this
                // test's class path (the framework's) has too, from Flink's dependencies
                "javax.jdo.JDOHelper",
                "javax.annotation.Nullable")) {
            pluginClasses.put(name, emptyClass(name));
        }
        for (Map<String, String> resources : List.of(clusterResources, pluginResources)) {
            String origin = resources == clusterResources ? "cluster" : "plugin";
            resources.put("META-INF/services/sluicetest.Service", origin);
            // a JDK package: a plugin's (or cluster's) file there is never found through the plugin
            resources.put("javax/xml/parsers/origin.txt", origin);
            resources.put("org/apache/iceberg/sluicetest/only-in-" + origin + ".txt", origin);
            resources.put("org/apache/flink/sluicetest/only-in-" + origin + ".txt", origin);
            resources.put("org/apache/flink/formats/sluicetest/only-in-" + origin + ".txt", origin);
        }
        Path clusterJar =
                TestPlugins.compileJar(tmp.resolve("cluster-lib.jar"), clusterClasses, clusterResources, List.of());
        Path pluginJar = TestPlugins.compileJar(tmp.resolve("plugin.jar"), pluginClasses, pluginResources, List.of());

        cluster = new URLClassLoader(
                "cluster", new URL[] {clusterJar.toUri().toURL()}, getClass().getClassLoader());
        // the manager is asked only for plugin dependencies, which Sluice plugins do not declare
        IsolatingPluginManager manager =
                new IsolatingPluginManager(tmp.resolve("plugins"), ClassLoadingRule.defaults());
        DefaultPluginDescriptor descriptor =
                new DefaultPluginDescriptor("probe", "loader test", null, "1.0.0", "", "tests", "");
        plugin = new IsolatingPluginClassLoader(manager, descriptor, cluster, ClassLoadingRule.defaults());
        plugin.addFile(pluginJar.toFile());
    }

    @AfterEach
    void tearDown() throws IOException {
        if (plugin != null) {
            plugin.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String emptyClass(String name) {
        int dot = name.lastIndexOf('.');
        return src("package " + name.substring(0, dot) + ";", "public class " + name.substring(dot + 1) + " {}");
    }

    private String originOf(Class<?> c) {
        return c.getClassLoader() == plugin
                ? "plugin"
                : c.getClassLoader() == cluster ? "cluster" : String.valueOf(c.getClassLoader());
    }

    @ParameterizedTest(name = "{0} comes from the {1}")
    @CsvSource({
        // SHARED: the cluster's copy, the plugin's where the cluster has none
        "org.apache.flink.sluicetest.Both,                cluster",
        "org.apache.flink.sluicetest.OnlyInCluster,       cluster",
        "org.apache.flink.sluicetest.OnlyInPlugin,        plugin",
        // PLUGIN_FIRST: the plugin's copy, the cluster's where the plugin has none
        "org.apache.flink.formats.sluicetest.Both,          plugin",
        "org.apache.flink.formats.sluicetest.OnlyInCluster, cluster",
        "org.apache.flink.formats.sluicetest.OnlyInPlugin,  plugin",
        // PLUGIN_ONLY: the plugin's copy
        "org.apache.iceberg.sluicetest.Both,              plugin",
        "org.apache.iceberg.sluicetest.OnlyInPlugin,      plugin",
        "javax.jdo.sluicetest.Both,                       plugin",
        "javax.jdo.JDOHelper,                             plugin",
        "javax.annotation.Nullable,                       plugin",
        // FRAMEWORK_ONLY: the framework's copy, although the plugin bundles one
        "io.sluice.runtime.sluicetest.Both,               cluster",
    })
    void eachLoadPathTakesItsCopy(String className, String expected) throws Exception {
        Class<?> loaded = plugin.loadClass(className);
        assertThat(originOf(loaded)).isEqualTo(expected);
        assertThat(plugin.loadClass(className)).as("loaded once").isSameAs(loaded);
        if (expected.equals("cluster")) {
            assertThat(loaded).isSameAs(cluster.loadClass(className));
        }
    }

    @Test
    void jdkClassesComeFromThePlatform() throws Exception {
        assertThat(plugin.getParent()).isSameAs(ClassLoader.getPlatformClassLoader());
        assertThat(plugin.loadClass("java.lang.String")).isSameAs(String.class);
        assertThat(plugin.loadClass("javax.xml.parsers.DocumentBuilderFactory"))
                .isSameAs(javax.xml.parsers.DocumentBuilderFactory.class);
        assertThat(plugin.loadClass("javax.sql.DataSource")).isSameAs(javax.sql.DataSource.class);
        assertThat(plugin.loadClass("com.sun.security.auth.module.UnixLoginModule")
                        .getClassLoader())
                .isSameAs(ClassLoader.getPlatformClassLoader());
        assertThat(plugin.loadClass("org.w3c.dom.Document")).isSameAs(org.w3c.dom.Document.class);
        assertThatThrownBy(() -> plugin.loadClass("java.lang.SluiceTestMissing"))
                .isInstanceOf(ClassNotFoundException.class)
                .hasMessageContaining("a JDK class");
    }

    /** The cluster has these (this test's class path: jackson-databind, Guava, JSR-305; the cluster jar: Iceberg); the plugin does not. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "org.apache.iceberg.sluicetest.OnlyInCluster",
                "com.fasterxml.jackson.databind.ObjectMapper",
                "com.google.common.collect.ImmutableList",
                "javax.annotation.CheckForNull",
            })
    void aPluginOnlyClassMissingFromThePluginIsNotFoundAlthoughTheClusterHasIt(String className) throws Exception {
        assertThat(cluster.loadClass(className)).as("the cluster has it").isNotNull();
        assertThatThrownBy(() -> plugin.loadClass(className))
                .isInstanceOf(ClassNotFoundException.class)
                .hasMessageContaining(className)
                .hasMessageContaining("not in plugin 'probe'");
    }

    @Test
    void aFrameworkClassIsNeverThePluginsAndOneTheFrameworkLacksIsNotFound() {
        assertThatThrownBy(() -> plugin.loadClass("io.sluice.runtime.sluicetest.OnlyInPlugin"))
                .isInstanceOf(ClassNotFoundException.class)
                .hasMessageContaining("a framework class: never loaded from plugin 'probe'");
    }

    @Test
    void aSharedClassNeitherSideHasIsNotFound() {
        assertThatThrownBy(() -> plugin.loadClass("org.apache.flink.sluicetest.Neither"))
                .isInstanceOf(ClassNotFoundException.class)
                .hasMessageContaining("neither the framework nor plugin 'probe' has it");
        assertThatThrownBy(() -> plugin.loadClass("org.apache.flink.formats.sluicetest.Neither"))
                .isInstanceOf(ClassNotFoundException.class)
                .hasMessageContaining("neither the framework nor plugin 'probe' has it");
    }

    @Test
    void resourcesTakeTheLoadPathOfTheirPackage() throws IOException {
        // getResource: the first copy of the load path; getResources: every copy it allows, in that order
        assertResource("org/apache/flink/sluicetest/origin.txt", "cluster", "cluster", "plugin");
        assertResource("org/apache/flink/sluicetest/only-in-plugin.txt", "plugin", "plugin");
        assertResource("org/apache/flink/sluicetest/only-in-cluster.txt", "cluster", "cluster");
        assertResource("org/apache/flink/formats/sluicetest/origin.txt", "plugin", "plugin", "cluster");
        assertResource("org/apache/flink/formats/sluicetest/only-in-cluster.txt", "cluster", "cluster");
        assertResource("org/apache/iceberg/sluicetest/origin.txt", "plugin", "plugin");
        assertResource("org/apache/iceberg/sluicetest/only-in-cluster.txt", null);
        assertResource("javax/jdo/sluicetest/origin.txt", "plugin", "plugin");
        assertResource("io/sluice/runtime/sluicetest/origin.txt", "cluster", "cluster");
        assertResource("META-INF/services/sluicetest.Service", "plugin", "plugin");
        assertResource("javax/xml/parsers/origin.txt", null);
        // class files are resources too, and agree with the classes
        assertResource("org/apache/iceberg/sluicetest/OnlyInCluster.class", null);
        assertThat(plugin.getResource("java/lang/Object.class"))
                .isNotNull()
                .satisfies(u -> assertThat(u.getProtocol()).isEqualTo("jrt"));
        assertThat(plugin.getResource("com/fasterxml/jackson/databind/ObjectMapper.class"))
                .isNull();
        assertThat(cluster.getResource("com/fasterxml/jackson/databind/ObjectMapper.class"))
                .isNotNull();
    }

    private void assertResource(String name, String first, String... all) throws IOException {
        URL url = plugin.getResource(name);
        assertThat(url == null ? null : read(url)).as("getResource(%s)", name).isEqualTo(first);
        List<String> contents = new ArrayList<>();
        for (URL u : Collections.list(plugin.getResources(name))) {
            contents.add(read(u));
        }
        assertThat(contents).as("getResources(%s)", name).containsExactly(all);
    }

    private static String read(URL url) throws IOException {
        try (InputStream in = url.openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
