package io.sluice.runtime.plugin;

import io.sluice.spi.SpiVersion;
import io.sluice.spi.partition.CommitPolicyFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.runtime.plugin.TestPlugins.info;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The framework's check of {@code plugin.requires} (PF4J's version expressions) against {@link
 * SpiVersion#CURRENT}, with real plugin folders: a plugin loads only if its range holds this SPI
 * version and ends before the next major. Every version here is derived from {@code CURRENT}, so
 * the test holds whatever {@code sluice.spi.version} the build sets.
 */
class SpiRequirementTest {

    private static final int MAJOR = part(0);
    private static final int MINOR = part(1);
    private static final int PATCH = part(2);
    private static final String NEXT_MAJOR = (MAJOR + 1) + ".0.0";

    @TempDir
    Path tmp;

    private final List<PluginRegistry> registries = new ArrayList<>();

    @AfterEach
    void closeRegistries() {
        registries.forEach(PluginRegistry::close);
    }

    private static int part(int i) {
        return Integer.parseInt(SpiVersion.CURRENT.split("\\.")[i]);
    }

    /** The status of a plugin that requires {@code requires}, loaded alone. */
    private PluginInfo load(String requires) throws IOException {
        Path dir = tmp.resolve("plugins-" + registries.size());
        TestPlugins.plugin(dir, "p").requires(requires).build();
        PluginRegistry registry = PluginRegistry.get(PluginSettings.of(dir));
        registries.add(registry);
        return info(registry, "p");
    }

    private void assertLoads(String requires) throws IOException {
        PluginInfo p = load(requires);
        assertThat(p.status())
                .as("plugin.requires=%s on SPI %s: %s", requires, SpiVersion.CURRENT, p.error())
                .isEqualTo(PluginInfo.Status.LOADED);
        assertThat(p.requiredSpi()).isEqualTo(requires);
    }

    private PluginInfo assertRefused(String requires) throws IOException {
        PluginInfo p = load(requires);
        assertThat(p.status())
                .as("plugin.requires=%s on SPI %s", requires, SpiVersion.CURRENT)
                .isEqualTo(PluginInfo.Status.FAILED);
        assertThat(p.error())
                .contains("'p'")
                .contains("requires SPI " + requires)
                .contains(SpiVersion.CURRENT);
        return p;
    }

    @Test
    void theBuiltInPluginsRequirementLoads() throws IOException {
        // plugins/pom.xml and the example plugin's plugin.properties: ^${sluice.spi.version}
        assertLoads("^" + SpiVersion.CURRENT);
        assertLoads(">=" + SpiVersion.CURRENT + " & <" + NEXT_MAJOR);
    }

    @Test
    void aPluginBuiltForAnEarlierVersionOfTheSameMajorLoads() throws IOException {
        assertLoads(">=" + MAJOR + ".0.0 & <" + NEXT_MAJOR);
        assertLoads("^" + MAJOR + ".0.0");
        assertLoads(MAJOR + ".x");
    }

    @Test
    void aPluginRequiringANewerMinorOrPatchIsRefused() throws IOException {
        assertRefused(">=" + MAJOR + "." + (MINOR + 1) + ".0 & <" + NEXT_MAJOR);
        assertRefused("^" + MAJOR + "." + (MINOR + 1) + ".0");
        assertRefused("^" + MAJOR + "." + MINOR + "." + (PATCH + 1));
    }

    @Test
    void aPluginOfTheNextMajorIsRefused() throws IOException {
        assertThat(assertRefused(">=" + NEXT_MAJOR + " & <" + (MAJOR + 2) + ".0.0")
                        .error())
                .contains("upgrade Sluice");
        assertRefused("^" + NEXT_MAJOR);
    }

    /** A job that asks for an extension of a refused plugin learns why it is missing. */
    @Test
    void aMissingExtensionNamesThePluginRefusedForItsSpiVersion() throws IOException {
        Path dir = tmp.resolve("plugins-refused");
        String requires = "^" + NEXT_MAJOR;
        TestPlugins.plugin(dir, "newer")
                .requires(requires)
                .source(
                        "testplugin.newer.NewerFormat",
                        String.join(
                                "\n",
                                "package testplugin.newer;",
                                "@org.pf4j.Extension",
                                "public class NewerFormat implements io.sluice.spi.format.FormatFactory {",
                                "  public String identifier() { return \"newer-format\"; }",
                                "}"))
                .build();
        PluginRegistry registry = PluginRegistry.get(PluginSettings.of(dir));
        registries.add(registry);
        assertThatThrownBy(() -> registry.find(io.sluice.spi.format.FormatFactory.class, "newer-format"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("No FormatFactory named 'newer-format'")
                .hasMessageContaining("failed plugin newer")
                .hasMessageContaining("requires SPI " + requires)
                .hasMessageContaining(SpiVersion.CURRENT);
    }

    /** The same through an option that names an extension (a custom commit policy, a compactor). */
    @Test
    void anOptionNamingAMissingExtensionNamesThePluginRefusedForItsSpiVersion() throws IOException {
        Path dir = tmp.resolve("plugins-refused-policy");
        String requires = "^" + NEXT_MAJOR;
        TestPlugins.plugin(dir, "newer")
                .requires(requires)
                .source(
                        "testplugin.newer.NewerPolicy",
                        String.join(
                                "\n",
                                "package testplugin.newer;",
                                "@org.pf4j.Extension",
                                "public class NewerPolicy implements io.sluice.spi.partition.CommitPolicyFactory {",
                                "  public String identifier() { return \"newer-policy\"; }",
                                "  public io.sluice.spi.partition.CommitPolicy create(io.sluice.spi.sink.SinkContext c) {",
                                "    return null;",
                                "  }",
                                "}"))
                .build();
        PluginRegistry registry = PluginRegistry.get(PluginSettings.of(dir));
        registries.add(registry);
        assertThatThrownBy(() -> Extensions.byNameOrClass(
                        registry, CommitPolicyFactory.class, "newer-policy", "sink.partition-commit.policy.class"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Invalid 'sink.partition-commit.policy.class' 'newer-policy'")
                .hasMessageContaining("CommitPolicyFactory")
                .hasMessageContaining("failed plugin newer")
                .hasMessageContaining("requires SPI " + requires);
    }

    @Test
    void aPluginOfTheMajorBeforeIsRefused() throws IOException {
        if (MAJOR == 0) {
            return;
        }
        String before = (MAJOR - 1) + ".0.0";
        PluginInfo p = assertRefused(">=" + before + " & <" + MAJOR + ".0.0");
        // what to change: the build and the range to declare
        assertThat(p.error())
                .contains("built for an earlier major")
                .contains("rebuild it against sluice-spi " + SpiVersion.CURRENT)
                .contains("'>=" + SpiVersion.CURRENT + " & <" + NEXT_MAJOR + "'")
                .doesNotContain("upgrade Sluice");
        assertThat(assertRefused("^" + (MAJOR - 1) + ".2.0").error()).contains("rebuild it against sluice-spi");
    }

    @Test
    void aRequirementWithoutUpperBoundIsRefusedEvenIfThisVersionMeetsIt() throws IOException {
        // the plugin of the SPI 2.0 issue: built against 1.1.0, declaring '>=1.1.0', it passed the
        // check of a framework whose SPI had changed and died with AbstractMethodError
        for (String requires : new String[] {
            ">=" + (MAJOR == 0 ? 0 : MAJOR - 1) + ".1.0",
            ">=" + SpiVersion.CURRENT,
            "*",
            ">=" + MAJOR + ".0.0 & <" + (MAJOR + 2) + ".0.0"
        }) {
            PluginInfo p = assertRefused(requires);
            assertThat(p.error())
                    .as(requires)
                    .contains("admits SPI " + NEXT_MAJOR)
                    .contains("'>=" + SpiVersion.CURRENT + " & <" + NEXT_MAJOR + "'");
        }
    }

    @Test
    void aMissingRequirementIsRefusedLikeStar() throws IOException {
        // TestPlugins writes plugin.requires; an empty value is what PF4J reads as none, '*'
        PluginInfo p = load("");
        assertThat(p.status()).isEqualTo(PluginInfo.Status.FAILED);
        assertThat(p.error()).contains("requires SPI *").contains("admits SPI " + NEXT_MAJOR);
    }

    @Test
    void nextMajor() {
        assertThat(PluginRegistry.nextMajor("2.0.0")).isEqualTo("3.0.0");
        assertThat(PluginRegistry.nextMajor("2.7.3")).isEqualTo("3.0.0");
        assertThat(PluginRegistry.nextMajor("10.0.1")).isEqualTo("11.0.0");
    }
}
