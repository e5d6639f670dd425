package io.sluice.plugin.hive.it;

import io.sluice.runtime.plugin.TestPlugins;

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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The plugins directory of the end-to-end tests: the hive plugin's zip as the build packaged it
 * (system property {@code sluice.test.plugin-zip}, set by Failsafe), the {@code formats} plugin
 * whose writers the target uses ({@code sluice.test.formats-zip}) and the {@code filesystem} plugin
 * for its success-file policy ({@code sluice.test.filesystem-zip}), unpacked once per JVM, and the
 * test-only {@code hive-chaos} plugin (failures injected around the {@code hive} target and the
 * {@code metastore} policy), compiled from {@code src/test/plugin-sources/hive-chaos}. Test
 * classes that must live in the hive plugin's class loader (a Hadoop file system its Hadoop finds
 * by {@code fs.<scheme>.impl}) are compiled from {@code src/test/plugin-sources/hive-lib} into a jar
 * in the hive plugin's {@code lib/}. The plugins load from it through their own class loaders, as
 * on a cluster.
 */
final class HivePluginDir {

    private static Path dir;

    private HivePluginDir() {}

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
        Path zip = Paths.get(System.getProperty("sluice.test.plugin-zip", ""));
        if (!Files.isRegularFile(zip)) {
            throw new IllegalStateException("No plugin zip at system property sluice.test.plugin-zip (" + zip
                    + "): run the integration tests through Maven, after package");
        }
        Path plugins = Paths.get("target", "it-plugins").toAbsolutePath();
        if (Files.exists(plugins)) { // jars of an earlier build must not linger next to this one's
            try (Stream<Path> files = Files.walk(plugins)) {
                for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                    Files.delete(p);
                }
            }
        }
        unzip(zip, plugins.resolve("hive"));
        // test classes the hive plugin's own class loader must see (its Hadoop loads them by name)
        Map<String, String> lib = new TreeMap<>();
        Path libSources = Paths.get("src", "test", "plugin-sources", "hive-lib").toAbsolutePath();
        try (Stream<Path> files = Files.walk(libSources)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                lib.put(className(libSources, f), Files.readString(f));
            }
        }
        Path compiled = TestPlugins.compileJar(plugins.resolve("hive-lib.jar"), lib, Map.of(), List.of());
        withoutExtensionIndex(compiled, plugins.resolve("hive/lib/sluice-it-hive-lib.jar"));
        Files.delete(compiled);
        for (String other : new String[] {"formats", "filesystem"}) {
            String otherZip = System.getProperty("sluice.test." + other + "-zip");
            if (otherZip == null || !Files.isRegularFile(Paths.get(otherZip))) {
                throw new IllegalStateException("No " + other + " plugin zip at system property sluice.test." + other
                        + "-zip (" + otherZip + ")");
            }
            unzip(Paths.get(otherZip), plugins.resolve(other));
        }
        // the test-only hive-chaos plugin, compiled from src/test/plugin-sources/hive-chaos
        TestPlugins.Builder chaos = TestPlugins.plugin(plugins, "hive-chaos");
        Path sources = Paths.get("src", "test", "plugin-sources", "hive-chaos").toAbsolutePath();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                chaos.source(className(sources, f), Files.readString(f));
            }
        }
        chaos.build();
        return plugins;
    }

    /**
     * A copy of the jar without the (empty) extension index the compiler writes: PF4J reads one
     * index per plugin class loader, and this one could hide the plugin's own.
     */
    private static void withoutExtensionIndex(Path jar, Path to) throws IOException {
        try (ZipFile in = new ZipFile(jar.toFile());
                java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(Files.newOutputStream(to))) {
            Enumeration<? extends ZipEntry> entries = in.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                if (e.getName().equals("META-INF/extensions.idx")) {
                    continue;
                }
                out.putNextEntry(new ZipEntry(e.getName()));
                try (InputStream data = in.getInputStream(e)) {
                    data.transferTo(out);
                }
                out.closeEntry();
            }
        }
    }

    private static String className(Path sources, Path file) {
        return sources.relativize(file).toString().replace('/', '.').replaceAll("\\.java$", "");
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
