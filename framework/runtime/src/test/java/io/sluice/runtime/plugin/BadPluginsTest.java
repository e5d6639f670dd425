package io.sluice.runtime.plugin;

import io.sluice.spi.SpiVersion;
import io.sluice.spi.format.FormatFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.sluice.runtime.plugin.TestPlugins.info;
import static io.sluice.runtime.plugin.TestPlugins.src;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Proves rule 7 of the plugin boundary with real plugin folders: a missing or empty plugins
 * directory, a corrupt archive, a duplicate id, an incompatible SPI requirement, a disabled
 * plugin, an unknown extension name and an extension name offered twice are each a clear error
 * naming the plugin, the directory and what was found, and a bad plugin does not stop good ones.
 */
class BadPluginsTest {

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

    /** A plugin offering one row format named {@code identifier}. */
    static Path formatPlugin(Path pluginsDir, String id, String identifier) throws IOException {
        return TestPlugins.plugin(pluginsDir, id)
                .source(
                        "testplugin.bad.NamedFormat",
                        src(
                                "package testplugin.bad;",
                                "@org.pf4j.Extension",
                                "public class NamedFormat implements io.sluice.spi.format.FormatFactory {",
                                "  public String identifier() { return \"" + identifier + "\"; }",
                                "}"))
                .build();
    }

    @Test
    void missingPluginsDirectoryNamesTheDirectoryAndTheOption() {
        Path missing = tmp.resolve("no-such-plugins");
        assertThatThrownBy(() -> registry(PluginSettings.of(missing)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("does not exist")
                .hasMessageContaining("sluice.plugins.dir");
    }

    @Test
    void emptyPluginsDirectoryIsAnError() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Files.writeString(empty.resolve("README.txt"), "not a plugin");
        assertThatThrownBy(() -> registry(PluginSettings.of(empty)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(empty.toString())
                .hasMessageContaining("holds no plugin");
    }

    @Test
    void aCorruptZipFailsAloneAndTheGoodPluginNextToItLoads() throws IOException {
        Path dir = tmp.resolve("plugins");
        formatPlugin(dir, "good", "good-format");
        Path zip = TestPlugins.corruptZip(dir, "broken-1.0.zip");

        PluginRegistry registry = registry(PluginSettings.of(dir));

        assertThat(registry.plugins()).hasSize(2);
        assertThat(info(registry, "good").status()).isEqualTo(PluginInfo.Status.LOADED);
        assertThat(info(registry, "good").extensions()).containsEntry("FormatFactory", List.of("good-format"));
        PluginInfo broken = info(registry, "broken-1.0.zip");
        assertThat(broken.status()).isEqualTo(PluginInfo.Status.FAILED);
        assertThat(broken.path()).isEqualTo(zip);
        assertThat(broken.error()).contains("corrupt").contains(zip.toString());
        assertThat(registry.find(FormatFactory.class, "good-format").identifier())
                .isEqualTo("good-format");
    }

    @Test
    void twoPluginsWithOneIdLoadTheFirstAndNameBothPathsForTheSecond() throws IOException {
        Path dir = tmp.resolve("plugins");
        Path first = TestPlugins.plugin(dir, "twin").folder("a-twin").build();
        Path second = TestPlugins.duplicateId(dir, "b-twin", "twin");

        PluginRegistry registry = registry(PluginSettings.of(dir));

        assertThat(registry.plugins()).hasSize(2);
        assertThat(info(registry, "twin").status()).isEqualTo(PluginInfo.Status.LOADED);
        assertThat(info(registry, "twin").path()).isEqualTo(first);
        PluginInfo duplicate = registry.plugins().stream()
                .filter(p -> p.status() == PluginInfo.Status.FAILED)
                .findFirst()
                .orElseThrow();
        assertThat(duplicate.id()).contains("twin").contains("b-twin");
        assertThat(duplicate.path()).isEqualTo(second);
        assertThat(duplicate.error())
                .contains("duplicate plugin id 'twin'")
                .contains(first.toString())
                .contains(second.toString());
    }

    @Test
    void aPluginRequiringAFutureSpiFailsNamingBothVersions() throws IOException {
        Path dir = tmp.resolve("plugins");
        formatPlugin(dir, "good", "good-format");
        TestPlugins.requiringFutureSpi(dir, "future");

        PluginRegistry registry = registry(PluginSettings.of(dir));

        assertThat(info(registry, "good").status()).isEqualTo(PluginInfo.Status.LOADED);
        PluginInfo future = info(registry, "future");
        assertThat(future.status()).isEqualTo(PluginInfo.Status.FAILED);
        assertThat(future.requiredSpi()).isEqualTo(">=9.0.0");
        assertThat(future.error())
                .contains("'future'")
                .contains("requires SPI >=9.0.0")
                .contains(SpiVersion.CURRENT);
    }

    @Test
    void pluginsNotInTheEnabledListAreDisabled() throws IOException {
        Path dir = tmp.resolve("plugins");
        formatPlugin(dir, "one", "one-format");
        formatPlugin(dir, "two", "two-format");
        Map<String, String> options = new LinkedHashMap<>();
        options.put(PluginSettings.PLUGINS_DIR, dir.toString());
        options.put(PluginSettings.PLUGINS_ENABLED, "one");

        PluginRegistry registry = registry(PluginSettings.fromOptions(options));

        assertThat(info(registry, "one").status()).isEqualTo(PluginInfo.Status.LOADED);
        assertThat(info(registry, "two").status()).isEqualTo(PluginInfo.Status.DISABLED);
        assertThat(registry.identifiers(FormatFactory.class)).containsExactly("one-format");
        assertThatThrownBy(() -> registry.classLoader("two")).hasMessageContaining("No loaded plugin 'two'");
        assertThatThrownBy(() -> registry.find(FormatFactory.class, "two-format"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'two-format'");
    }

    @Test
    void anUnknownExtensionNameListsWhatIsAvailableAndWhere() throws IOException {
        Path dir = tmp.resolve("plugins");
        formatPlugin(dir, "one", "one-format");
        formatPlugin(dir, "two", "two-format");

        PluginRegistry registry = registry(PluginSettings.of(dir));

        assertThatThrownBy(() -> registry.find(FormatFactory.class, "parquet"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("FormatFactory")
                .hasMessageContaining("'parquet'")
                .hasMessageContaining("one-format")
                .hasMessageContaining("two-format")
                .hasMessageContaining(dir.toString());
    }

    @Test
    void twoPluginsOfferingOneNameBothFailNamingEachOther() throws IOException {
        Path dir = tmp.resolve("plugins");
        formatPlugin(dir, "clash-one", "same-name");
        formatPlugin(dir, "clash-two", "same-name");
        formatPlugin(dir, "other", "other-name");

        PluginRegistry registry = registry(PluginSettings.of(dir));

        assertThat(info(registry, "clash-one").status()).isEqualTo(PluginInfo.Status.FAILED);
        assertThat(info(registry, "clash-one").error())
                .contains("FormatFactory 'same-name'")
                .contains("clash-two")
                .contains(PluginSettings.PLUGINS_ENABLED);
        assertThat(info(registry, "clash-two").status()).isEqualTo(PluginInfo.Status.FAILED);
        assertThat(info(registry, "clash-two").error())
                .contains("FormatFactory 'same-name'")
                .contains("clash-one");
        assertThatThrownBy(() -> registry.find(FormatFactory.class, "same-name"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("same-name")
                .hasMessageContaining("clash-one")
                .hasMessageContaining("clash-two")
                .hasMessageContaining(PluginSettings.PLUGINS_ENABLED);
        // the other extensions are unaffected
        assertThat(info(registry, "other").status()).isEqualTo(PluginInfo.Status.LOADED);
        assertThat(registry.find(FormatFactory.class, "other-name").identifier())
                .isEqualTo("other-name");
    }

    @Test
    void anExtensionWhoseConstructorThrowsFailsItsPluginWithTheReason() throws IOException {
        Path dir = tmp.resolve("plugins");
        formatPlugin(dir, "good", "good-format");
        TestPlugins.plugin(dir, "throwing")
                .source(
                        "testplugin.bad.ThrowingFormat",
                        src(
                                "package testplugin.bad;",
                                "@org.pf4j.Extension",
                                "public class ThrowingFormat implements io.sluice.spi.format.FormatFactory {",
                                "  public ThrowingFormat() { throw new IllegalStateException(\"no licence key found\"); }",
                                "  public String identifier() { return \"throwing-format\"; }",
                                "}"))
                .build();

        PluginRegistry registry = registry(PluginSettings.of(dir));

        PluginInfo throwing = info(registry, "throwing");
        assertThat(throwing.status()).isEqualTo(PluginInfo.Status.FAILED);
        assertThat(throwing.error())
                .contains("testplugin.bad.ThrowingFormat")
                .contains("cannot be created")
                .contains("IllegalStateException: no licence key found");
        assertThat(info(registry, "good").status()).isEqualTo(PluginInfo.Status.LOADED);
        assertThatThrownBy(() -> registry.find(FormatFactory.class, "throwing-format"))
                .hasMessageContaining("No FormatFactory named 'throwing-format'")
                .hasMessageContaining("failed plugin throwing")
                .hasMessageContaining("no licence key found");
    }

    @Test
    void aFormatThatWritesBothRowByRowAndInBulkFailsItsPlugin() throws IOException {
        Path dir = tmp.resolve("plugins");
        TestPlugins.plugin(dir, "two-ways")
                .source(
                        "testplugin.bad.BothWays",
                        src(
                                "package testplugin.bad;",
                                "public interface BothWays extends io.sluice.spi.format.RowEncodingFormat,"
                                        + " io.sluice.spi.format.BulkWritingFormat {}"))
                .source(
                        "testplugin.bad.TwoWayFormat",
                        src(
                                "package testplugin.bad;",
                                "import io.sluice.spi.format.*;",
                                "@org.pf4j.Extension",
                                "public class TwoWayFormat implements BothWays {",
                                "  public String identifier() { return \"two-way\"; }",
                                "  public org.apache.flink.api.common.serialization.Encoder<org.apache.flink.table.data.RowData>"
                                        + " createEncoder(FormatContext c) { return null; }",
                                "  public org.apache.flink.api.common.serialization.BulkWriter.Factory<org.apache.flink.table.data.RowData>"
                                        + " createBulkWriterFactory(FormatContext c) { return null; }",
                                "}"))
                .build();

        PluginRegistry registry = registry(PluginSettings.of(dir));

        PluginInfo plugin = info(registry, "two-ways");
        assertThat(plugin.status()).isEqualTo(PluginInfo.Status.FAILED);
        assertThat(plugin.error())
                .contains("testplugin.bad.TwoWayFormat")
                .contains("both a RowEncodingFormat and a BulkWritingFormat");
        assertThat(registry.identifiers(io.sluice.spi.format.RowEncodingFormat.class))
                .doesNotContain("two-way");
    }

    @Test
    void anExtensionIndexNamingAMissingClassFailsThePlugin() throws IOException {
        Path dir = tmp.resolve("plugins");
        TestPlugins.plugin(dir, "dangling")
                .source(
                        "testplugin.bad.RealFormat",
                        src(
                                "package testplugin.bad;",
                                "public class RealFormat implements io.sluice.spi.format.FormatFactory {",
                                "  public String identifier() { return \"real-format\"; }",
                                "}"))
                .resource("META-INF/extensions.idx", "testplugin.bad.RealFormat\ntestplugin.bad.GoneFormat\n")
                .build();

        PluginRegistry registry = registry(PluginSettings.of(dir));

        PluginInfo dangling = info(registry, "dangling");
        assertThat(dangling.status()).isEqualTo(PluginInfo.Status.FAILED);
        assertThat(dangling.error())
                .contains("META-INF/extensions.idx")
                .contains("testplugin.bad.GoneFormat")
                .contains("ClassNotFoundException");
        assertThat(registry.identifiers(FormatFactory.class))
                .as("nothing of a failed plugin is offered")
                .isEmpty();
    }

    @Test
    void aTruncatedJarFailsThePluginNamingTheJar() throws IOException {
        Path dir = tmp.resolve("plugins");
        formatPlugin(dir, "good", "good-format");
        Path plugin = formatPlugin(dir, "truncated", "truncated-format");
        Path jar;
        try (java.util.stream.Stream<Path> jars = Files.list(plugin.resolve("lib"))) {
            jar = jars.findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(jar);
        Files.write(jar, java.util.Arrays.copyOf(bytes, bytes.length / 2));

        PluginRegistry registry = registry(PluginSettings.of(dir));

        PluginInfo truncated = info(registry, "truncated");
        assertThat(truncated.status()).isEqualTo(PluginInfo.Status.FAILED);
        assertThat(truncated.error()).contains("corrupt jar").contains(jar.toString());
        assertThat(info(registry, "good").status()).isEqualTo(PluginInfo.Status.LOADED);
    }

    @Test
    void anEnabledListNamingNoPluginFailsNamingTheIdAndTheAvailableOnes() throws IOException {
        Path dir = tmp.resolve("plugins");
        formatPlugin(dir, "one", "one-format");
        formatPlugin(dir, "two", "two-format");
        Map<String, String> options = new LinkedHashMap<>();
        options.put(PluginSettings.PLUGINS_DIR, dir.toString());
        options.put(PluginSettings.PLUGINS_ENABLED, "one,tow");

        PluginRegistry registry = registry(PluginSettings.fromOptions(options));

        PluginInfo unknown = info(registry, "tow");
        assertThat(unknown.status()).isEqualTo(PluginInfo.Status.FAILED);
        assertThat(unknown.error())
                .contains("'tow'")
                .contains(PluginSettings.PLUGINS_ENABLED)
                .contains(dir.toString())
                .contains("[one, two]");
        assertThat(info(registry, "one").status()).isEqualTo(PluginInfo.Status.LOADED);
        assertThat(info(registry, "two").status()).isEqualTo(PluginInfo.Status.DISABLED);
        assertThatThrownBy(() -> registry.find(FormatFactory.class, "two-format"))
                .hasMessageContaining("disabled plugin two")
                .hasMessageContaining("failed plugin tow");
    }

    @Test
    void aPluginFolderWithoutPluginPropertiesIsNamed() throws IOException {
        Path dir = tmp.resolve("plugins");
        Path plugin = formatPlugin(dir, "nameless", "nameless-format");
        Files.delete(plugin.resolve("plugin.properties"));

        PluginRegistry registry = registry(PluginSettings.of(dir));

        PluginInfo nameless = info(registry, "nameless");
        assertThat(nameless.status()).isEqualTo(PluginInfo.Status.FAILED);
        assertThat(nameless.error())
                .contains("no plugin.properties")
                .contains(plugin.toString())
                .doesNotContain("PluginRuntimeException");
    }

    @Test
    void aMalformedRequiresIsNamedWithAnExample() throws IOException {
        Path dir = tmp.resolve("plugins");
        TestPlugins.plugin(dir, "malformed").requires(">=one.two").build();

        PluginRegistry registry = registry(PluginSettings.of(dir));

        PluginInfo malformed = info(registry, "malformed");
        assertThat(malformed.status()).isEqualTo(PluginInfo.Status.FAILED);
        assertThat(malformed.error())
                .contains("'malformed'")
                .contains("malformed plugin.requires '>=one.two'")
                .contains(">=" + SpiVersion.CURRENT);
    }

    /** Issue 31: a folder with a plugin.properties and no jar was LOADED, offering nothing. */
    @Test
    void aPluginFolderWithoutJarsFailsNamingTheFolderAndTheGoodPluginLoads() throws IOException {
        Path dir = tmp.resolve("plugins");
        formatPlugin(dir, "good", "good-format");
        Path empty = TestPlugins.plugin(dir, "hollow").noJars().build();

        PluginRegistry registry = registry(PluginSettings.of(dir));

        assertThat(info(registry, "good").status()).isEqualTo(PluginInfo.Status.LOADED);
        PluginInfo hollow = info(registry, "hollow");
        assertThat(hollow.status()).isEqualTo(PluginInfo.Status.FAILED);
        assertThat(hollow.error())
                .contains("'hollow'")
                .contains(empty.toString())
                .contains("no jar in " + empty.resolve("lib"));
    }

    /** Issue 31: a plugin of version 'one.two' was LOADED. */
    @Test
    void aPluginVersionThatIsNotSemanticFailsNamingFolderAndVersion() throws IOException {
        Path dir = tmp.resolve("plugins");
        formatPlugin(dir, "good", "good-format");
        Path odd = TestPlugins.plugin(dir, "odd")
                .version("one.two")
                .source(
                        "testplugin.odd.OddFormat",
                        src(
                                "package testplugin.odd;",
                                "@org.pf4j.Extension",
                                "public class OddFormat implements io.sluice.spi.format.FormatFactory {",
                                "  public String identifier() { return \"odd-format\"; }",
                                "}"))
                .build();

        PluginRegistry registry = registry(PluginSettings.of(dir));

        assertThat(info(registry, "good").status()).isEqualTo(PluginInfo.Status.LOADED);
        PluginInfo bad = info(registry, "odd");
        assertThat(bad.status()).isEqualTo(PluginInfo.Status.FAILED);
        assertThat(bad.error())
                .contains("'odd'")
                .contains(odd.toString())
                .contains("malformed plugin.version 'one.two'");
        assertThatThrownBy(() -> registry.find(FormatFactory.class, "odd-format"))
                .hasMessageContaining("odd-format");
    }
}
