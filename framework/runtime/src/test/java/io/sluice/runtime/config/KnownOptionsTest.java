package io.sluice.runtime.config;

import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.runtime.plugin.TestPlugins;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static io.sluice.runtime.plugin.TestPlugins.src;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A key both the framework and a plugin declare ({@code lookup.join.cache.ttl}, which the hive
 * plugin declares as upstream's option): accepted once, parsed, and its errors are the framework's.
 */
class KnownOptionsTest {

    @TempDir
    Path tmp;

    private PluginRegistry registry;

    @BeforeEach
    void plugin() throws Exception {
        TestPlugins.plugin(tmp, "dim")
                .source(
                        "testplugin.dim.DimScans",
                        src(
                                "package testplugin.dim;",
                                "import org.apache.flink.configuration.*;",
                                "import io.sluice.spi.source.*;",
                                "@org.pf4j.Extension",
                                "public class DimScans implements ScanSourceFactory {",
                                "  public String identifier() { return \"dim\"; }",
                                "  public java.util.Set<ConfigOption<?>> optionalOptions() {",
                                "    return java.util.Set.of(ConfigOptions.key(\"lookup.join.cache.ttl\").durationType()",
                                "        .defaultValue(java.time.Duration.ofMinutes(60)));",
                                "  }",
                                "  public java.util.Optional<java.time.Duration> monitorInterval(SourceContext c) {",
                                "    return java.util.Optional.empty(); }",
                                "  public ScanPlanner createPlanner(SourceContext c) { throw new UnsupportedOperationException(); }",
                                "  public ScanSplitReader createReader(SourceContext c) { throw new UnsupportedOperationException(); }",
                                "}"))
                .build();
        registry = PluginRegistry.get(PluginSettings.of(tmp));
    }

    @AfterEach
    void close() {
        registry.close();
    }

    @Test
    void aKeyTheFrameworkAndAPluginBothDeclareIsAcceptedAndParsed() {
        Map<String, String> options = Map.of("target", "dim", "lookup.join.cache.ttl", "2 s");
        assertThatCode(() -> KnownOptions.of(options, registry).check(options, "the 'dim' source"))
                .doesNotThrowAnyException();

        Map<String, String> bad = Map.of("target", "dim", "lookup.join.cache.ttl", "2 parsecs");
        assertThatThrownBy(() -> KnownOptions.of(bad, registry).check(bad, "the 'dim' source"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Invalid value '2 parsecs' for option 'lookup.join.cache.ttl'")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("an option of"));
    }

    /**
     * A duration longer than a long holds in nanoseconds parsed, then failed with a bare "long
     * overflow" wherever it was printed or added to the clock; the longest accepted value passes.
     */
    @Test
    void aDurationPastTheLongestIsRefusedNamingTheOptionAndTheLongestPasses() {
        Map<String, String> bad = Map.of("target", "dim", "lookup.join.cache.ttl", "9999999999 d");
        assertThatThrownBy(() -> KnownOptions.of(bad, registry).check(bad, "the 'dim' source"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid value '9999999999 d' for option 'lookup.join.cache.ttl': at most 106751 d");

        Map<String, String> longest = Map.of("target", "dim", "lookup.join.cache.ttl", "106751 d");
        assertThatCode(() -> KnownOptions.of(longest, registry).check(longest, "the 'dim' source"))
                .doesNotThrowAnyException();
        assertThat(Durations.asOptionValue("x", Durations.LONGEST)).isEqualTo("106751 d");
        assertThatThrownBy(() -> Durations.asOptionValue("source.monitor-interval", java.time.Duration.ofDays(200_000)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid value '200000 d' for option 'source.monitor-interval': at most 106751 d");
        assertThatThrownBy(() -> io.sluice.runtime.sink.RollingPolicies.defaultPolicy()
                        .withCheckInterval(java.time.Duration.ofDays(200_000)))
                .hasMessageContaining("'sink.rolling-policy.check-interval'");
    }

    @Test
    void theCacheTtlIsAnOptionOfEveryTable() {
        Map<String, String> options = Map.of("target", "other", "path", "/t", "lookup.join.cache.ttl", "1 h");
        assertThatCode(() -> KnownOptions.of(options, registry).check(options, "the file source"))
                .doesNotThrowAnyException();
    }

    @Test
    void aMisspeltKeyIsAnsweredWithTheCloseMatch() {
        java.util.List<String> known =
                java.util.List.of("path", "sink.rolling-policy.file-size", "compaction.file-size");
        assertThat(KnownOptions.closest("sink.rolling-policy.file-sise", known))
                .isEqualTo("sink.rolling-policy.file-size");
        assertThat(KnownOptions.closest("pth", known)).isEqualTo("path");
        assertThat(KnownOptions.closest("owner.team", known)).isNull();
    }
}
