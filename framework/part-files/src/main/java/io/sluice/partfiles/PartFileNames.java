package io.sluice.partfiles;

import io.sluice.spi.PathNames;

import javax.annotation.Nullable;

/**
 * Names of finished part files: {@code <prefix>-<writer uid>-<counter><suffix>}, as Flink's
 * FileSink names them. The uid is new for every writer instance, so a restarted writer never
 * reuses a name; in-progress files are hidden by the file system's recoverable writer (a leading
 * dot and an {@code .inprogress} marker) until the commit renames them.
 *
 * <p>Names of two writers differ only as long as the uid stays inside the one segment the name is:
 * a prefix or suffix with a separator ({@code ../x}) would put every writer's file at the same
 * path (and outside the table), so {@link #check} refuses it, when the statement is planned.
 *
 * <p>Public for that check: a target calls it from its {@code validate} with its own option names,
 * then hands prefix and suffix to {@link PartFiles.Builder#names}.
 */
public final class PartFileNames {

    /**
     * What the longest name adds to prefix and suffix: {@code -}, a 36-character uid, {@code -}, a
     * counter of up to 19 digits; then {@link UnitCompaction#HIDDEN_PREFIX} in front with
     * compaction, and the recoverable writer's in-progress name ({@code .<name>.inprogress.<uuid>},
     * local and Hadoop file systems) around it. So prefix and suffix together may have {@code
     * PathNames.MAX_NAME_BYTES - DECORATION_BYTES} bytes.
     */
    public static final int DECORATION_BYTES =
            1 + 36 + 1 + 19 + UnitCompaction.HIDDEN_PREFIX.length() + 1 + ".inprogress.".length() + 36;

    /** The length of a writer uid: a UUID's, random or name-based ({@code WriterLineage}). */
    static final int UID_LENGTH = 36;

    private final String prefix;
    private final String suffix;

    PartFileNames(String prefix, String suffix) {
        check("part file prefix", prefix, "part file suffix", suffix);
        this.prefix = prefix;
        this.suffix = suffix;
    }

    String name(String writerUid, long counter) {
        return prefix + "-" + writerUid + "-" + counter + suffix;
    }

    /**
     * Checks a prefix and a suffix of part file names, as the target's options {@code prefixKey}
     * and {@code suffixKey} give them.
     *
     * @throws IllegalArgumentException naming the option and the value, if part file names made
     *     from them would not be one visible file name below the bucket directory
     */
    public static void check(String prefixKey, String prefix, String suffixKey, String suffix) {
        PathNames.checkNamePart(prefixKey, prefix);
        PathNames.checkNamePart(suffixKey, suffix);
        if (!VisibleFiles.isVisibleName(prefix)) {
            throw PathNames.invalid(
                    prefixKey,
                    prefix,
                    "part files whose names start with '.' or '_' are hidden from every reader of the table");
        }
        int bytes = PathNames.utf8Length(prefix) + PathNames.utf8Length(suffix) + DECORATION_BYTES;
        if (bytes > PathNames.MAX_NAME_BYTES) {
            int room = PathNames.MAX_NAME_BYTES - DECORATION_BYTES;
            boolean prefixLonger = PathNames.utf8Length(prefix) >= PathNames.utf8Length(suffix);
            String option = prefixLonger ? prefixKey : suffixKey;
            throw PathNames.invalid(
                    option,
                    prefixLonger ? prefix : suffix,
                    "too long: '" + prefixKey + "' and '" + suffixKey
                            + "' together may have " + room + " bytes (UTF-8), so that in-progress part file names stay"
                            + " within " + PathNames.MAX_NAME_BYTES + " bytes");
        }
    }

    /**
     * Whether {@code fileName} is the in-progress file of a part of one of {@code writers} with a
     * counter at or above the first that counts for that writer ({@link FailedWriters}): Flink's
     * recoverable writers (local, Hadoop) stage a part file as {@code .<name>.inprogress.<uuid>}, and
     * {@code <name>} may carry compaction's hidden prefix. Writer uids are unique (random, or made
     * from a writer's lineage), so no other writer's file can match.
     */
    boolean isInProgressPart(String fileName, FailedWriters writers) {
        return fileName.startsWith(".") && matches(fileName, 1, fileName.length(), true, writers);
    }

    /**
     * Whether {@code fileName} is a part of one of {@code writers} at or above its counter under its
     * final name ({@code <name>}, maybe with compaction's hidden prefix): the key of the multipart
     * upload an S3 recoverable writer stages a part file in.
     */
    boolean isUploadedPart(String fileName, FailedWriters writers) {
        return matches(fileName, 0, fileName.length(), false, writers);
    }

    /**
     * Whether {@code fileName} is a part file's final name, {@code <prefix>-<uid>-<counter><suffix>}
     * (maybe with compaction's hidden prefix), of any writer: on S3 a second open upload under the
     * key of a published part file can only be one whose initiation the client retried.
     */
    boolean isPartName(String fileName) {
        return matches(fileName, 0, fileName.length(), false, null);
    }

    /**
     * Whether {@code fileName} is the object Flink's S3 recoverable writer persists the unfinished
     * last part of an upload in ({@code _<name>_tmp_<uuid>}) for a part of one of {@code writers} at
     * or above its counter.
     */
    boolean isStagedPart(String fileName, FailedWriters writers) {
        int tmp = fileName.lastIndexOf("_tmp_");
        return fileName.startsWith("_") && tmp > 1 && matches(fileName, 1, tmp, false, writers);
    }

    /**
     * Whether {@code name[from, to)} is {@code [hidden prefix]<prefix>-<uid>-<counter><suffix>}
     * (followed by {@code .inprogress.} if {@code inProgress}, else nothing) for a uid of {@code
     * writers} and a counter at or above its entry; any uid and counter if {@code writers} is null.
     */
    private boolean matches(String name, int from, int to, boolean inProgress, @Nullable FailedWriters writers) {
        int i = name.startsWith(UnitCompaction.HIDDEN_PREFIX, from)
                ? from + UnitCompaction.HIDDEN_PREFIX.length()
                : from;
        if (!name.startsWith(prefix, i) || i + prefix.length() + UID_LENGTH + 2 > to) {
            return false;
        }
        i += prefix.length();
        if (name.charAt(i) != '-' || name.charAt(i + 1 + UID_LENGTH) != '-') {
            return false;
        }
        Long fromCounter =
                writers == null ? Long.valueOf(0) : writers.firstCounter(name.substring(i + 1, i + 1 + UID_LENGTH));
        if (fromCounter == null) {
            return false;
        }
        i += UID_LENGTH + 2;
        int digits = 0;
        while (i + digits < to && Character.isDigit(name.charAt(i + digits))) {
            digits++;
        }
        if (digits == 0 || digits > 18) {
            return false;
        }
        String rest = name.substring(i + digits, to);
        boolean tail = inProgress ? rest.startsWith(suffix + ".inprogress.") : rest.equals(suffix);
        return tail && Long.parseLong(name.substring(i, i + digits)) >= fromCounter;
    }
}
