package io.sluice.it;

import io.sluice.runtime.plugin.TestPlugins;
import io.sluice.testshared.BenchmarkMachine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The staged distribution the build made ({@code sluice.test.dist}), and plugins directories for
 * end-to-end tests: the distribution's plugins plus the test-only plugins compiled at test time
 * from {@code src/test/plugin-sources/<id>}: {@code chaos} (the filesystem target with injected
 * failures) and {@code acme} (a third party's commit policy and partition time extractor).
 */
public final class TestDistribution {

    private static final String[] TEST_PLUGINS = {"chaos", "acme"};

    private static Path withTestPlugins;

    private TestDistribution() {}

    /** The staged distribution folder. */
    public static Path home() {
        String dir = System.getProperty("sluice.test.dist");
        if (dir == null) {
            throw new IllegalStateException("System property sluice.test.dist is not set (run through Maven)");
        }
        return Paths.get(dir);
    }

    /**
     * The Flink line the distribution was built for ({@code sluice.test.flink.line}): {@code 1.20},
     * or {@code 2.1} in a build with {@code -Dflink2}.
     */
    public static String flinkLine() {
        String line = System.getProperty("sluice.test.flink.line");
        if (line == null) {
            throw new IllegalStateException("System property sluice.test.flink.line is not set (run through Maven)");
        }
        return line;
    }

    /** The plugins a full distribution ({@code -Dsluice.plugins=all}) has, on either Flink line. */
    public static List<String> plugins() {
        return List.of("formats", "filesystem", "iceberg", "hive");
    }

    /** The distribution's plugins directory. */
    public static Path pluginsDir() {
        return home().resolve("sluice-plugins");
    }

    /** A plugins directory with the distribution's plugins and the test plugins; built once per JVM. */
    public static synchronized Path pluginsDirWithTestPlugins() {
        if (withTestPlugins == null) {
            try {
                // a directory of this JVM's own: test JVMs that run side by side (failsafe's
                // forkCount) each build theirs, and none copies over another's or an earlier one
                Path dir = Files.createTempDirectory(
                        Paths.get("target").toAbsolutePath(), "it-plugins-with-test-plugins-");
                // a copy of every plugin (hundreds of MB): gone with the JVM, not left per run
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        BenchmarkMachine.deleteTree(dir);
                    } catch (IOException ignored) {
                        // target/ is the build's to clean
                    }
                }));
                copyTree(pluginsDir(), dir);
                for (String id : TEST_PLUGINS) {
                    TestPlugins.Builder plugin = TestPlugins.plugin(dir, id);
                    for (Map.Entry<String, String> source : sources(id).entrySet()) {
                        plugin.source(source.getKey(), source.getValue());
                    }
                    plugin.build();
                }
                withTestPlugins = dir;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return withTestPlugins;
    }

    private static Map<String, String> sources(String pluginId) throws IOException {
        Path root = Paths.get("src", "test", "plugin-sources", pluginId).toAbsolutePath();
        Map<String, String> sources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                String className =
                        root.relativize(f).toString().replace('/', '.').replaceAll("\\.java$", "");
                sources.put(className, new String(Files.readAllBytes(f), StandardCharsets.UTF_8));
            }
        }
        return sources;
    }

    /** Copies a directory tree, replacing what is there. */
    public static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path src : (Iterable<Path>) files::iterator) {
                Path dst = to.resolve(from.relativize(src).toString());
                if (Files.isDirectory(src)) {
                    Files.createDirectories(dst);
                } else {
                    Files.copy(src, dst, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
