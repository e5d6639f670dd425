package io.sluice.partfiles;

import org.apache.flink.core.fs.Path;

import java.util.function.Predicate;

/**
 * The files a reader of a table sees: every file and directory whose name does not start with
 * {@code .} or {@code _}, so in-progress and pending part files ({@code .part-...}), success files
 * and staging directories are never read.
 *
 * <p>Public because a target checks names it builds from user values (partition directories)
 * against it before the job starts: a hidden directory would never be read back.
 */
public final class VisibleFiles implements Predicate<Path> {

    /** Whether a reader lists the file or directory at {@code path}. */
    @Override
    public boolean test(Path path) {
        return isVisibleName(path.getName());
    }

    /** Whether a reader lists a file or directory of this name. */
    public static boolean isVisibleName(String name) {
        return !(name.startsWith(".") || name.startsWith("_"));
    }
}
