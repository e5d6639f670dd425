package io.sluice.runtime.cli;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import java.io.IOException;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The visible files under a sink's path at one moment, as a reader of the table would see them:
 * names starting with {@code .} or {@code _} (in-progress and staging files, temporary
 * directories) are skipped, except the partition success files, which are kept as markers.
 * Uses Flink's file systems, so any scheme the job could write to can be listed.
 */
final class OutputListing {

    /** One visible file. */
    static final class Entry {
        final String relativePath;
        final Path path;
        final long size;
        final boolean marker;

        Entry(String relativePath, Path path, long size, boolean marker) {
            this.relativePath = relativePath;
            this.path = path;
            this.size = size;
            this.marker = marker;
        }
    }

    private final Map<String, Entry> entries;

    private OutputListing(Map<String, Entry> entries) {
        this.entries = entries;
    }

    /** Lists a path recursively; a path that does not exist (yet) lists as empty. */
    static OutputListing scan(String location, String successFileName) throws IOException {
        Path base = new Path(location);
        FileSystem fs = base.getFileSystem();
        Map<String, Entry> entries = new TreeMap<>();
        if (fs.exists(base)) {
            collect(fs, base, "", successFileName, entries);
        }
        return new OutputListing(entries);
    }

    private static void collect(
            FileSystem fs, Path dir, String prefix, String successFileName, Map<String, Entry> entries)
            throws IOException {
        FileStatus[] children = fs.listStatus(dir);
        if (children == null) {
            return;
        }
        for (FileStatus child : children) {
            String name = child.getPath().getName();
            String relative = prefix + name;
            if (child.isDir()) {
                if (!hidden(name)) {
                    collect(fs, child.getPath(), relative + "/", successFileName, entries);
                }
            } else if (name.equals(successFileName)) {
                entries.put(relative, new Entry(relative, child.getPath(), child.getLen(), true));
            } else if (!hidden(name)) {
                entries.put(relative, new Entry(relative, child.getPath(), child.getLen(), false));
            }
        }
    }

    private static boolean hidden(String name) {
        return name.startsWith(".") || name.startsWith("_");
    }

    /** The files, ordered by relative path. */
    Collection<Entry> entries() {
        return Collections.unmodifiableCollection(entries.values());
    }

    /** Whether this listing has the same file, with the same size. */
    boolean contains(Entry entry) {
        Entry mine = entries.get(entry.relativePath);
        return mine != null && mine.size == entry.size;
    }

    /** The number of lines of a file: its newlines, plus one for an unterminated last line. */
    static long countLines(Path file) throws IOException {
        long lines = 0;
        int last = '\n';
        byte[] buffer = new byte[64 * 1024];
        try (FSDataInputStream in = file.getFileSystem().open(file)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        lines++;
                    }
                }
                last = buffer[n - 1];
            }
        }
        return last == '\n' ? lines : lines + 1;
    }
}
