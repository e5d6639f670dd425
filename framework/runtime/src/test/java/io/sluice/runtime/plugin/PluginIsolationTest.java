package io.sluice.runtime.plugin;

import io.sluice.spi.SluiceFactory;
import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.FormatFactory;
import io.sluice.spi.format.RowEncodingFormat;
import io.sluice.testshared.SharedMarker;

import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.util.StringUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.sluice.runtime.plugin.TestPlugins.src;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Proves the plugin class-loader rules ({@link ClassLoadingRule}) with real plugins: two plugins
 * bundling different Avro versions each see their own and the framework sees none; a library the
 * framework has and a plugin lacks is not found; non-JDK {@code javax} classes are a plugin's
 * own; the SPI, Flink and PF4J are shared; an additional parent-first prefix is taken from the
 * framework; an {@code org.apache.flink.} class the framework lacks falls back to the plugin's
 * jar, one it has never does.
 */
class PluginIsolationTest {

    static final String AVRO_A = System.getProperty("sluice.test.avro.a", "1.11.4");
    static final String AVRO_B = System.getProperty("sluice.test.avro.b", "1.12.0");

    @TempDir
    Path tmp;

    private final List<PluginRegistry> registries = new ArrayList<>();

    @AfterEach
    void closeRegistries() {
        registries.forEach(PluginRegistry::close);
    }

    private PluginRegistry registry(PluginSettings settings) {
        PluginRegistry registry = PluginRegistry.get(settings);
        registries.add(registry);
        return registry;
    }

    /**
     * A row format whose encoder writes what the plugin sees: the Avro version and jar its own
     * loader finds, the thread context class loader, and the {@code FileTypeDetector} providers a
     * {@link java.util.ServiceLoader} finds. Same class names in every plugin built from it.
     */
    static TestPlugins.Builder reportingFormatPlugin(Path pluginsDir, String id, String identifier) {
        String detector = "testplugin.report." + id.replace('-', '_') + ".Detector";
        return TestPlugins.plugin(pluginsDir, id)
                .source(
                        "testplugin.report.ReportFormat",
                        src(
                                "package testplugin.report;",
                                "import io.sluice.spi.format.FormatContext;",
                                "import io.sluice.spi.format.RowEncodingFormat;",
                                "import org.apache.flink.api.common.serialization.Encoder;",
                                "import org.apache.flink.table.data.RowData;",
                                "@org.pf4j.Extension",
                                "public class ReportFormat implements RowEncodingFormat {",
                                "  public String identifier() { return \"" + identifier + "\"; }",
                                "  public Encoder<RowData> createEncoder(FormatContext context) { return new ReportEncoder(); }",
                                "}"))
                .source(
                        "testplugin.report.ReportEncoder",
                        src(
                                "package testplugin.report;",
                                "import java.io.IOException;",
                                "import java.io.OutputStream;",
                                "import java.nio.charset.StandardCharsets;",
                                "import java.nio.file.spi.FileTypeDetector;",
                                "import java.util.ServiceLoader;",
                                "import java.util.stream.Collectors;",
                                "import org.apache.flink.api.common.serialization.Encoder;",
                                "import org.apache.flink.table.data.RowData;",
                                "public class ReportEncoder implements Encoder<RowData> {",
                                "  public void encode(RowData row, OutputStream out) throws IOException {",
                                "    StringBuilder sb = new StringBuilder();",
                                "    sb.append(\"row=\").append(row.getInt(0)).append('/').append(row.getString(1)).append('\\n');",
                                "    try {",
                                "      Class<?> schema = Class.forName(\"org.apache.avro.Schema\", false, ReportEncoder.class.getClassLoader());",
                                "      String jar = schema.getProtectionDomain().getCodeSource().getLocation().getPath();",
                                "      sb.append(\"avro=\").append(schema.getPackage().getImplementationVersion()).append('\\n');",
                                "      sb.append(\"avro.jar=\").append(jar.substring(jar.lastIndexOf('/') + 1)).append('\\n');",
                                "      sb.append(\"avro.loader=\").append(schema.getClassLoader()).append('\\n');",
                                "    } catch (ClassNotFoundException e) {",
                                "      sb.append(\"avro=none\\n\");",
                                "    }",
                                "    sb.append(\"marker=\").append(io.sluice.testshared.SharedMarker.origin()).append('\\n');",
                                "    sb.append(\"tccl=\").append(Thread.currentThread().getContextClassLoader()).append('\\n');",
                                "    sb.append(\"services=\").append(ServiceLoader.load(FileTypeDetector.class).stream()",
                                "        .map(p -> p.type().getName()).sorted().collect(Collectors.joining(\",\"))).append('\\n');",
                                "    out.write(sb.toString().getBytes(StandardCharsets.UTF_8));",
                                "  }",
                                "}"))
                // the plugin's own copy of a class the framework's test classpath also has
                .source(
                        "io.sluice.testshared.SharedMarker",
                        src(
                                "package io.sluice.testshared;",
                                "public final class SharedMarker {",
                                "  public static String origin() { return \"plugin\"; }",
                                "}"))
                .source(
                        detector,
                        src(
                                "package " + detector.substring(0, detector.lastIndexOf('.')) + ";",
                                "public class Detector extends java.nio.file.spi.FileTypeDetector {",
                                "  public String probeContentType(java.nio.file.Path path) { return null; }",
                                "}"))
                .resource("META-INF/services/java.nio.file.spi.FileTypeDetector", detector + "\n");
    }

    static final RowType ROW_TYPE = RowType.of(new IntType(), new VarCharType(VarCharType.MAX_LENGTH));

    static final FormatContext CONTEXT = new FormatContext() {
        @Override
        public RowType rowType() {
            return ROW_TYPE;
        }

        @Override
        public ReadableConfig options() {
            return new Configuration();
        }
    };

    /** Encodes one row with the format and parses the report the plugin wrote. */
    static Map<String, String> report(RowEncodingFormat format) throws IOException {
        Encoder<RowData> encoder = format.createEncoder(CONTEXT);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        encoder.encode(GenericRowData.of(7, StringData.fromString("seven")), out);
        Map<String, String> report = new LinkedHashMap<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            int eq = line.indexOf('=');
            report.put(line.substring(0, eq), line.substring(eq + 1));
        }
        return report;
    }

    @Test
    void twoPluginsEachSeeTheirOwnAvroVersionAndTheFrameworkSeesNone() throws Exception {
        assertThat(AVRO_A).isNotEqualTo(AVRO_B);
        Path dir = tmp.resolve("plugins");
        reportingFormatPlugin(dir, "avro-a", "avro-version-a")
                .library(TestPlugins.testLib("avro-" + AVRO_A + ".jar"))
                .build();
        reportingFormatPlugin(dir, "avro-b", "avro-version-b")
                .library(TestPlugins.testLib("avro-" + AVRO_B + ".jar"))
                .build();

        PluginRegistry registry = registry(PluginSettings.of(dir));

        assertThat(registry.plugins()).extracting(PluginInfo::status).containsOnly(PluginInfo.Status.LOADED);
        assertThat(registry.identifiers(FormatFactory.class)).contains("avro-version-a", "avro-version-b");
        RowEncodingFormat a = registry.find(RowEncodingFormat.class, "avro-version-a");
        RowEncodingFormat b = registry.find(RowEncodingFormat.class, "avro-version-b");
        assertThat(registry.pluginOf(FormatFactory.class, "avro-version-a")).isEqualTo("avro-a");
        assertThat(registry.pluginOf(FormatFactory.class, "avro-version-b")).isEqualTo("avro-b");

        Map<String, String> reportA = report(a);
        Map<String, String> reportB = report(b);

        assertThat(reportA)
                .containsEntry("row", "7/seven")
                .containsEntry("avro", AVRO_A)
                .containsEntry("avro.jar", "avro-" + AVRO_A + ".jar")
                .containsEntry("avro.loader", "IsolatingPluginClassLoader[avro-a]")
                .containsEntry("tccl", "IsolatingPluginClassLoader[avro-a]");
        assertThat(reportB)
                .containsEntry("row", "7/seven")
                .containsEntry("avro", AVRO_B)
                .containsEntry("avro.jar", "avro-" + AVRO_B + ".jar")
                .containsEntry("avro.loader", "IsolatingPluginClassLoader[avro-b]")
                .containsEntry("tccl", "IsolatingPluginClassLoader[avro-b]");

        // the very Class objects differ: one per plugin loader
        Class<?> schemaA = registry.classLoader("avro-a").loadClass("org.apache.avro.Schema");
        Class<?> schemaB = registry.classLoader("avro-b").loadClass("org.apache.avro.Schema");
        assertThat(schemaA).isNotSameAs(schemaB);
        assertThat(schemaA.getPackage().getImplementationVersion()).isEqualTo(AVRO_A);
        assertThat(schemaB.getPackage().getImplementationVersion()).isEqualTo(AVRO_B);
        // the same class name of the two plugins' own code is two classes, too
        assertThat(((PluginBound) a).unwrap().getClass().getName())
                .isEqualTo(((PluginBound) b).unwrap().getClass().getName());
        assertThat(((PluginBound) a).unwrap().getClass())
                .isNotSameAs(((PluginBound) b).unwrap().getClass());

        // the framework (this test's loader, which loaded the registry) has no Avro at all
        assertThat(PluginRegistry.class.getClassLoader()).isSameAs(getClass().getClassLoader());
        assertThatThrownBy(() -> Class.forName(
                        "org.apache.avro.Schema", false, getClass().getClassLoader()))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void aPluginWithoutAvroGetsAClearClassNotFoundAndNoFallThroughToAnotherCopy() throws Exception {
        Path dir = tmp.resolve("plugins");
        reportingFormatPlugin(dir, "avro-a", "avro-version-a")
                .library(TestPlugins.testLib("avro-" + AVRO_A + ".jar"))
                .build();
        reportingFormatPlugin(dir, "no-avro", "no-avro").build();

        PluginRegistry registry = registry(PluginSettings.of(dir));

        assertThat(report(registry.find(RowEncodingFormat.class, "no-avro"))).containsEntry("avro", "none");
        assertThatThrownBy(() -> registry.classLoader("no-avro").loadClass("org.apache.avro.Schema"))
                .isInstanceOf(ClassNotFoundException.class)
                .hasMessageContaining("org.apache.avro.Schema")
                .hasMessageContaining("not in plugin 'no-avro'");
    }

    @Test
    void librariesAPluginLacksAreNotFoundAlthoughTheFrameworkHasThem() throws Exception {
        Path dir = tmp.resolve("plugins");
        reportingFormatPlugin(dir, "bare", "bare").build();
        PluginRegistry registry = registry(PluginSettings.of(dir));
        ClassLoader pluginLoader = registry.classLoader("bare");

        // this test's class path, the framework's, has Jackson, Guava and JSR-305 from Flink's dependencies
        for (String name : List.of(
                "com.fasterxml.jackson.databind.ObjectMapper",
                "com.google.common.collect.ImmutableList",
                "javax.annotation.Nullable")) {
            assertThat(Class.forName(name, false, getClass().getClassLoader()))
                    .as("the framework has %s", name)
                    .isNotNull();
            assertThatThrownBy(() -> pluginLoader.loadClass(name))
                    .as(name)
                    .isInstanceOf(ClassNotFoundException.class)
                    .hasMessageContaining("not in plugin 'bare'");
        }
    }

    @Test
    void javaxClassesAPluginBundlesAreItsOwnAndTheJdksJavaxPackagesStayTheJdks() throws Exception {
        // what a Hive plugin bundles: the JDO and servlet APIs, and JSR-305's annotations
        Path apis = TestPlugins.compileJar(
                tmp.resolve("javax-apis.jar"),
                Map.of(
                        "javax.jdo.JDOHelper", src("package javax.jdo;", "public class JDOHelper {}"),
                        "javax.servlet.Servlet", src("package javax.servlet;", "public interface Servlet {}"),
                        "javax.annotation.Nullable", src("package javax.annotation;", "public @interface Nullable {}")),
                Map.of(),
                List.of());
        Path dir = tmp.resolve("plugins");
        reportingFormatPlugin(dir, "javax-apis", "javax-apis").library(apis).build();
        PluginRegistry registry = registry(PluginSettings.of(dir));
        ClassLoader pluginLoader = registry.classLoader("javax-apis");

        for (String name : List.of("javax.jdo.JDOHelper", "javax.servlet.Servlet", "javax.annotation.Nullable")) {
            assertThat(pluginLoader.loadClass(name).getClassLoader()).as(name).isSameAs(pluginLoader);
        }
        assertThat(pluginLoader.loadClass("javax.annotation.Nullable"))
                .as("not the framework's JSR-305 copy")
                .isNotSameAs(Class.forName(
                        "javax.annotation.Nullable", false, getClass().getClassLoader()));
        for (Class<?> jdk : List.of(
                javax.xml.parsers.DocumentBuilderFactory.class,
                javax.management.ObjectName.class,
                javax.annotation.processing.Processor.class,
                javax.security.auth.Subject.class,
                javax.sql.DataSource.class)) {
            assertThat(pluginLoader.loadClass(jdk.getName())).as(jdk.getName()).isSameAs(jdk);
        }
    }

    @Test
    void spiFlinkAndPf4jClassesAreSharedWithTheFramework() throws Exception {
        Path dir = tmp.resolve("plugins");
        reportingFormatPlugin(dir, "avro-a", "avro-version-a")
                .library(TestPlugins.testLib("avro-" + AVRO_A + ".jar"))
                .build();
        PluginRegistry registry = registry(PluginSettings.of(dir));
        ClassLoader pluginLoader = registry.classLoader("avro-a");
        assertThat(pluginLoader).isInstanceOf(IsolatingPluginClassLoader.class);
        assertThat(pluginLoader.getParent()).isSameAs(ClassLoader.getPlatformClassLoader());

        RowEncodingFormat wrapped = registry.find(RowEncodingFormat.class, "avro-version-a");
        Object pluginFactory = ((PluginBound) wrapped).unwrap();
        // the plugin's own class, yet an instance of this test's FormatFactory: no ClassCastException
        assertThat(pluginFactory.getClass().getClassLoader()).isSameAs(pluginLoader);
        assertThat(pluginFactory).isInstanceOf(FormatFactory.class);
        RowEncodingFormat direct = (RowEncodingFormat) pluginFactory;
        assertThat(direct.identifier()).isEqualTo("avro-version-a");

        for (Class<?> shared : List.of(
                FormatFactory.class,
                SluiceFactory.class,
                FormatContext.class,
                RowData.class,
                GenericRowData.class,
                Encoder.class,
                RowType.class,
                org.pf4j.Extension.class,
                org.slf4j.Logger.class)) {
            assertThat(pluginLoader.loadClass(shared.getName()))
                    .as(shared.getName())
                    .isSameAs(shared);
        }
        // the encoder's RowData parameter is the framework's RowData
        Object encoder = direct.createEncoder(CONTEXT); // called on the plugin's object itself: not wrapped
        assertThat(encoder).isNotInstanceOf(PluginBound.class);
        assertThat(encoder.getClass().getClassLoader()).isSameAs(pluginLoader);
        assertThat(encoder.getClass()
                        .getMethod("encode", RowData.class, java.io.OutputStream.class)
                        .getParameterTypes()[0])
                .isSameAs(RowData.class);
        assertThat(report(wrapped)).containsEntry("row", "7/seven");
    }

    @Test
    void anAdditionalParentFirstPrefixIsTakenFromTheFramework() throws Exception {
        Path own = tmp.resolve("own");
        Path shared = tmp.resolve("shared");
        reportingFormatPlugin(own, "marker", "marker").build();
        reportingFormatPlugin(shared, "marker", "marker").build();

        // defaults: io.sluice.testshared. is not shared, the plugin gets its own copy
        PluginRegistry ownRegistry = registry(PluginSettings.of(own));
        Class<?> ownMarker = ownRegistry.classLoader("marker").loadClass(SharedMarker.class.getName());
        assertThat(ownMarker).isNotSameAs(SharedMarker.class);
        assertThat(ownMarker.getClassLoader()).isSameAs(ownRegistry.classLoader("marker"));
        assertThat(report(ownRegistry.find(RowEncodingFormat.class, "marker"))).containsEntry("marker", "plugin");

        // with the prefix configured, the framework's copy wins although the plugin bundles one
        Map<String, String> options = new LinkedHashMap<>();
        options.put(PluginSettings.PLUGINS_DIR, shared.toString());
        options.put(PluginSettings.PARENT_FIRST_ADDITIONAL, "com.example.unused.;io.sluice.testshared.");
        PluginSettings settings = PluginSettings.fromOptions(options);
        assertThat(settings.classLoadingRule().originOf(SharedMarker.class.getName()))
                .isEqualTo(ClassLoadingRule.Origin.SHARED);
        PluginRegistry sharedRegistry = registry(settings);
        assertThat(sharedRegistry.classLoader("marker").loadClass(SharedMarker.class.getName()))
                .isSameAs(SharedMarker.class);
        assertThat(report(sharedRegistry.find(RowEncodingFormat.class, "marker")))
                .containsEntry("marker", "framework");
    }

    @Test
    void flinkClassesComeFromTheFrameworkAndFallBackToThePluginOnlyWhereTheFrameworkLacksThem() throws Exception {
        // a bundled "Flink connector" jar: one class the framework lacks, one copy of a class it has
        Path connector = TestPlugins.compileJar(
                tmp.resolve("flink-connector-fake.jar"),
                Map.of(
                        "org.apache.flink.connector.sluicetest.OnlyInPlugin",
                                src(
                                        "package org.apache.flink.connector.sluicetest;",
                                        "public final class OnlyInPlugin {",
                                        "  public static String origin() { return \"plugin\"; }",
                                        "}"),
                        "org.apache.flink.util.StringUtils",
                                src(
                                        "package org.apache.flink.util;",
                                        "public final class StringUtils {",
                                        "  public static final String COPY = \"plugin\";",
                                        "}")),
                Map.of(),
                List.of());
        Path dir = tmp.resolve("plugins");
        reportingFormatPlugin(dir, "bundles-flink", "bundles-flink")
                .library(connector)
                .build();

        PluginRegistry registry = registry(PluginSettings.of(dir));
        ClassLoader pluginLoader = registry.classLoader("bundles-flink");
        String onlyInPlugin = "org.apache.flink.connector.sluicetest.OnlyInPlugin";
        assertThatThrownBy(() -> Class.forName(onlyInPlugin, false, getClass().getClassLoader()))
                .isInstanceOf(ClassNotFoundException.class);

        // not in the framework: the plugin's jar (fallback)
        Class<?> fallback = pluginLoader.loadClass(onlyInPlugin);
        assertThat(fallback.getClassLoader()).isSameAs(pluginLoader);
        assertThat(fallback.getMethod("origin").invoke(null)).isEqualTo("plugin");

        // in the framework: the framework's, although the plugin's jar holds another copy
        assertThat(((URLClassLoader) pluginLoader).findResource("org/apache/flink/util/StringUtils.class"))
                .as("the plugin bundles its own StringUtils")
                .isNotNull();
        Class<?> stringUtils = pluginLoader.loadClass("org.apache.flink.util.StringUtils");
        assertThat(stringUtils).isSameAs(StringUtils.class);
        assertThat(stringUtils.getFields())
                .extracting(java.lang.reflect.Field::getName)
                .doesNotContain("COPY");

        // and a class neither has is a ClassNotFoundException naming the plugin
        assertThatThrownBy(() -> pluginLoader.loadClass("org.apache.flink.connector.sluicetest.Missing"))
                .isInstanceOf(ClassNotFoundException.class)
                .hasMessageContaining("neither the framework nor plugin 'bundles-flink'");
    }
}
