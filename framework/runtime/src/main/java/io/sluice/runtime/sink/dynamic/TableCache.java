package io.sluice.runtime.sink.dynamic;

import io.sluice.spi.dynamic.DynamicTables;
import io.sluice.spi.dynamic.TableState;

import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The tables a router has seen: each table's state as last loaded (at most {@code maxSize}
 * tables, least recently used out first; one older than {@code refreshMs} is loaded again when next
 * asked for; a table found missing is taken as missing for as long), and per table how the input schemas seen for it resolve (at most {@code
 * schemasPerTable} of them, least recently used out first). Asking with the same schema instance
 * as the record before hits without comparing schemas. Used by one task thread.
 */
final class TableCache {

    /** One table: its state and the resolutions of the input schemas and specs seen for it. */
    final class CachedTable {
        final TableState state;
        final long loadedAt;
        private final Map<RowType, SchemaResolution> resolutions;
        private final Map<List<String>, Integer> specIds = new java.util.HashMap<>();

        @Nullable
        private RowType lastSchema;

        @Nullable
        private SchemaResolution lastResolution;

        CachedTable(TableState state, long loadedAt, int schemasPerTable) {
            this.state = state;
            this.loadedAt = loadedAt;
            this.resolutions = new LinkedHashMap<>(16, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<RowType, SchemaResolution> eldest) {
                    return size() > schemasPerTable;
                }
            };
        }

        /** How rows of {@code schema} are written, or null if the table must evolve first. */
        @Nullable
        SchemaResolution resolve(RowType schema) {
            if (schema == lastSchema) {
                return lastResolution;
            }
            SchemaResolution resolution = resolutions.get(schema);
            if (resolution == null) {
                resolved++;
                resolution = SchemaResolution.resolve(schema, state).orElse(null);
                if (resolution == null) {
                    return null;
                }
                resolutions.put(schema, resolution);
            }
            lastSchema = schema;
            lastResolution = resolution;
            return resolution;
        }

        /**
         * The id of the table's spec of these transforms, or -1 if it has none such; a schemaless
         * table takes every spec (as {@code 0}).
         */
        int specId(List<String> spec) {
            if (state.schemaless()) {
                return 0;
            }
            Integer id = specIds.get(spec);
            if (id == null) {
                id = -1;
                List<String> wanted = normalized(spec);
                // the current spec first: an older one of the same transforms is not what to write
                if (normalized(state.currentSpec()).equals(wanted)) {
                    id = state.currentSpecId();
                } else {
                    for (Map.Entry<Integer, List<String>> s : state.specs().entrySet()) {
                        if (normalized(s.getValue()).equals(wanted)) {
                            id = s.getKey();
                            break;
                        }
                    }
                }
                if (id >= 0) {
                    specIds.put(spec, id);
                }
            }
            return id;
        }

        int resolutionsCached() {
            return resolutions.size();
        }
    }

    private final DynamicTables tables;
    private final long refreshMs;
    private final int schemasPerTable;
    private final LongSupplier clock;
    private final LinkedHashMap<String, CachedTable> cached;
    /** Tables found missing, with when: asked again only after the refresh interval. */
    private final LinkedHashMap<String, Long> missing;

    private long loads;
    private long resolved;

    TableCache(DynamicTables tables, int maxSize, long refreshMs, int schemasPerTable, LongSupplier clock) {
        this.tables = tables;
        this.refreshMs = refreshMs;
        this.schemasPerTable = schemasPerTable;
        this.clock = clock;
        this.cached = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, CachedTable> eldest) {
                return size() > maxSize;
            }
        };
        this.missing = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
                return size() > maxSize;
            }
        };
    }

    /** The table, loaded if not cached or cached longer than the refresh interval; null if it does not exist. */
    @Nullable
    CachedTable get(String table) throws IOException {
        CachedTable hit = cached.get(table);
        long now = clock.getAsLong();
        if (hit != null && now - hit.loadedAt < refreshMs) {
            return hit;
        }
        Long missingSince = missing.get(table);
        if (missingSince != null && now - missingSince < refreshMs) {
            // found missing within the interval: every record of a table the updater is still
            // creating would otherwise ask the catalog again
            return null;
        }
        loads++;
        TableState state = tables.load(table).orElse(null);
        if (state == null) {
            cached.remove(table);
            missing.put(table, now);
            return null;
        }
        missing.remove(table);
        if (hit != null && sameMetadata(hit.state, state)) {
            // unchanged: keep the resolutions, count the interval from now
            CachedTable renewed = new CachedTable(state, now, schemasPerTable);
            renewed.resolutions.putAll(hit.resolutions);
            cached.put(table, renewed);
            return renewed;
        }
        return put(state);
    }

    /** Caches a table's state as just loaded, created or updated. */
    CachedTable put(TableState state) {
        missing.remove(state.identifier());
        CachedTable table = new CachedTable(state, clock.getAsLong(), schemasPerTable);
        cached.put(state.identifier(), table);
        return table;
    }

    /** Tables loaded from the target so far (cache misses and refreshes). */
    long loads() {
        return loads;
    }

    /**
     * Input schemas compared with a table's schemas so far: a miss of the per-table schema cache
     * (a schema seen for the first time, or again after it was evicted).
     */
    long schemaResolutions() {
        return resolved;
    }

    int size() {
        return cached.size();
    }

    private static boolean sameMetadata(TableState a, TableState b) {
        return a.currentSchemaId() == b.currentSchemaId()
                && a.currentSpecId() == b.currentSpecId()
                && a.schemas().equals(b.schemas())
                && a.specs().equals(b.specs());
    }

    /**
     * Transforms compared without spaces and with the transform's name in any case: {@code
     * bucket(16, id)} is {@code BUCKET(16,id)}; column names keep their case.
     */
    static List<String> normalized(List<String> spec) {
        List<String> out = new java.util.ArrayList<>(spec.size());
        for (String t : spec) {
            String compact = t.replace(" ", "");
            int open = compact.indexOf('(');
            out.add(open < 0 ? compact : compact.substring(0, open).toLowerCase(Locale.ROOT) + compact.substring(open));
        }
        return out;
    }
}
