package io.sluice.plugin.filesystem;

/**
 * Names of finished part files: {@code <prefix>-<writer uid>-<counter><suffix>}, as Flink's
 * FileSink names them. The uid is new for every writer instance, so a restarted writer never
 * reuses a name; in-progress files are hidden by the file system's recoverable writer (a leading
 * dot and an {@code .inprogress} marker) until the commit renames them.
 */
final class PartFileNames {

    private final String prefix;
    private final String suffix;

    PartFileNames(String prefix, String suffix) {
        this.prefix = prefix;
        this.suffix = suffix;
    }

    String name(String writerUid, long counter) {
        return prefix + "-" + writerUid + "-" + counter + suffix;
    }
}
