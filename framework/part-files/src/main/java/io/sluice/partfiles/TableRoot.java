package io.sluice.partfiles;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import java.io.IOException;
import java.net.URI;
import java.util.Objects;

/**
 * The table's base path, as the last guard before the committer renames, overwrites or deletes a
 * file: every such path must lie below it. Targets check their options at planning; this catches what a bug upstream of the committer (or a
 * pending file from elsewhere) could still hand over. Callers check every path of a commit
 * before its first change, so a refused commit has changed nothing.
 */
final class TableRoot {

    private final Path root;
    private final URI rootUri;

    TableRoot(Path root) {
        this.root = root;
        this.rootUri = root.makeQualified(fileSystem(root)).toUri().normalize();
    }

    /**
     * @throws IllegalStateException if {@code path} is not below the table's base path
     */
    void check(Path path, String what) {
        if (!isBelow(path)) {
            throw new IllegalStateException(
                    "Refusing to " + what + " " + path + ": it is not under the table's 'path' " + root);
        }
    }

    /** Whether {@code path} is the root or a path below it, after resolving '.' and '..'. */
    boolean isBelow(Path path) {
        URI uri = path.makeQualified(fileSystem(path)).toUri().normalize();
        if (!Objects.equals(uri.getScheme(), rootUri.getScheme())
                || !Objects.equals(uri.getAuthority(), rootUri.getAuthority())) {
            return false;
        }
        String p = trimSlash(uri.getPath());
        String r = trimSlash(rootUri.getPath());
        return p.equals(r) || p.startsWith(r.endsWith("/") ? r : r + "/");
    }

    /** Relative and scheme-less paths are qualified the way Flink opens them. */
    private static FileSystem fileSystem(Path path) {
        try {
            return FileSystems.of(path);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot resolve the file system of " + path + ": " + e.getMessage(), e);
        }
    }

    private static String trimSlash(String s) {
        if (s == null) {
            return "";
        }
        return s.length() > 1 && s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }
}
