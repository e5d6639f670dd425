package io.sluice.spi.partition;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hive-style partition paths ({@code k1=v1/k2=v2}) with Hive's escaping, shared by every target
 * that lays out partitions as directories.
 *
 * <p>Escaping turns every character that could change the path's meaning ({@code /}, {@code \},
 * {@code =}, {@code :}, {@code %}, control characters ...) into {@code %XX}, so no value can name a
 * directory outside the table's path; a value that is exactly {@code .} or {@code ..} is escaped
 * as a whole.
 */
public final class PartitionPaths {

    private static final boolean[] ESCAPED = new boolean[128];

    static {
        for (char c = 0; c < ' '; c++) {
            ESCAPED[c] = true;
        }
        for (char c : "\u007F\"#%'*/:=?\\{[]^".toCharArray()) {
            ESCAPED[c] = true;
        }
    }

    private PartitionPaths() {}

    /** Escapes one key or value so it is a single, harmless path segment. */
    public static String escape(String value) {
        if (value.equals(".") || value.equals("..")) {
            return value.replace(".", "%2E");
        }
        StringBuilder sb = null;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < ESCAPED.length && ESCAPED[c]) {
                if (sb == null) {
                    sb = new StringBuilder(value.length() + 8).append(value, 0, i);
                }
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            } else if (sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? value : sb.toString();
    }

    /** Reverses {@link #escape}. */
    public static String unescape(String segment) {
        int pct = segment.indexOf('%');
        if (pct < 0) {
            return segment;
        }
        StringBuilder sb = new StringBuilder(segment.length()).append(segment, 0, pct);
        for (int i = pct; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '%' && i + 2 < segment.length()) {
                int hi = Character.digit(segment.charAt(i + 1), 16);
                int lo = Character.digit(segment.charAt(i + 2), 16);
                if (hi >= 0 && lo >= 0) {
                    sb.append((char) ((hi << 4) | lo));
                    i += 2;
                    continue;
                }
            }
            sb.append(c);
        }
        return sb.toString();
    }

    /** Builds {@code k1=v1/k2=v2} from keys and values, escaping both. */
    public static String path(LinkedHashMap<String, String> spec) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : spec.entrySet()) {
            if (sb.length() > 0) {
                sb.append('/');
            }
            sb.append(escape(e.getKey())).append('=').append(escape(e.getValue()));
        }
        return sb.toString();
    }

    /**
     * Parses {@code k1=v1/k2=v2} back into keys and unescaped values; segments that are not
     * {@code k=v} are ignored.
     */
    public static LinkedHashMap<String, String> spec(String path) {
        LinkedHashMap<String, String> spec = new LinkedHashMap<>();
        for (String segment : path.split("/")) {
            int eq = segment.indexOf('=');
            if (eq > 0) {
                spec.put(unescape(segment.substring(0, eq)), unescape(segment.substring(eq + 1)));
            }
        }
        return spec;
    }

    /** The values of a spec, in key order. */
    public static List<String> values(LinkedHashMap<String, String> spec) {
        return new ArrayList<>(spec.values());
    }
}
