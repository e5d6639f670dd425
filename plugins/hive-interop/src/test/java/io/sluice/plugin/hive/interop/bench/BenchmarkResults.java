package io.sluice.plugin.hive.interop.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The module's results file ({@code target/benchmark-results.md}, or system property {@code
 * sluice.bench.results}), shared by its benchmarks: each owns one {@code ## } section, headed by
 * its class name, and replaces only that one, so that running one benchmark (say with {@code
 * -Dit.test=HiveBenchmark}) keeps the other's last results.
 */
final class BenchmarkResults {

    private BenchmarkResults() {}

    /** Replaces (or appends) the section {@code ## <benchmark's simple name>: <title>}; returns the file. */
    static Path writeSection(Class<?> benchmark, String title, String body) throws IOException {
        Path file = Paths.get(System.getProperty("sluice.bench.results", "target/benchmark-results.md"));
        String heading = "## " + benchmark.getSimpleName() + ":";
        String section = heading + " " + title + "\n\n" + body.strip() + "\n";
        List<String> sections = new ArrayList<>();
        if (Files.exists(file)) {
            // text before the first heading was written by no benchmark of today's format: dropped
            StringBuilder current = null;
            for (String line : Files.readString(file, StandardCharsets.UTF_8).split("\n", -1)) {
                if (line.startsWith("## ")) {
                    if (current != null) {
                        sections.add(current.toString().strip() + "\n");
                    }
                    current = new StringBuilder();
                }
                if (current != null) {
                    current.append(line).append('\n');
                }
            }
            if (current != null) {
                sections.add(current.toString().strip() + "\n");
            }
        }
        boolean replaced = false;
        for (int i = 0; i < sections.size(); i++) {
            if (sections.get(i).startsWith(heading)) {
                sections.set(i, section);
                replaced = true;
            }
        }
        if (!replaced) {
            sections.add(section);
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, String.join("\n", sections), StandardCharsets.UTF_8);
        return file.toAbsolutePath();
    }
}
