package io.sluice.plugin.filesystem;

import org.apache.flink.core.fs.Path;

import java.util.function.Predicate;

/**
 * The files a reader of a table sees: every file and directory whose name does not start with
 * {@code .} or {@code _}, so in-progress and pending part files ({@code .part-...}), success files
 * and staging directories are never read.
 */
final class VisibleFiles implements Predicate<Path> {

    @Override
    public boolean test(Path path) {
        return isVisibleName(path.getName());
    }

    static boolean isVisibleName(String name) {
        return !(name.startsWith(".") || name.startsWith("_"));
    }
}
