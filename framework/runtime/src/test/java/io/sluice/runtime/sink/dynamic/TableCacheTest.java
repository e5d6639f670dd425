package io.sluice.runtime.sink.dynamic;

import io.sluice.spi.dynamic.DynamicTables;
import io.sluice.spi.dynamic.TableRequest;
import io.sluice.spi.dynamic.TableState;

import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The router's table cache honours its bounds: a table is loaded once per refresh interval, the
 * least recently used table and input schema go first, and the same schema instance resolves
 * without a comparison. Tables are counted where they are loaded.
 */
class TableCacheTest {

    /** Tables in memory, counting the loads. */
    private static final class CountingTables implements DynamicTables {
        final Map<String, TableState> tables = new HashMap<>();
        final List<String> loads = new ArrayList<>();

        @Override
        public Optional<TableState> load(String identifier) {
            loads.add(identifier);
            return Optional.ofNullable(tables.get(identifier));
        }

        @Override
        public TableState create(TableRequest request) {
            throw new UnsupportedOperationException();
        }

        @Override
        public TableState update(TableRequest request) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Map<String, String> sinkOptions(
                String identifier, String branch, List<String> spec, Boolean upsert, List<String> equalityFields) {
            return Map.of();
        }
    }

    private static final RowType SCHEMA = row("id", new BigIntType(false));

    private static TableState table(String name) {
        return new TableState(name, Map.of(0, SCHEMA), 0, Map.of(0, List.of()), 0);
    }

    @Test
    void aTableIsLoadedOncePerRefreshInterval() throws Exception {
        CountingTables tables = new CountingTables();
        tables.tables.put("a", table("a"));
        AtomicLong now = new AtomicLong(1_000);
        TableCache cache = new TableCache(tables, 10, 500, 10, now::get);
        for (int i = 0; i < 100; i++) {
            assertThat(cache.get("a")).isNotNull();
            now.addAndGet(10); // asks from 1,000 to 1,990 ms
        }
        // loaded at 1,000 and 1,500 only
        assertThat(tables.loads).hasSize(2);
        assertThat(cache.loads()).isEqualTo(2);
    }

    @Test
    void aMissingTableIsAskedForOncePerRefreshIntervalAndFoundOnceCreated() throws Exception {
        CountingTables tables = new CountingTables();
        AtomicLong now = new AtomicLong();
        TableCache cache = new TableCache(tables, 10, 500, 10, now::get);
        for (int i = 0; i < 50; i++) {
            assertThat(cache.get("new")).isNull();
            now.addAndGet(5); // 0 to 245 ms: one interval
        }
        assertThat(tables.loads).containsExactly("new");
        // created elsewhere: seen after the interval
        tables.tables.put("new", table("new"));
        assertThat(cache.get("new")).isNull();
        now.set(600);
        assertThat(cache.get("new")).isNotNull();
        assertThat(tables.loads).hasSize(2);
        // created here: seen at once
        assertThat(cache.get("other")).isNull();
        cache.put(table("other"));
        assertThat(cache.get("other")).isNotNull();
    }

    @Test
    void theLeastRecentlyUsedTableGoesFirst() throws Exception {
        CountingTables tables = new CountingTables();
        for (String t : List.of("a", "b", "c")) {
            tables.tables.put(t, table(t));
        }
        TableCache cache = new TableCache(tables, 2, Long.MAX_VALUE, 10, () -> 0L);
        cache.get("a");
        cache.get("b");
        cache.get("a"); // b is now the least recently used
        cache.get("c"); // evicts b
        assertThat(cache.size()).isEqualTo(2);
        tables.loads.clear();
        cache.get("a");
        cache.get("c");
        assertThat(tables.loads).isEmpty();
        cache.get("b");
        assertThat(tables.loads).containsExactly("b");
    }

    @Test
    void inputSchemasPerTableAreBoundedAndTheSameInstanceHitsFirst() throws Exception {
        CountingTables tables = new CountingTables();
        RowType wide = row("id", new BigIntType(false), "a", new IntType(true), "b", new IntType(true));
        tables.tables.put("t", new TableState("t", Map.of(0, wide), 0, Map.of(0, List.of()), 0));
        TableCache cache = new TableCache(tables, 10, Long.MAX_VALUE, 2, () -> 0L);
        TableCache.CachedTable t = cache.get("t");
        RowType onlyId = row("id", new BigIntType(false));
        RowType withA = row("id", new BigIntType(false), "a", new IntType(true));
        RowType withB = row("id", new BigIntType(false), "b", new IntType(true));
        SchemaResolution first = t.resolve(onlyId);
        assertThat(t.resolve(onlyId)).isSameAs(first);
        // an equal schema of another instance finds the same resolution
        assertThat(t.resolve(row("id", new BigIntType(false)))).isSameAs(first);
        t.resolve(withA);
        t.resolve(withB);
        assertThat(t.resolutionsCached()).isEqualTo(2);
        // onlyId was the least recently used: resolved anew, not the cached instance
        assertThat(t.resolve(row("id", new BigIntType(false)))).isNotSameAs(first);
    }

    @Test
    void anUnchangedTableKeepsItsResolutionsOverARefresh() throws Exception {
        CountingTables tables = new CountingTables();
        tables.tables.put("t", table("t"));
        AtomicLong now = new AtomicLong();
        TableCache cache = new TableCache(tables, 10, 100, 10, now::get);
        SchemaResolution resolved = cache.get("t").resolve(SCHEMA);
        now.addAndGet(200);
        assertThat(cache.get("t").resolve(row("id", new BigIntType(false)))).isSameAs(resolved);
        assertThat(tables.loads).hasSize(2);
        // a changed table resolves anew
        RowType v2 = row("id", new BigIntType(false), "x", new IntType(true));
        tables.tables.put("t", new TableState("t", Map.of(0, SCHEMA, 1, v2), 1, Map.of(0, List.of()), 0));
        now.addAndGet(200);
        assertThat(cache.get("t").resolve(SCHEMA).schemaId()).isEqualTo(0);
        assertThat(cache.get("t").state.currentSchemaId()).isEqualTo(1);
    }

    private static RowType row(Object... namesAndTypes) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (int i = 0; i < namesAndTypes.length; i += 2) {
            fields.add(new RowType.RowField((String) namesAndTypes[i], (LogicalType) namesAndTypes[i + 1]));
        }
        return new RowType(true, fields);
    }
}
