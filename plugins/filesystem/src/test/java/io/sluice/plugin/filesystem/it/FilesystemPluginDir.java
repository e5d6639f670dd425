package io.sluice.plugin.filesystem.it;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The plugins directory of the end-to-end tests: this module's plugin zip as the build packaged it
 * (system property {@code sluice.test.plugin-zip}, set by Failsafe) and the {@code formats} plugin
 * that reads the tables' files ({@code sluice.test.formats-zip}), unpacked once per JVM. The
 * plugins load from it through their own class loaders, as on a cluster.
 */
final class FilesystemPluginDir {

    private static Path dir;

    private FilesystemPluginDir() {}

    /** Skips the test class outside the integration-test phase, where there is no zip yet. */
    static void assumeIntegrationTestPhase() {
        Assumptions.assumeTrue(
                System.getProperty("sluice.test.plugin-zip") != null,
                "integration test: runs in the integration-test phase (failsafe), after the plugin zip is packaged");
    }

    static synchronized Path get() {
        if (dir == null) {
            try {
                dir = unpack();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return dir;
    }

    private static Path unpack() throws IOException {
        Path plugins = Paths.get("target", "it-plugins").toAbsolutePath();
        if (Files.exists(plugins)) { // jars of an earlier build must not linger next to this one's
            try (Stream<Path> files = Files.walk(plugins)) {
                for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                    Files.delete(p);
                }
            }
        }
        unzip(zip("sluice.test.plugin-zip"), plugins.resolve("filesystem"));
        unzip(zip("sluice.test.formats-zip"), plugins.resolve("formats"));
        return plugins;
    }

    private static Path zip(String property) {
        String zip = System.getProperty(property);
        if (zip == null || !Files.isRegularFile(Paths.get(zip))) {
            throw new IllegalStateException("No plugin zip at system property " + property + " (" + zip
                    + "): run the integration tests through Maven, after package");
        }
        return Paths.get(zip);
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
