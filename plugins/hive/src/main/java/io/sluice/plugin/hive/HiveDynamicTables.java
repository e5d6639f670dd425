package io.sluice.plugin.hive;

import io.sluice.spi.PathNames;
import io.sluice.spi.dynamic.DynamicTables;
import io.sluice.spi.dynamic.TableRequest;
import io.sluice.spi.dynamic.TableState;

import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.hive.util.HiveTypeUtil;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.RetryingMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.EnvironmentContext;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Table;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The Hive tables of a dynamic sink, in the metastore of the sink's catalog options; an identifier
 * is {@code database.table}. Hive keeps one schema per table (all columns nullable) and cannot
 * change its partition columns, so a table's state has one schema and one spec, {@code
 * identity(key)} per partition column, and a record asking for another spec is refused.
 *
 * <p>A schema change is a change of the table's columns, cascaded to its partitions (so that a
 * reader that takes a partition's own columns sees the new ones): columns are added after the
 * existing data columns, which every format reads (text and SequenceFile files by position, their
 * older files lack the trailing columns); {@code INT} widens to {@code BIGINT}, {@code FLOAT} to
 * {@code DOUBLE}, a decimal to a wider one, except in Parquet tables, whose files Flink's Parquet
 * reader reads only as the type they were written with; a column is dropped only from a Parquet
 * table (read by name; the positional formats would read later columns' values in its place).
 *
 * <p>Hive's metastore has no conditional update: two subtasks changing one table at once could
 * each overwrite the other's change. So an update is applied to the table as it is right then, a
 * column it does not know about is kept (another subtask added it), and the result is read back
 * and applied again until it has everything asked for.
 */
final class HiveDynamicTables implements DynamicTables {

    private static final int ATTEMPTS = 10;

    /** Hive's names: the metastore stores them in lower case, so a name must be lower case already. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9_]+");

    /**
     * The commit policy of a table whose sink names none: the dynamic sink runs a table's policies
     * on every partition a commit wrote to, so its partitions reach the metastore with their files.
     */
    static final String DEFAULT_POLICY = "metastore";

    private final Map<String, String> options;
    private final String catalogName;
    /** The data columns of each table as this instance last saw it: a column of these that a request lacks is dropped. */
    private final Map<String, List<String>> seen = new ConcurrentHashMap<>();

    private SluiceHiveCatalog catalog;

    HiveDynamicTables(Map<String, String> options) {
        this.options = new HashMap<>(options);
        this.catalogName = options.getOrDefault(HiveTargetOptions.CATALOG_NAME.key(), "hive");
    }

    /** {@code database.table}, each of lower-case letters, digits and {@code _}. */
    static ObjectPath path(String identifier) {
        int dot = identifier.indexOf('.');
        String problem = null;
        if (dot <= 0 || dot == identifier.length() - 1 || identifier.indexOf('.', dot + 1) >= 0) {
            problem = "a dynamic sink names a Hive table as database.table";
        } else if (!NAME.matcher(identifier.substring(0, dot)).matches()
                || !NAME.matcher(identifier.substring(dot + 1)).matches()) {
            problem = "Hive's names are lower-case letters, digits and '_' (the metastore keeps them in lower case)";
        }
        if (problem != null) {
            throw new IllegalArgumentException(
                    "Invalid Hive table identifier '" + PathNames.escape(identifier) + "': " + problem);
        }
        return new ObjectPath(identifier.substring(0, dot), identifier.substring(dot + 1));
    }

    private synchronized SluiceHiveCatalog catalog() {
        if (catalog == null) {
            SluiceHiveCatalog opened = HiveCatalogs.create(catalogName, HiveCatalogs.catalogOptions(options));
            opened.open();
            catalog = opened;
        }
        return catalog;
    }

    @Override
    public Optional<TableState> load(String identifier) {
        ObjectPath path = path(identifier);
        try {
            return Optional.of(state(identifier, catalog().getHiveTable(path)));
        } catch (TableNotExistException missing) {
            return Optional.empty();
        }
    }

    @Override
    public TableState create(TableRequest request) throws IOException {
        ObjectPath path = path(request.identifier());
        List<String> keys = partitionKeys(request.identifier(), request.schema(), request.spec());
        checkColumnNames(request.identifier(), request.schema());
        List<Column> columns = new ArrayList<>();
        // Hive keeps the partition columns after the data columns, in the spec's order
        for (RowType.RowField field : request.schema().getFields()) {
            if (!keys.contains(field.getName())) {
                columns.add(column(request.identifier(), field.getName(), field.getType()));
            }
        }
        for (String key : keys) {
            columns.add(column(
                    request.identifier(),
                    key,
                    request.schema().getTypeAt(request.schema().getFieldIndex(key))));
        }
        Map<String, String> properties = new LinkedHashMap<>(request.properties());
        properties.put(SluiceHiveCatalog.CONNECTOR, SluiceHiveCatalog.HIVE);
        request.location().ifPresent(location -> properties.put("hive.location-uri", location));
        ResolvedSchema schema = new ResolvedSchema(columns, List.of(), null);
        CatalogTable table = CatalogTable.newBuilder()
                .schema(org.apache.flink.table.api.Schema.newBuilder()
                        .fromResolvedSchema(schema)
                        .build())
                .partitionKeys(keys)
                .options(properties)
                .build();
        SluiceHiveCatalog hive = catalog();
        try {
            if (!hive.databaseExists(path.getDatabaseName())) {
                hive.createDatabase(path.getDatabaseName(), new CatalogDatabaseImpl(Map.of(), null), true);
            }
            hive.createTable(path, new ResolvedCatalogTable(table, schema), false);
        } catch (TableAlreadyExistException concurrentlyCreated) {
            // another subtask created it meanwhile: it is as that one asked, which the caller checks
        } catch (Exception e) {
            throw new IOException("Cannot create Hive table " + request.identifier() + ": " + e.getMessage(), e);
        }
        return load(request.identifier())
                .orElseThrow(() -> new IOException("Hive table " + request.identifier() + " vanished after creation"));
    }

    @Override
    public TableState update(TableRequest request) throws IOException {
        ObjectPath path = path(request.identifier());
        checkColumnNames(request.identifier(), request.schema());
        List<String> known = seen.getOrDefault(request.identifier(), List.of());
        IMetaStoreClient client = null;
        try {
            client = client();
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                Table table = client.getTable(path.getDatabaseName(), path.getObjectName());
                List<FieldSchema> columns = columns(request, table, known);
                if (columns.equals(table.getSd().getCols())) {
                    return state(request.identifier(), table);
                }
                table.getSd().setCols(columns);
                EnvironmentContext cascade = new EnvironmentContext();
                // StatsSetupConst.CASCADE: the partitions get the table's columns too
                cascade.putToProperties("CASCADE", "true");
                client.alter_table_with_environmentContext(
                        path.getDatabaseName(), path.getObjectName(), table, cascade);
                // last writer wins in the metastore: read back whether this change survived
                Table after = client.getTable(path.getDatabaseName(), path.getObjectName());
                if (columns(request, after, known).equals(after.getSd().getCols())) {
                    return state(request.identifier(), after);
                }
            }
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("Cannot change Hive table " + request.identifier() + ": " + e.getMessage(), e);
        } finally {
            if (client != null) {
                client.close();
            }
        }
        throw new IOException("Hive table " + request.identifier() + " could not be changed to " + request.schema()
                + " in " + ATTEMPTS + " attempts: other writers changed it at the same time");
    }

    /**
     * The data columns the table gets for the request: its own, widened or dropped as the request
     * says, then the request's new ones.
     */
    private List<FieldSchema> columns(TableRequest request, Table table, List<String> known) {
        String id = request.identifier();
        String format = HiveTableInfo.FORMATS.getOrDefault(table.getSd().getInputFormat(), "?");
        List<String> keys = new ArrayList<>();
        for (FieldSchema key : table.getPartitionKeys()) {
            keys.add(key.getName());
        }
        List<String> asked = partitionKeys(id, request.schema(), request.spec());
        if (!asked.equals(keys)) {
            throw new IllegalArgumentException("Hive table " + id + " is partitioned by " + keys
                    + "; a record asks for partition spec " + request.spec()
                    + ": Hive cannot change the partition columns of a table");
        }
        RowType current = HiveTableInfo.columns(table);
        RowType wanted = request.schema();
        for (String key : keys) {
            LogicalType was = current.getTypeAt(current.getFieldIndex(key));
            LogicalType is = wanted.getTypeAt(wanted.getFieldIndex(key));
            if (!was.copy(true).equals(is.copy(true)) && !sameRepresentation(was, is)) {
                throw new IllegalArgumentException("Hive table " + id + " cannot change partition column '" + key
                        + "' from " + was.asSummaryString() + " to " + is.asSummaryString());
            }
        }
        List<FieldSchema> out = new ArrayList<>();
        Set<String> existing = new java.util.HashSet<>();
        for (FieldSchema col : table.getSd().getCols()) {
            existing.add(col.getName());
            int at = wanted.getFieldIndex(col.getName());
            if (at < 0) {
                if (!known.contains(col.getName())) {
                    out.add(col); // added by another subtask since this one looked
                    continue;
                }
                if (!format.equals("parquet")) {
                    throw new IllegalArgumentException("Hive table " + id + " cannot drop column '" + col.getName()
                            + "': its " + format + " files are read by position, so the columns after it would be"
                            + " read in its place (only Parquet tables, read by name, drop columns)");
                }
                continue; // dropped
            }
            LogicalType was = current.getTypeAt(current.getFieldIndex(col.getName()));
            LogicalType is = wanted.getTypeAt(at).copy(true);
            if (was.equals(is) || sameRepresentation(was, is)) {
                out.add(col); // a record's VARCHAR(8) writes to a STRING column as it is
            } else if (widens(was, is)) {
                if (format.equals("parquet")) {
                    throw new IllegalArgumentException("Hive table " + id + " cannot widen column '" + col.getName()
                            + "' from " + was.asSummaryString() + " to " + is.asSummaryString()
                            + ": Flink reads the column of a Parquet file only as the type it was written with");
                }
                out.add(new FieldSchema(col.getName(), hiveType(id, col.getName(), is), col.getComment()));
            } else {
                throw new IllegalArgumentException("Hive table " + id + " cannot change column '" + col.getName()
                        + "' from " + was.asSummaryString() + " to " + is.asSummaryString()
                        + " (Hive takes INT to BIGINT, FLOAT to DOUBLE and a wider DECIMAL)");
            }
        }
        for (RowType.RowField field : wanted.getFields()) {
            if (!existing.contains(field.getName()) && !keys.contains(field.getName())) {
                out.add(new FieldSchema(field.getName(), hiveType(id, field.getName(), field.getType()), null));
            }
        }
        return out;
    }

    /** Types whose values are alike, so the column keeps its own: strings of any length, bytes of any length. */
    private static boolean sameRepresentation(LogicalType a, LogicalType b) {
        for (org.apache.flink.table.types.logical.LogicalTypeFamily family : List.of(
                org.apache.flink.table.types.logical.LogicalTypeFamily.CHARACTER_STRING,
                org.apache.flink.table.types.logical.LogicalTypeFamily.BINARY_STRING)) {
            if (a.getTypeRoot().getFamilies().contains(family)
                    && b.getTypeRoot().getFamilies().contains(family)) {
                return true;
            }
        }
        return false;
    }

    private static boolean widens(LogicalType from, LogicalType to) {
        LogicalTypeRoot f = from.getTypeRoot();
        LogicalTypeRoot t = to.getTypeRoot();
        if (f == LogicalTypeRoot.INTEGER && t == LogicalTypeRoot.BIGINT) {
            return true;
        }
        if (f == LogicalTypeRoot.FLOAT && t == LogicalTypeRoot.DOUBLE) {
            return true;
        }
        if (f == LogicalTypeRoot.DECIMAL && t == LogicalTypeRoot.DECIMAL) {
            DecimalType a = (DecimalType) from;
            DecimalType b = (DecimalType) to;
            return b.getScale() == a.getScale() && b.getPrecision() >= a.getPrecision();
        }
        return false;
    }

    /** The partition columns of a spec: {@code identity(c)} transforms of columns of the schema only. */
    private static List<String> partitionKeys(String identifier, RowType schema, List<String> spec) {
        List<String> keys = new ArrayList<>();
        for (String transform : spec) {
            String t = transform.replace(" ", "");
            if (!(t.startsWith("identity(") && t.endsWith(")") && t.length() > "identity()".length())) {
                throw new IllegalArgumentException("Hive table " + identifier + " cannot be partitioned by '"
                        + PathNames.escape(transform) + "': Hive partitions by column values, so a spec holds"
                        + " identity(column) transforms only");
            }
            String column = t.substring("identity(".length(), t.length() - 1);
            if (schema.getFieldIndex(column) < 0) {
                throw new IllegalArgumentException("Hive table " + identifier + " cannot be partitioned by '"
                        + PathNames.escape(transform) + "': the record's schema has no column '"
                        + PathNames.escape(column) + "'");
            }
            keys.add(column);
        }
        return keys;
    }

    private static void checkColumnNames(String identifier, RowType schema) {
        for (String name : schema.getFieldNames()) {
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("Hive table " + identifier + " cannot take column '"
                        + PathNames.escape(name) + "': Hive's column names are lower-case letters, digits and '_'"
                        + " (the metastore keeps them in lower case)");
            }
        }
    }

    private static Column column(String identifier, String name, LogicalType type) {
        hiveType(identifier, name, type);
        return Column.physical(name, TypeConversions.fromLogicalToDataType(type.copy(true)));
    }

    private static String hiveType(String identifier, String name, LogicalType type) {
        try {
            return HiveTypeUtil.toHiveTypeInfo(TypeConversions.fromLogicalToDataType(type), true)
                    .getTypeName();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "Hive table " + identifier + " cannot take column '" + name + "' of type " + type.asSummaryString()
                            + ": " + e.getMessage(),
                    e);
        }
    }

    private TableState state(String identifier, Table table) {
        RowType schema = HiveTableInfo.columns(table);
        List<String> spec = new ArrayList<>();
        for (FieldSchema key : table.getPartitionKeys()) {
            spec.add("identity(" + key.getName() + ")");
        }
        List<String> data = new ArrayList<>();
        for (FieldSchema col : table.getSd().getCols()) {
            data.add(col.getName());
        }
        seen.put(identifier, data);
        return new TableState(identifier, Map.of(0, schema), 0, Map.of(0, spec), 0);
    }

    /**
     * The table's sink options: its database and table, its properties of the connector's option
     * families (as the hive catalog's tables have them), and unless the sink names other policies,
     * the {@code metastore} policy, which adds a partition as its files are committed.
     */
    @Override
    public Map<String, String> sinkOptions(
            String identifier,
            @Nullable String branch,
            List<String> spec,
            @Nullable Boolean upsert,
            List<String> equalityFields) {
        ObjectPath path = path(identifier);
        if (branch != null) {
            throw new IllegalArgumentException(
                    "Hive table " + identifier + " has no branches; a record names branch '" + branch + "'");
        }
        if (Boolean.TRUE.equals(upsert)) {
            throw new IllegalArgumentException("Hive table " + identifier + " takes appends only, not upserts");
        }
        Map<String, String> sink = new HashMap<>();
        try {
            Table table = catalog().getHiveTable(path);
            if (table.getParameters() != null) {
                table.getParameters().forEach((key, value) -> {
                    if (HiveTargetCatalogFactory.CONNECTOR_OPTION_FAMILIES.stream()
                            .anyMatch(key::startsWith)) {
                        sink.put(key, value);
                    }
                });
            }
        } catch (TableNotExistException e) {
            throw new IllegalStateException("Hive table " + identifier + " does not exist", e);
        }
        sink.put(HiveTargetOptions.CATALOG_NAME.key(), catalogName);
        sink.put(HiveTargetOptions.CATALOG_DATABASE.key(), path.getDatabaseName());
        sink.put(HiveTargetOptions.CATALOG_TABLE.key(), path.getObjectName());
        if (!options.containsKey(HiveTargetOptions.POLICY_KIND)) {
            sink.putIfAbsent(HiveTargetOptions.POLICY_KIND, DEFAULT_POLICY);
        }
        return sink;
    }

    private IMetaStoreClient client() throws Exception {
        return RetryingMetaStoreClient.getProxy(catalog().getHiveConf(), true);
    }

    @Override
    public synchronized void close() {
        if (catalog != null) {
            catalog.close();
            catalog = null;
        }
    }
}
