package io.sluice.partfiles;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * {@code INSERT OVERWRITE}: before a commit publishes new files, the visible files already in each
 * directory it publishes to (a partition, or the base path of an unpartitioned table) are deleted,
 * except the commit's own. Repeating it after a failure is safe: the commit's own files, published
 * or not, are never deleted; hidden files ({@code .}, {@code _}: in-progress files, success files)
 * are left alone. Directories the commit does not write to keep their files (dynamic partition
 * overwrite, as Flink's filesystem connector).
 *
 * <p>Only directories below the table's base path are ever listed or cleared: a directory outside
 * it fails the whole overwrite with an {@link IllegalStateException} before anything is deleted,
 * whatever put it there.
 */
final class OverwrittenFiles {

    private final TableRoot root;
    private final Map<Path, Set<String>> published = new HashMap<>();

    OverwrittenFiles(TableRoot root) {
        this.root = root;
    }

    /** A file the commit publishes. */
    void add(Path file) {
        published.computeIfAbsent(file.getParent(), k -> new HashSet<>()).add(file.getName());
    }

    /** Deletes the other visible files of every directory the commit publishes to. */
    void deleteOthers() throws IOException {
        for (Path dir : published.keySet()) {
            root.check(dir, "delete the files of");
        }
        for (Map.Entry<Path, Set<String>> dir : published.entrySet()) {
            FileSystem fs = FileSystems.of(dir.getKey());
            if (!fs.exists(dir.getKey())) {
                continue;
            }
            for (FileStatus status : fs.listStatus(dir.getKey())) {
                String name = status.getPath().getName();
                if (!status.isDir()
                        && VisibleFiles.isVisibleName(name)
                        && !dir.getValue().contains(name)) {
                    root.check(status.getPath(), "delete");
                    if (!fs.delete(status.getPath(), false) && fs.exists(status.getPath())) {
                        throw new IOException("INSERT OVERWRITE cannot delete " + status.getPath());
                    }
                }
            }
        }
    }
}
