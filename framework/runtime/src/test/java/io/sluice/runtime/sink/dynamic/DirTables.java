package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.runtime.plugin.TestPlugins;
import io.sluice.runtime.sink.SinkDescriptor;

import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A file-based target with dynamic tables, for the dynamic sink's operator tests: built from
 * {@code dynamic-dir-target/DirTarget.java.txt} (a test resource) as a
 * plugin ({@link TestPlugins}) and loaded through its own class loader as any target. A table is a
 * directory under the sink's {@code path}: {@code _meta} holds its schemas and specs (the last of
 * each current), {@code _log} one line per create or update, {@code _loads} one per load. A writer appends rows as text lines
 * to an in-progress file that it keeps open across checkpoints until it holds {@code roll-rows}
 * rows (default 3) or the input ends; its state is that file and its length, which a restored
 * writer truncates the file to before it appends again. The committer renames an in-progress file
 * to its final name, once: a file already renamed is done; {@code _commits} gets one line per
 * commit. A file {@code _fail-commit} in a table's directory fails its next commit before or after
 * the renames, as it says (and is removed).
 */
final class DirTables {

    static final String PLUGIN = "dir";
    static final String TARGET = "dir";

    private DirTables() {}

    /** Writes the plugin into {@code pluginsDir}. */
    static void build(Path pluginsDir) throws IOException {
        String source;
        try (java.io.InputStream in =
                DirTables.class.getClassLoader().getResourceAsStream("dynamic-dir-target/DirTarget.java.txt")) {
            source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        TestPlugins.plugin(pluginsDir, PLUGIN).source("p.DirTarget", source).build();
    }

    /** The dynamic sink's own descriptor: the target and the base path of its tables. */
    static SinkDescriptor base(Path pluginsDir, Path warehouse, Map<String, String> options) {
        Map<String, String> all = new java.util.LinkedHashMap<>(options);
        all.put("target", TARGET);
        all.put("path", warehouse.toString());
        all.put(PluginSettings.PLUGINS_DIR, pluginsDir.toString());
        return SinkDescriptor.resolve(all, new RowType(List.of()), List.of());
    }

    /** The rows committed to a table: the lines of its final files, in no particular order. */
    static List<String> committedRows(Path warehouse, String table) throws IOException {
        Path dir = warehouse.resolve(table);
        List<String> rows = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return rows;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                if (f.getFileName().toString().startsWith("part-")) {
                    rows.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
                }
            }
        }
        return rows;
    }

    /** The lines of a table's {@code _log}: {@code create} and {@code update} as the catalog saw them. */
    static List<String> log(Path warehouse, String table) throws IOException {
        Path log = warehouse.resolve(table).resolve("_log");
        return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
    }

    /** How many times the catalog loaded an existing table: what a cache saves. */
    static int loads(Path warehouse, String table) throws IOException {
        Path loads = warehouse.resolve(table).resolve("_loads");
        return Files.exists(loads)
                ? Files.readAllLines(loads, StandardCharsets.UTF_8).size()
                : 0;
    }

    /** Fails the next commit of {@code table} {@code "before"} or {@code "after"} its renames. */
    static void failNextCommit(Path warehouse, String table, String when) throws IOException {
        Files.createDirectories(warehouse.resolve(table));
        Files.writeString(warehouse.resolve(table).resolve("_fail-commit"), when);
    }

    /** A table's commits: per commit request, its checkpoint and how many files it held. */
    static List<String> commits(Path warehouse, String table) throws IOException {
        Path commits = warehouse.resolve(table).resolve("_commits");
        return Files.exists(commits) ? Files.readAllLines(commits, StandardCharsets.UTF_8) : List.of();
    }
}
