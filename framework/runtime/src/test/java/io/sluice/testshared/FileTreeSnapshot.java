package io.sluice.testshared;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What a directory tree holds, to compare before and after a statement: for the hostile-path
 * tests, proof that nothing outside a table's directory was created, changed or deleted.
 */
public final class FileTreeSnapshot {

    private FileTreeSnapshot() {}

    /** Path -> size and modification time of every file and directory under root, except below table. */
    public static Map<String, String> outside(Path root, Path table) {
        Map<String, String> snapshot = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                if (p.startsWith(table) && !p.equals(table)) {
                    continue;
                }
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                snapshot.put(
                        root.relativize(p) + (a.isDirectory() ? "/" : ""),
                        (a.isDirectory() ? "dir" : a.size() + " bytes") + " @"
                                + a.lastModifiedTime().toMillis());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return snapshot;
    }
}
