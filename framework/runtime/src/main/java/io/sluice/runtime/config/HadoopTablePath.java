package io.sluice.runtime.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A table addressed by its directory alone, as Iceberg's {@code TableLoader.fromHadoopTable(location)}
 * addresses it: the catalog options of a {@code hadoop} catalog that finds the same table. A Hadoop
 * catalog keeps a table in {@code <warehouse>/<database>/<table>} with the same metadata layout
 * ({@code metadata/vN.metadata.json}, {@code version-hint.text}) as a path-addressed table, so the
 * directory's parent is the database and the one above it the warehouse.
 */
public final class HadoopTablePath {

    private HadoopTablePath() {}

    /**
     * The options {@code catalog-type}, {@code warehouse}, {@code catalog-database} and {@code
     * catalog-table} of the table at {@code location} ({@code hdfs://nn:8020/warehouse/path},
     * {@code file:///data/t}, {@code /data/t}).
     *
     * @throws IllegalArgumentException for a location with fewer than two directories below its
     *     root (no database directory to stand for)
     */
    public static Map<String, String> options(String location) {
        if (location == null || location.isBlank()) {
            throw new IllegalArgumentException("A table path must not be empty");
        }
        String trimmed = location.trim();
        // the path starts after the scheme and authority: hdfs://nn:8020/a/b, file:/a/b, /a/b
        int scheme = trimmed.indexOf("://");
        int pathStart;
        if (scheme >= 0) {
            pathStart = trimmed.indexOf('/', scheme + 3);
        } else {
            int colon = trimmed.indexOf(':');
            int slash = trimmed.indexOf('/');
            pathStart = colon >= 0 && colon + 1 == slash ? slash : slash == 0 ? 0 : -1;
        }
        List<String> segments = new ArrayList<>();
        if (pathStart >= 0) {
            for (String segment : trimmed.substring(pathStart).split("/")) {
                if (!segment.isEmpty()) {
                    segments.add(segment);
                }
            }
        }
        if (pathStart < 0 || segments.size() < 2) {
            throw new IllegalArgumentException("Invalid table path '" + location
                    + "': a path-addressed table needs an absolute path with a directory above the table's"
                    + " (<warehouse>/<database>/<table>)");
        }
        String warehouse =
                trimmed.substring(0, pathStart) + "/" + String.join("/", segments.subList(0, segments.size() - 2));
        String database = segments.get(segments.size() - 2);
        String table = segments.get(segments.size() - 1);
        Map<String, String> options = new LinkedHashMap<>();
        options.put("catalog-type", "hadoop");
        options.put("warehouse", warehouse);
        options.put("catalog-database", database);
        options.put("catalog-table", table);
        return options;
    }
}
