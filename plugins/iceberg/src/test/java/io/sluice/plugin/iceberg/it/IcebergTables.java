package io.sluice.plugin.iceberg.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The independent side of the end-to-end tests: Iceberg's Java API from the test class path (not
 * the plugin's copy), on a Hadoop catalog in a local warehouse. Public for the benchmarks
 * ({@code io.sluice.plugin.iceberg.bench}), which set up and check their tables with it.
 */
public final class IcebergTables {

    private IcebergTables() {}

    /** A Hadoop catalog on {@code warehouse}; the caller closes it. */
    public static HadoopCatalog catalog(Path warehouse) {
        return new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
    }

    /** Table {@code database.table} of the Hadoop catalog on {@code warehouse}. */
    public static Table load(Path warehouse, String database, String table) {
        try (HadoopCatalog catalog = catalog(warehouse)) {
            return catalog.loadTable(TableIdentifier.of(Namespace.of(database), table));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every record, through Iceberg's generic reader. */
    static List<Record> records(Table table) {
        table.refresh();
        List<Record> all = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            records.forEach(r -> all.add(r.copy()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all;
    }

    /** Every record as {@code v1|v2|...} of its fields' {@code toString}, in schema order. */
    static List<String> rows(Table table) {
        List<Types.NestedField> fields = table.schema().columns();
        return records(table).stream()
                .map(r -> fields.stream().map(f -> Objects.toString(r.getField(f.name()))).collect(Collectors.joining("|")))
                .collect(Collectors.toList());
    }

    /** The table's snapshots, oldest first. */
    static List<Snapshot> snapshots(Table table) {
        table.refresh();
        List<Snapshot> all = new ArrayList<>();
        table.snapshots().forEach(all::add);
        return all;
    }

    /**
     * Options of a sink into {@code db.numbers} of the warehouse through the test plugin {@code
     * chaos-iceberg}: the iceberg target, with failures injected as further {@code chaos.*} options
     * ask, and a record of the requests it is handed under {@code markers}.
     */
    static Map<String, String> chaosSinkOptions(Path warehouse, Path markers) {
        Map<String, String> options = new HashMap<>();
        options.put("sluice.plugins.dir", TestPluginsDir.get().toString());
        options.put("target", "chaos-iceberg");
        options.put("chaos.marker-dir", markers.toString());
        options.put("catalog-type", "hadoop");
        options.put("warehouse", warehouse.toUri().toString());
        options.put("catalog-database", "db");
        options.put("catalog-table", "numbers");
        return options;
    }
}
