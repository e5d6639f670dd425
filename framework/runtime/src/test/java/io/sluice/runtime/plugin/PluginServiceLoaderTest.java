package io.sluice.runtime.plugin;

import io.sluice.spi.format.RowEncodingFormat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.nio.file.spi.FileTypeDetector;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that a {@link ServiceLoader} inside a plugin (through the thread context class loader the
 * framework sets) finds exactly that plugin's providers: not another plugin's, not the framework's.
 */
class PluginServiceLoaderTest {

    @TempDir
    Path tmp;

    private PluginRegistry registry;

    @AfterEach
    void close() {
        if (registry != null) {
            registry.close();
        }
    }

    private static List<String> providers(ClassLoader loader) {
        return ServiceLoader.load(FileTypeDetector.class, loader).stream()
                .map(p -> p.type().getName())
                .sorted()
                .collect(Collectors.toList());
    }

    @Test
    void eachPluginFindsOnlyItsOwnProviders() throws Exception {
        // control: the provider registered on the test classpath is real and visible there
        assertThat(providers(getClass().getClassLoader())).contains(TestClasspathFileTypeDetector.class.getName());

        Path dir = tmp.resolve("plugins");
        PluginIsolationTest.reportingFormatPlugin(dir, "svc-a", "svc-a").build();
        PluginIsolationTest.reportingFormatPlugin(dir, "svc-b", "svc-b").build();
        registry = PluginRegistry.get(PluginSettings.of(dir));

        // looked up inside the plugin, through the context class loader of the SPI call
        assertThat(PluginIsolationTest.report(registry.find(RowEncodingFormat.class, "svc-a")))
                .containsEntry("services", "testplugin.report.svc_a.Detector");
        assertThat(PluginIsolationTest.report(registry.find(RowEncodingFormat.class, "svc-b")))
                .containsEntry("services", "testplugin.report.svc_b.Detector");

        // and with the plugin loaders directly
        assertThat(providers(registry.classLoader("svc-a"))).containsExactly("testplugin.report.svc_a.Detector");
        assertThat(providers(registry.classLoader("svc-b"))).containsExactly("testplugin.report.svc_b.Detector");
        // a provider is instantiable in its plugin and is the plugin's class
        FileTypeDetector detector = ServiceLoader.load(FileTypeDetector.class, registry.classLoader("svc-a"))
                .findFirst()
                .orElseThrow();
        assertThat(detector.getClass().getClassLoader()).isSameAs(registry.classLoader("svc-a"));
    }
}
