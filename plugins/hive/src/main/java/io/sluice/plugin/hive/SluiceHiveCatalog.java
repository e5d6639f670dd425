package io.sluice.plugin.hive;

import io.sluice.spi.PathNames;

import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.CatalogView;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedCatalogView;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionSpecInvalidException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.flink.table.catalog.hive.HiveCatalog;
import org.apache.flink.table.catalog.hive.client.HiveShim;
import org.apache.flink.table.catalog.hive.client.HiveShimLoader;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.TableType;
import org.apache.hadoop.hive.metastore.api.AlreadyExistsException;
import org.apache.thrift.TException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Upstream's {@link HiveCatalog} for Hive tables only. Upstream keeps a table created in Flink's
 * default dialect without {@code 'connector' = 'hive'} as a "generic" table: Flink properties in
 * the metastore that Hive cannot read. Every table of a Sluice hive catalog is written by the
 * {@code hive} target as a Hive table, so a table without a connector becomes a Hive table, and a
 * table with another connector is refused.
 *
 * <p>Tables and views are created, altered and read by the plugin ({@link MetastoreTables}),
 * storing what upstream stores: upstream's table path does not link on Flink 2.
 */
final class SluiceHiveCatalog extends HiveCatalog {

    static final String CONNECTOR = "connector";
    static final String HIVE = "hive";

    /** Upstream's option of its Hive dialect's {@code ALTER TABLE}, which Sluice does not speak. */
    private static final String ALTER_TABLE_OP = "alter.table.op";

    /** The metastore client of the table path, opened on first use, closed with the catalog. */
    private IMetaStoreClient tablesClient;

    private MetastoreTables tables;

    SluiceHiveCatalog(String name, String defaultDatabase, HiveConf conf, String hiveVersion, boolean embedded) {
        super(name, defaultDatabase, conf, hiveVersion, embedded);
    }

    /**
     * Upstream's message for a metastore it cannot reach ("Failed to create Hive Metastore client",
     * the thrift error below it) names no metastore: this one names the URIs it tried and where
     * they came from.
     */
    @Override
    public void open() throws CatalogException {
        try {
            super.open();
        } catch (CatalogException | IllegalStateException e) {
            String uris = getHiveConf().getVar(HiveConf.ConfVars.METASTOREURIS);
            if (uris == null || uris.trim().isEmpty()) {
                throw e; // embedded: no metastore to reach, upstream's message names the database
            }
            Throwable innermost = e;
            while (innermost.getCause() != null && innermost.getCause() != innermost) {
                innermost = innermost.getCause();
            }
            throw new CatalogException(
                    "Cannot reach the Hive metastore at " + uris + " ('" + HiveConf.ConfVars.METASTOREURIS.varname
                            + "' of the catalog's hive-site.xml) for hive catalog '" + getName() + "': "
                            + innermost.getClass().getSimpleName() + ": " + innermost.getMessage(),
                    e);
        }
    }

    @Override
    public void close() throws CatalogException {
        try {
            if (tablesClient != null) {
                tablesClient.close();
            }
        } finally {
            tablesClient = null;
            tables = null;
            super.close();
        }
    }

    private MetastoreTables tables() {
        if (tables == null) {
            HiveShim shim = HiveShimLoader.loadHiveShim(getHiveVersion());
            tablesClient = shim.getHiveMetastoreClient(getHiveConf());
            tables = new MetastoreTables(tablesClient, getHiveConf(), shim);
        }
        return tables;
    }

    /** A view whose query Flink cannot parse is read as an error naming it (see {@link UnparseableView}). */
    @Override
    public CatalogBaseTable getTable(ObjectPath tablePath) throws TableNotExistException, CatalogException {
        org.apache.hadoop.hive.metastore.api.Table hiveTable = getHiveTable(tablePath);
        CatalogBaseTable table = tables().flinkTable(hiveTable);
        if (table instanceof CatalogView) {
            return UnparseableView.check(
                    getName(), tablePath.getDatabaseName(), tablePath.getObjectName(), (CatalogView) table);
        }
        if (table instanceof CatalogTable
                && HIVE.equalsIgnoreCase(table.getOptions().get(CONNECTOR))) {
            // the storage format and SerDe are in the storage descriptor, not in the properties
            // upstream hands out: without them SHOW CREATE TABLE would make a TextFile table
            Map<String, String> options = new LinkedHashMap<>(table.getOptions());
            options.putAll(HiveTableDefinition.storage(hiveTable));
            // where the files are, under Flink's key for it: bin/sluice lists what an INSERT
            // committed there; not one of the Sluice table's options (HiveTargetCatalogFactory)
            if (hiveTable.getSd() != null && hiveTable.getSd().getLocation() != null) {
                options.put(HiveTableDefinition.LOCATION, hiveTable.getSd().getLocation());
            }
            return ((CatalogTable) table).copy(options);
        }
        return table;
    }

    /**
     * A Hive table, not a view nor a table Flink stored as a "generic" one: {@code
     * HiveCatalog#getHiveTable} marks a Hive table with {@code 'connector' = 'hive'}.
     */
    private static boolean holdsHiveTable(org.apache.hadoop.hive.metastore.api.Table hiveTable) {
        return !TableType.VIRTUAL_VIEW.name().equals(hiveTable.getTableType())
                && HIVE.equalsIgnoreCase(hiveTable.getParameters().get(CONNECTOR));
    }

    /** Where upstream's Hive catalog keeps a table's {@code LOCATION}. */
    private static final String LOCATION_URI = "hive.location-uri";

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath tablePath)
            throws TableNotExistException, TableNotPartitionedException, CatalogException {
        return inKeyOrder(tablePath, super.listPartitions(tablePath));
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws TableNotExistException, TableNotPartitionedException, PartitionSpecInvalidException,
                    CatalogException {
        return inKeyOrder(tablePath, super.listPartitions(tablePath, partitionSpec));
    }

    /**
     * The partitions the planner asks for with the query's filters on partition columns (a bounded
     * read of a table of this catalog, {@code HiveScanSourceFactory#catalogListsPartitions}): the
     * metastore filters them when every filter is an equality of string columns ({@link
     * MetastorePartitionFilter}), and the answer is checked again here, so it is exact. Other
     * filters are refused: the planner then lists every partition ({@link #listPartitions}) and
     * evaluates them itself.
     */
    @Override
    public List<CatalogPartitionSpec> listPartitionsByFilter(
            ObjectPath tablePath, List<org.apache.flink.table.expressions.Expression> filters)
            throws TableNotExistException, TableNotPartitionedException, CatalogException {
        org.apache.hadoop.hive.metastore.api.Table hiveTable = getHiveTable(tablePath);
        List<org.apache.hadoop.hive.metastore.api.FieldSchema> keys = hiveTable.getPartitionKeys();
        if (keys == null || keys.isEmpty()) {
            throw new TableNotPartitionedException(getName(), tablePath);
        }
        Map<String, String> keyTypes = new LinkedHashMap<>();
        for (org.apache.hadoop.hive.metastore.api.FieldSchema key : keys) {
            keyTypes.put(key.getName(), key.getType());
        }
        MetastorePartitionFilter filter = MetastorePartitionFilter.of(keyTypes, filters)
                .orElseThrow(() -> new UnsupportedOperationException(
                        "The metastore cannot evaluate these partition filters: " + filters));
        List<org.apache.hadoop.hive.metastore.api.Partition> partitions;
        try {
            tables(); // opens the client
            partitions = tablesClient.listPartitionsByFilter(
                    tablePath.getDatabaseName(), tablePath.getObjectName(), filter.expression(), (short) -1);
        } catch (org.apache.thrift.TException e) {
            throw new CatalogException(
                    "Cannot list the partitions of " + tablePath.getFullName() + " where " + filter.expression() + ": "
                            + e.getMessage(),
                    e);
        }
        List<CatalogPartitionSpec> specs = new ArrayList<>(partitions.size());
        for (org.apache.hadoop.hive.metastore.api.Partition partition : partitions) {
            Map<String, String> values = new LinkedHashMap<>();
            for (int i = 0; i < keys.size(); i++) {
                values.put(keys.get(i).getName(), partition.getValues().get(i));
            }
            if (filter.matches(values)) {
                specs.add(new CatalogPartitionSpec(values));
            }
        }
        return specs;
    }

    /**
     * Upstream's specs are hash maps with the default partition as {@code null}: SHOW PARTITIONS
     * printed {@code hour=14/day=2022-08-08} for {@code PARTITIONED BY (day, hour)} and {@code
     * dt=null} for the partition whose rows SELECT reads as {@code __HIVE_DEFAULT_PARTITION__}
     * (upstream's reader, and Hive's, for a string column). These are in the table's key order,
     * with Hive's name of the default partition, as Hive's own SHOW PARTITIONS prints them.
     */
    private List<CatalogPartitionSpec> inKeyOrder(ObjectPath tablePath, List<CatalogPartitionSpec> specs)
            throws TableNotExistException {
        List<String> keys = new ArrayList<>();
        for (org.apache.hadoop.hive.metastore.api.FieldSchema key :
                getHiveTable(tablePath).getPartitionKeys()) {
            keys.add(key.getName());
        }
        String defaultName = getHiveConf().getVar(HiveConf.ConfVars.DEFAULTPARTITIONNAME);
        List<CatalogPartitionSpec> ordered = new ArrayList<>(specs.size());
        for (CatalogPartitionSpec spec : specs) {
            Map<String, String> values = new LinkedHashMap<>();
            for (String key : keys) {
                if (spec.getPartitionSpec().containsKey(key)) {
                    String value = spec.getPartitionSpec().get(key);
                    values.put(key, value == null ? defaultName : value);
                }
            }
            spec.getPartitionSpec().forEach(values::putIfAbsent);
            ordered.add(new CatalogPartitionSpec(values));
        }
        return ordered;
    }

    @Override
    public void createTable(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException, CatalogException {
        boolean view = table.getTableKind() == CatalogBaseTable.TableKind.VIEW;
        ResolvedCatalogTable hiveTable = view ? null : asHiveTable(tablePath, table);
        if (!databaseExists(tablePath.getDatabaseName())) {
            throw new DatabaseNotExistException(getName(), tablePath.getDatabaseName());
        }
        try {
            if (view) {
                tables().createView(tablePath, resolvedView(tablePath, table));
            } else {
                tables().create(tablePath, hiveTable);
            }
        } catch (AlreadyExistsException e) {
            if (!ignoreIfExists) {
                throw new TableAlreadyExistException(getName(), tablePath, e);
            }
        } catch (TException e) {
            throw withoutFileSystem(
                    new CatalogException("Failed to create table " + tablePath.getFullName(), e),
                    "table " + tablePath.getFullName());
        }
    }

    /**
     * {@code ALTER TABLE} hands back the table as this catalog's reader gave it: with the Sluice
     * options a job runs with and the table's properties under {@link
     * HiveTableDefinition#TABLE_PROPERTY_PREFIX}. Written as they are, the metastore would keep the
     * Sluice options as table properties and every ALTER would prefix the properties once more
     * ({@code hive.table.property.hive.table.property.x}); they go back as {@link #createTable}
     * writes them, so the round trip is stable.
     */
    @Override
    public void alterTable(ObjectPath tablePath, CatalogBaseTable newTable, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        org.apache.hadoop.hive.metastore.api.Table existing;
        try {
            existing = getHiveTable(tablePath);
        } catch (TableNotExistException e) {
            if (!ignoreIfNotExists) {
                throw e;
            }
            return;
        }
        boolean existingView = TableType.VIRTUAL_VIEW.name().equals(existing.getTableType());
        boolean view = newTable.getTableKind() == CatalogBaseTable.TableKind.VIEW;
        if (existingView != view) {
            throw new CatalogException("Table types don't match. Existing table is '"
                    + (existingView ? "VIEW" : "TABLE") + "' and new table is '" + newTable.getTableKind() + "'.");
        }
        if (view) {
            try {
                tables().alterView(tablePath, resolvedView(tablePath, newTable), existing);
            } catch (TException e) {
                throw new CatalogException("Failed to alter view " + tablePath.getFullName(), e);
            }
            return;
        }
        if (!holdsHiveTable(existing)) {
            throw new CatalogException("Table " + tablePath.getFullName() + " of hive catalog '" + getName()
                    + "' is a Flink \"generic\" table (stored by upstream's HiveCatalog for another connector):"
                    + " a hive catalog alters Hive tables only");
        }
        if (newTable.getOptions().containsKey(ALTER_TABLE_OP)) {
            throw new CatalogException("Table " + tablePath.getFullName() + " of hive catalog '" + getName() + "': '"
                    + ALTER_TABLE_OP + "' is an option of upstream's Hive dialect, which a hive catalog of Sluice"
                    + " does not run; alter the table with Flink's ALTER TABLE");
        }
        try {
            tables().alter(tablePath, asHiveTable(tablePath, newTable), existing);
        } catch (TException e) {
            throw new CatalogException("Failed to alter table " + tablePath.getFullName(), e);
        }
    }

    /**
     * {@code ALTER TABLE ... RESET ('owner.team')} names a property as {@code SET} does, while the
     * table this catalog read shows it as {@code hive.table.property.owner.team}: Flink removes
     * the key it was given, which is not there, and the property stayed. A reset plain key
     * removes the prefixed one as well.
     */
    @Override
    public void alterTable(
            ObjectPath tablePath, CatalogBaseTable newTable, List<TableChange> changes, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        CatalogBaseTable table = newTable;
        if (newTable instanceof CatalogTable) {
            Map<String, String> options = new HashMap<>(newTable.getOptions());
            for (TableChange change : changes) {
                if (change instanceof TableChange.ResetOption) {
                    options.remove(
                            HiveTableDefinition.TABLE_PROPERTY_PREFIX + ((TableChange.ResetOption) change).getKey());
                }
            }
            table = ((CatalogTable) newTable).copy(options);
        }
        alterTable(tablePath, table, ignoreIfNotExists);
    }

    @Override
    public void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists)
            throws DatabaseAlreadyExistException, CatalogException {
        try {
            super.createDatabase(name, database, ignoreIfExists);
        } catch (CatalogException e) {
            throw withoutFileSystem(e, "database " + name);
        }
    }

    /** Hadoop 3's and 2's wording: {@code No FileSystem for scheme "s3"}, {@code ... scheme: s3}. */
    private static final Pattern S3_SCHEME_MISSING = Pattern.compile("No FileSystem for scheme:? \"?s3(?![a-z0-9])");

    /**
     * A remote metastore makes and checks the directories of databases, tables and partitions
     * with its own Hadoop, which may have no file system for the location's scheme (Hive's
     * ships none for {@code s3a://}): upstream's message is the metastore's {@code MetaException}
     * ("Class org.apache.hadoop.fs.s3a.S3AFileSystem not found", "No FileSystem for scheme").
     * This one says whose Hadoop lacks it and what to give it; other failures stay as they are.
     */
    private CatalogException withoutFileSystem(CatalogException e, String what) {
        String uris = getHiveConf().getVar(HiveConf.ConfVars.METASTOREURIS);
        if (uris == null || uris.trim().isEmpty()) {
            return e; // embedded: the plugin's own Hadoop, which reaches object stores through Flink
        }
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            if (message.contains("No FileSystem for scheme")
                    || (message.contains("ClassNotFoundException") && message.contains("org.apache.hadoop.fs."))) {
                return new CatalogException(
                        "The Hive metastore at " + uris + " cannot create " + what + " of hive catalog '"
                                + getName() + "': its own Hadoop has no file system for the location ("
                                + message.trim() + "). A remote metastore makes and checks the directories of "
                                + "databases, tables and partitions itself: give the metastore's process the file"
                                + " system and its settings (for s3a://: hadoop-aws and the AWS SDK it was built"
                                + " with on its class path, fs.s3a.* keys in its hive-site.xml or core-site.xml)"
                                + (S3_SCHEME_MISSING.matcher(message).find()
                                        // Hadoop maps no class to s3:// (S3A serves it only when told)
                                        ? "; for s3://: S3A as for s3a:// and fs.s3.impl ="
                                                + " org.apache.hadoop.fs.s3a.S3AFileSystem in the same file"
                                        : ""),
                        e);
            }
        }
        return e;
    }

    private ResolvedCatalogView resolvedView(ObjectPath path, CatalogBaseTable view) {
        if (!(view instanceof ResolvedCatalogView)) {
            throw new CatalogException("View " + path.getFullName() + " of hive catalog '" + getName()
                    + "' was not resolved by the planner (" + view.getClass().getName() + ")");
        }
        return (ResolvedCatalogView) view;
    }

    private ResolvedCatalogTable asHiveTable(ObjectPath path, CatalogBaseTable table) {
        String connector = table.getOptions().get(CONNECTOR);
        if (connector != null && !HIVE.equalsIgnoreCase(connector)) {
            throw new CatalogException("Table " + path.getFullName() + " of hive catalog '" + getName() + "' has '"
                    + CONNECTOR + "' = '" + connector + "': a hive catalog holds Hive tables only (leave '"
                    + CONNECTOR + "' out); create tables of other connectors in another catalog");
        }
        // the DDL SHOW CREATE TABLE prints: the options a Sluice table of this catalog runs with
        // are not the table's properties, and its table properties carry a prefix
        Map<String, String> options = new HashMap<>();
        Map<String, String> plain = new HashMap<>();
        table.getOptions().forEach((key, value) -> {
            if (key.startsWith(HiveTableDefinition.TABLE_PROPERTY_PREFIX)) {
                options.put(key.substring(HiveTableDefinition.TABLE_PROPERTY_PREFIX.length()), value);
            } else if (!isSluiceOption(key)) {
                plain.put(key, value);
            }
        });
        // a property named without the prefix was set by the statement (ALTER TABLE ... SET
        // ('owner.team' = ...)) over the prefixed one the catalog read
        options.putAll(plain);
        options.put(CONNECTOR, HIVE);
        String location = options.get(LOCATION_URI);
        if (location != null) {
            try {
                // the table's files go there, by CREATE TABLE or ALTER TABLE ... SET: checked as
                // 'path' and 'warehouse' are
                PathNames.checkBaseDirectory(LOCATION_URI, location);
            } catch (IllegalArgumentException e) {
                throw new CatalogException(
                        "Table " + path.getFullName() + " of hive catalog '" + getName() + "': " + e.getMessage(), e);
            }
        }
        return ((ResolvedCatalogTable) table).copy(options);
    }

    /**
     * The options the framework gives a table of this catalog at run time (the target, the plugin
     * settings, the catalog's options, which table): never a property of the Hive table.
     */
    private static boolean isSluiceOption(String key) {
        return key.equals("target")
                || key.startsWith("sluice.")
                || key.equals(HiveTargetOptions.CATALOG_NAME.key())
                || key.equals(HiveTargetOptions.CATALOG_DATABASE.key())
                || key.equals(HiveTargetOptions.CATALOG_TABLE.key())
                || HiveCatalogOptions.ALL.stream().anyMatch(o -> o.key().equals(key));
    }
}
