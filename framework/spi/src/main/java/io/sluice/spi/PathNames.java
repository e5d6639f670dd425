package io.sluice.spi;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;

/**
 * Checks for user strings that become part of a path (a file name, part of one, a base
 * directory), so that a target rejects them when the statement is planned, naming the option and
 * the value, instead of writing outside its table or failing after a commit.
 *
 * <p>A name must be one path segment that every Flink and Hadoop {@code Path} keeps as it is: not
 * empty, not {@code .} or {@code ..}, no {@code /} or {@code \} (Flink's {@code Path} turns {@code
 * \} into {@code /}), no {@code :} (a relative {@code Path} with a colon is parsed as a URI scheme
 * and fails), no control character (NUL included), at most {@link #MAX_NAME_BYTES} bytes in UTF-8
 * (the limit of local file systems and HDFS). Other characters ({@code %}, {@code #}, spaces,
 * unicode, a leading {@code .} or {@code _}) are fine in a name; whether a leading {@code .} or
 * {@code _} is wanted (it hides the file from readers) is the caller's decision.
 */
public final class PathNames {

    /** The longest file name, in bytes, that local file systems (NAME_MAX) and HDFS accept. */
    public static final int MAX_NAME_BYTES = 255;

    private PathNames() {}

    /**
     * Checks a whole file or directory name.
     *
     * @throws IllegalArgumentException naming the option and the value, and what is wrong
     */
    public static void checkName(String option, String name) {
        String problem = nameProblem(name);
        if (problem != null) {
            throw invalid(option, name, problem);
        }
    }

    /** What makes {@code name} unusable as a file or directory name, or null if nothing does. */
    public static String nameProblem(String name) {
        if (name.isEmpty()) {
            return "must not be empty";
        }
        if (name.equals(".") || name.equals("..")) {
            return "names a directory, not a file name";
        }
        String problem = namePartProblem(name);
        if (problem != null) {
            return problem;
        }
        int bytes = utf8Length(name);
        return bytes > MAX_NAME_BYTES
                ? "is " + bytes + " bytes long, more than the " + MAX_NAME_BYTES + " a file name can have"
                : null;
    }

    /**
     * Checks a piece of a file name (a prefix or suffix that the target joins with others into one
     * name): it may be empty and may be {@code .}, but must not hold a character that splits or
     * breaks the name. The caller checks the length of the whole name.
     *
     * @throws IllegalArgumentException naming the option and the value, and what is wrong
     */
    public static void checkNamePart(String option, String part) {
        String problem = namePartProblem(part);
        if (problem != null) {
            throw invalid(option, part, problem);
        }
    }

    private static String namePartProblem(String part) {
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c == '/' || c == '\\') {
                return "must be part of one file name, without '/' or '\\'";
            }
            if (c == ':') {
                return "must not contain ':' (a path would read it as a URI scheme)";
            }
            if (Character.isISOControl(c)) {
                return "must not contain control characters (found " + escape(String.valueOf(c)) + ")";
            }
        }
        return null;
    }

    /**
     * Checks a base directory: it must be absolute and must not have {@code .} or {@code ..}
     * segments, which Flink and Hadoop resolve (a relative path against each process's working
     * directory: the CLI's installation, each TaskManager's own), so that the directory a table
     * writes to (and {@code INSERT OVERWRITE} deletes in) is the one the option shows, on every
     * machine.
     *
     * @throws IllegalArgumentException naming the option and the value, and what is wrong
     */
    public static void checkBaseDirectory(String option, String path) {
        String p = path;
        boolean relative = !path.startsWith("/") && !path.startsWith("\\") && !isWindowsDrive(path);
        try {
            URI uri = new URI(path);
            if (uri.getRawPath() != null) {
                // raw: Flink's Path takes '%2E' literally, so only real dot segments count
                p = uri.getRawPath();
            }
            if (uri.getScheme() != null && !isWindowsDrive(path)) {
                // 'file:t' is opaque (relative); 'hdfs://nn/t' and 'file:///t' are absolute
                relative = uri.isOpaque()
                        || uri.getRawPath() == null
                        || !uri.getRawPath().startsWith("/");
                if (uri.getRawAuthority() != null
                        && (uri.getRawPath() == null || uri.getRawPath().isEmpty())) {
                    relative = false; // 's3://bucket': the bucket's root
                }
            }
        } catch (URISyntaxException e) {
            // not a URI (a plain local path, Windows drive ...): check the string as it is
        }
        for (String segment : p.split("[/\\\\]", -1)) {
            if (segment.equals(".") || segment.equals("..")) {
                throw invalid(option, path, "must not contain '" + segment + "' segments: name the directory itself");
            }
        }
        for (int i = 0; i < path.length(); i++) {
            if (Character.isISOControl(path.charAt(i))) {
                throw invalid(
                        option,
                        path,
                        "must not contain control characters (found " + escape(String.valueOf(path.charAt(i))) + ")");
            }
        }
        if (relative) {
            throw invalid(
                    option,
                    path,
                    "must be an absolute path or URI: a relative one resolves against each process's working"
                            + " directory");
        }
    }

    private static boolean isWindowsDrive(String path) {
        return path.length() >= 3
                && Character.isLetter(path.charAt(0))
                && path.charAt(1) == ':'
                && (path.charAt(2) == '\\' || path.charAt(2) == '/');
    }

    /** The length of {@code s} in UTF-8, the encoding file systems count names in. */
    public static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** An error naming the option and the value (control characters shown as {@code \\uXXXX}). */
    public static IllegalArgumentException invalid(String option, String value, String reason) {
        return new IllegalArgumentException("Invalid '" + option + "' '" + escape(value) + "': " + reason);
    }

    /** {@code value} with control characters written as {@code \\uXXXX}, so a message can show it. */
    public static String escape(String value) {
        StringBuilder sb = null;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c)) {
                if (sb == null) {
                    sb = new StringBuilder(value.length() + 8).append(value, 0, i);
                }
                sb.append(String.format("\\u%04X", (int) c));
            } else if (sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? value : sb.toString();
    }
}
