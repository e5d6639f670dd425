package io.sluice.plugin.iceberg.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DeleteSchemaUtil;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

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

    /**
     * The table whose objects under {@code root} (its location with a trailing '/', such as {@code
     * s3a://bucket/wh/db/t/}) a store's own client copied to {@code copy}: {@code operations} over a
     * file IO that serves those bytes under their original locations, so that reading it asks
     * nothing of the store or of the plugin.
     */
    static Table fromCopy(Path copy, String root, Function<FileIO, TableOperations> operations, String name) {
        InMemoryFileIO io = new InMemoryFileIO();
        try (Stream<Path> files = Files.walk(copy)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                io.addFile(root + copy.relativize(f).toString().replace('\\', '/'), Files.readAllBytes(f));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new BaseTable(operations.apply(io), name);
    }

    /** The locations of the data and delete files that any snapshot of {@code table} references. */
    static Set<String> referencedFiles(Table table) {
        table.refresh();
        Set<String> files = new HashSet<>();
        try {
            for (Snapshot snapshot : table.snapshots()) {
                for (ManifestFile m : snapshot.dataManifests(table.io())) {
                    try (ManifestReader<DataFile> reader = ManifestFiles.read(m, table.io(), table.specs())) {
                        reader.forEach(f -> files.add(f.location()));
                    }
                }
                for (ManifestFile m : snapshot.deleteManifests(table.io())) {
                    try (ManifestReader<DeleteFile> reader =
                            ManifestFiles.readDeleteManifest(m, table.io(), table.specs())) {
                        reader.forEach(f -> files.add(f.location()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    /**
     * The files under the {@code data/} directory of {@code table}, on the local file system, that
     * no snapshot references: what failed attempts wrote and nobody removed.
     */
    static List<String> unreferencedLocalDataFiles(Table table) {
        Set<String> referenced = new HashSet<>();
        for (String f : referencedFiles(table)) {
            referenced.add(URI.create(f).getPath());
        }
        Path data = Path.of(URI.create(table.location()).getPath(), "data");
        if (!Files.isDirectory(data)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(data)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> !f.getFileName().toString().startsWith("."))
                    .map(f -> f.toAbsolutePath().toString())
                    .filter(f -> !referenced.contains(f))
                    .sorted()
                    .collect(Collectors.toList());
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
                .map(r -> fields.stream()
                        .map(f -> Objects.toString(r.getField(f.name())))
                        .collect(Collectors.joining("|")))
                .collect(Collectors.toList());
    }

    /**
     * Every row of the current snapshot as {@code v1|v2|...}, merged on read by hand from the raw
     * Parquet files rather than by Iceberg's delete filters: a row of a data file is gone if a
     * position delete of the same or a later data sequence number names its file and position, or
     * an equality delete of a later data sequence number has its equality fields' values. A second
     * opinion on {@link #rows}, for tables whose files are all Parquet.
     */
    static List<String> rowsMergedByHand(Table table) {
        List<String> out = new ArrayList<>();
        mergeByHand(table, (file, position, row, deletedBy) -> {
            if (deletedBy == null) {
                out.add(row);
            }
        });
        return out;
    }

    /**
     * The rows of every data file whose first field is {@code firstField}, as {@code
     * position:v1|v2|...} and what deletes them ({@code -pos}, {@code -eq}, nothing if live), with
     * the table's data and delete files and their data sequence numbers: what a failed assertion on
     * the rows of one key shows.
     */
    static String describe(Table table, Object firstField) {
        StringBuilder out = new StringBuilder();
        String[] current = {null};
        List<DeleteFile> deletes = mergeByHand(table, (file, position, row, deletedBy) -> {
            if (!file.location().equals(current[0])) {
                current[0] = file.location();
                out.append("\ndata ")
                        .append(file.location())
                        .append(" seq ")
                        .append(file.dataSequenceNumber())
                        .append(':');
            }
            if (row.startsWith(firstField + "|")) {
                out.append(' ')
                        .append(position)
                        .append(':')
                        .append(row)
                        .append(deletedBy == null ? "" : "-" + deletedBy);
            }
        });
        for (DeleteFile file : deletes) {
            out.append("\n")
                    .append(file.content())
                    .append(' ')
                    .append(file.location())
                    .append(" seq ")
                    .append(file.dataSequenceNumber())
                    .append(", ")
                    .append(file.recordCount())
                    .append(" rows");
        }
        return out.toString();
    }

    /** One row of a data file in {@link #mergeByHand}; {@code deletedBy} is {@code pos}, {@code eq} or null. */
    private interface RowVisitor {
        void row(DataFile file, long position, String row, String deletedBy);
    }

    /** Visits every row of every live data file, in file order; returns the live delete files. */
    private static List<DeleteFile> mergeByHand(Table table, RowVisitor visitor) {
        table.refresh();
        List<DataFile> data = new ArrayList<>();
        List<DeleteFile> deletes = new ArrayList<>();
        liveFiles(table, data, deletes);
        for (DataFile file : data) {
            Set<Long> deletedPositions = new HashSet<>();
            Set<List<Object>> deletedKeys = new HashSet<>();
            List<Integer> keyIds = null;
            for (DeleteFile delete : deletes) {
                long deleteSeq = delete.dataSequenceNumber();
                if (delete.content() == FileContent.POSITION_DELETES && deleteSeq >= file.dataSequenceNumber()) {
                    for (Record r : parquet(table, delete, DeleteSchemaUtil.pathPosSchema())) {
                        if (r.get(0).toString().equals(file.location())) {
                            deletedPositions.add((Long) r.get(1));
                        }
                    }
                } else if (delete.content() == FileContent.EQUALITY_DELETES && deleteSeq > file.dataSequenceNumber()) {
                    if (keyIds != null && !keyIds.equals(delete.equalityFieldIds())) {
                        throw new IllegalStateException("equality deletes on different fields: not handled here");
                    }
                    keyIds = delete.equalityFieldIds();
                    for (Record r : parquet(table, delete, table.schema().select(names(table, keyIds)))) {
                        deletedKeys.add(values(r));
                    }
                }
            }
            long position = 0;
            for (Record r : parquet(table, file, table.schema())) {
                List<Object> key = new ArrayList<>();
                if (keyIds != null) {
                    keyIds.forEach(id -> key.add(r.getField(table.schema().findColumnName(id))));
                }
                String deletedBy = deletedPositions.contains(position)
                        ? "pos"
                        : keyIds != null && deletedKeys.contains(key) ? "eq" : null;
                visitor.row(
                        file,
                        position++,
                        values(r).stream().map(Objects::toString).collect(Collectors.joining("|")),
                        deletedBy);
            }
        }
        return deletes;
    }

    private static void liveFiles(Table table, List<DataFile> data, List<DeleteFile> deletes) {
        Snapshot head = table.currentSnapshot();
        if (head == null) {
            return;
        }
        try {
            for (ManifestFile m : head.dataManifests(table.io())) {
                try (ManifestReader<DataFile> reader = ManifestFiles.read(m, table.io(), table.specs())) {
                    reader.forEach(data::add);
                }
            }
            for (ManifestFile m : head.deleteManifests(table.io())) {
                try (ManifestReader<DeleteFile> reader =
                        ManifestFiles.readDeleteManifest(m, table.io(), table.specs())) {
                    reader.forEach(deletes::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Record> parquet(Table table, ContentFile<?> file, Schema schema) {
        if (!file.format().name().equals("PARQUET")) {
            throw new IllegalStateException("only Parquet files are read by hand, got " + file.location());
        }
        List<Record> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = Parquet.read(table.io().newInputFile(file.location()))
                .project(schema)
                .createReaderFunc(type -> GenericParquetReaders.buildReader(schema, type))
                .build()) {
            records.forEach(r -> rows.add(r.copy()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }

    private static List<String> names(Table table, List<Integer> ids) {
        return ids.stream().map(id -> table.schema().findColumnName(id)).collect(Collectors.toList());
    }

    private static List<Object> values(Record r) {
        List<Object> values = new ArrayList<>(r.size());
        for (int i = 0; i < r.size(); i++) {
            values.add(r.get(i));
        }
        return values;
    }

    /** The table's snapshots, oldest first. */
    public static List<Snapshot> snapshots(Table table) {
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
