package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.plugin.TestPlugins;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The plugins directory of the end-to-end tests, built once per JVM: this module's plugin zip as
 * the build packaged it (system property {@code sluice.test.plugin-zip}), unpacked, plus the
 * test-only {@code iceberg-chaos} plugin compiled from {@code src/test/plugin-sources/iceberg-chaos}.
 * The plugin loads through its own class loader, next to the upstream Iceberg connector on the
 * test class path, which the tests read back with.
 *
 * <p>Public for the benchmarks ({@code io.sluice.plugin.iceberg.bench}), which load the plugin
 * the same way.
 */
public final class TestPluginsDir {

    private static Path dir;

    private TestPluginsDir() {}

    /**
     * Skips the calling test class unless it runs in Maven's integration-test phase, where the
     * plugin zip exists: a surefire run selected by name ({@code -Dtest='Iceberg*'}) runs before
     * the zip is packaged.
     */
    static void assumeIntegrationTestPhase() {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                System.getProperty("sluice.test.plugin-zip") != null,
                "integration test: runs in the integration-test phase (failsafe), after the plugin zip is packaged");
    }

    /**
     * The plugins directory, built on first use.
     *
     * @throws IllegalStateException outside Maven's integration-test phase (no packaged plugin zip)
     */
    public static synchronized Path get() {
        if (dir == null) {
            try {
                dir = build();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return dir;
    }

    private static Path build() throws IOException {
        String zip = System.getProperty("sluice.test.plugin-zip");
        if (zip == null || !Files.isRegularFile(Paths.get(zip))) {
            throw new IllegalStateException("No plugin zip at system property sluice.test.plugin-zip (" + zip
                    + "): run the integration tests through Maven, after package");
        }
        Path plugins = Paths.get("target", "it-plugins").toAbsolutePath();
        deleteTree(plugins); // jars of an earlier build must not linger next to this one's
        unzip(Paths.get(zip), plugins.resolve("iceberg"));
        TestPlugins.Builder chaos = TestPlugins.plugin(plugins, "iceberg-chaos");
        Path sources =
                Paths.get("src", "test", "plugin-sources", "iceberg-chaos").toAbsolutePath();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                String className =
                        sources.relativize(f).toString().replace('/', '.').replaceAll("\\.java$", "");
                chaos.source(className, new String(Files.readAllBytes(f), StandardCharsets.UTF_8));
            }
        }
        chaos.build();
        return plugins;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }

    private static void unzip(Path zip, Path to) throws IOException {
        try (ZipFile file = new ZipFile(zip.toFile())) {
            Enumeration<? extends ZipEntry> entries = file.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                Path target = to.resolve(e.getName()).normalize();
                if (!target.startsWith(to)) {
                    throw new IOException("Zip entry outside the target directory: " + e.getName());
                }
                if (e.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    try (InputStream in = file.getInputStream(e)) {
                        Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        }
    }
}
