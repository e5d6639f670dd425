package io.sluice.partfiles;

import io.sluice.spi.PathNames;

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
     * Whether {@code fileName} is the in-progress file of part {@code counter >= fromCounter} of
     * the writer {@code writerUid}: Flink's recoverable writers (local, Hadoop) stage a part file
     * as {@code .<name>.inprogress.<uuid>}, and {@code <name>} may carry compaction's hidden prefix.
     * The uid is a random UUID per writer instance, so no other writer's file can match.
     */
    boolean isInProgressPart(String fileName, String writerUid, long fromCounter) {
        String stem = "." + prefix + "-" + writerUid + "-";
        String hiddenStem = "." + UnitCompaction.HIDDEN_PREFIX + prefix + "-" + writerUid + "-";
        String rest = fileName.startsWith(stem)
                ? fileName.substring(stem.length())
                : fileName.startsWith(hiddenStem) ? fileName.substring(hiddenStem.length()) : null;
        if (rest == null) {
            return false;
        }
        int digits = 0;
        while (digits < rest.length() && Character.isDigit(rest.charAt(digits))) {
            digits++;
        }
        if (digits == 0 || digits > 18 || !rest.startsWith(suffix + ".inprogress.", digits)) {
            return false;
        }
        return Long.parseLong(rest.substring(0, digits)) >= fromCounter;
    }

    /**
     * Whether {@code fileName} is part {@code counter >= fromCounter} of the writer {@code writerUid}
     * under its final name ({@code <name>}, maybe with compaction's hidden prefix): the key of the
     * multipart upload an S3 recoverable writer stages a part file in.
     */
    boolean isUploadedPart(String fileName, String writerUid, long fromCounter) {
        String stem = prefix + "-" + writerUid + "-";
        String hiddenStem = UnitCompaction.HIDDEN_PREFIX + prefix + "-" + writerUid + "-";
        String rest = fileName.startsWith(stem)
                ? fileName.substring(stem.length())
                : fileName.startsWith(hiddenStem) ? fileName.substring(hiddenStem.length()) : null;
        if (rest == null) {
            return false;
        }
        int digits = 0;
        while (digits < rest.length() && Character.isDigit(rest.charAt(digits))) {
            digits++;
        }
        if (digits == 0 || digits > 18 || !rest.substring(digits).equals(suffix)) {
            return false;
        }
        return Long.parseLong(rest.substring(0, digits)) >= fromCounter;
    }

    /**
     * Whether {@code fileName} is the object Flink's S3 recoverable writer persists the unfinished
     * last part of an upload in ({@code _<name>_tmp_<uuid>}) for part {@code counter >= fromCounter}
     * of the writer {@code writerUid}.
     */
    boolean isStagedPart(String fileName, String writerUid, long fromCounter) {
        int tmp = fileName.lastIndexOf("_tmp_");
        return fileName.startsWith("_")
                && tmp > 1
                && isUploadedPart(fileName.substring(1, tmp), writerUid, fromCounter);
    }
}
