package io.sluice.spi.partition;

import org.apache.flink.table.utils.PartitionPathUtils;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hive-style partition paths ({@code k1=v1/k2=v2}) with Hive's escaping, shared by every target
 * that lays out partitions as directories.
 *
 * <p>The escaping is Flink's own ({@link PartitionPathUtils}, as Flink's filesystem connector
 * writes and reads partitions): every character that could change the path's meaning ({@code /},
 * {@code \}, {@code =}, {@code :}, {@code %}, control characters ...) becomes {@code %XX}, so no
 * value can name a directory outside the table's path. A value that is exactly {@code .} or {@code
 * ..} is escaped as a whole too ({@code %2E%2E}): inside {@code k=..} it is harmless, but the
 * directories Sluice wrote before it used Flink's helper are named that way, and an {@code INSERT
 * OVERWRITE} or a pruned read must find them.
 */
public final class PartitionPaths {

    private PartitionPaths() {}

    /** Escapes one key or value so it is a single, harmless path segment. */
    public static String escape(String value) {
        if (value.isEmpty()) {
            return value; // Flink refuses to escape an empty string; there is nothing to escape
        }
        if (value.equals(".") || value.equals("..")) {
            return value.replace(".", "%2E");
        }
        // Flink keeps escapePathName package-private; its public partition path escapes a
        // one-entry spec 'k=<value>/' with the key needing no escaping
        LinkedHashMap<String, String> one = new LinkedHashMap<>();
        one.put("k", value);
        String path = PartitionPathUtils.generatePartitionPath(one);
        return path.substring(2, path.length() - 1);
    }

    /** Reverses {@link #escape}. */
    public static String unescape(String segment) {
        return segment.indexOf('%') < 0 ? segment : PartitionPathUtils.unescapePathName(segment);
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
