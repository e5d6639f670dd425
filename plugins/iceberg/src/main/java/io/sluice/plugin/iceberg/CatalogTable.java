package io.sluice.plugin.iceberg;

import io.sluice.spi.PathNames;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.util.LocationUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The Iceberg table a sink writes, with the catalog it was loaded from; closing it closes the
 * catalog (and with it the catalog's file IO).
 *
 * <p>Like Iceberg's own connector table, a sink creates its table when it is missing (and the
 * database with it), from the sink's Flink schema, with identity partitions on the sink's
 * partition keys and the sink's primary key as its identifier fields; {@code format-version} and
 * {@code write.upsert.enabled} become its properties, and a table created for upserts is format v2
 * unless asked otherwise. A table is created only after the statement has passed every check. A table that exists keeps its own schema and partition spec; the sink's rows must
 * be writable to that schema.
 */
final class CatalogTable implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CatalogTable.class);

    /** Iceberg's Hive catalog, named rather than linked: the plugin compiles without its module. */
    private static final String HIVE_CATALOG = "org.apache.iceberg.hive.HiveCatalog";

    private final Catalog catalog;
    private final TableIdentifier identifier;
    private final Table table;

    private CatalogTable(Catalog catalog, TableIdentifier identifier, Table table) {
        this.catalog = catalog;
        this.identifier = identifier;
        this.table = table;
    }

    /**
     * Loads the table the options name.
     *
     * @throws IllegalArgumentException if the catalog cannot be opened or has no such table
     */
    static CatalogTable load(ReadableConfig options) {
        TableIdentifier identifier = identifier(options); // before the catalog touches any directory
        Catalog catalog = IcebergCatalogs.open(options);
        try {
            return new CatalogTable(catalog, identifier, catalog.loadTable(identifier));
        } catch (NoSuchTableException e) {
            closeQuietly(catalog);
            throw new IllegalArgumentException(
                    "No Iceberg table '" + identifier + "' ('" + IcebergOptions.CATALOG_DATABASE.key() + "', '"
                            + IcebergOptions.CATALOG_TABLE.key() + "') in catalog '"
                            + options.get(IcebergOptions.CATALOG_NAME) + "'",
                    e);
        } catch (RuntimeException e) {
            closeQuietly(catalog);
            throw e;
        }
    }

    /**
     * Loads the table the options name, applies {@code action} to it and closes the catalog: what
     * a client-side check needs of a table.
     *
     * @throws IllegalArgumentException as {@link #load}, or if the catalog cannot be closed
     */
    static <T> T read(ReadableConfig options, Function<Table, T> action) {
        try (CatalogTable table = load(options)) {
            return action.apply(table.table());
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot close the Iceberg catalog: " + e.getMessage(), e);
        }
    }

    /**
     * As {@link #read}, for a table that may not exist yet (a sink creates it when it is planned):
     * empty then.
     */
    static <T> java.util.Optional<T> readIfExists(ReadableConfig options, Function<Table, T> action) {
        TableIdentifier identifier = identifier(options);
        Catalog catalog = IcebergCatalogs.open(options);
        try {
            if (!catalog.tableExists(identifier)) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(action.apply(catalog.loadTable(identifier)));
        } finally {
            closeQuietly(catalog);
        }
    }

    /**
     * Loads the table the options name, or stages its creation from {@code rowType} if it is
     * missing; checks that rows of {@code rowType} can be written to it and applies {@code check}
     * to it (the write options' checks), and only then creates a missing table (and its database):
     * a statement that any check rejects leaves the catalog as it was.
     *
     * @throws IllegalArgumentException naming the option and value at fault, or the columns that
     *     do not fit the table's schema, or whatever {@code check} throws
     */
    static <T> T loadOrCreate(
            ReadableConfig options,
            RowType rowType,
            List<String> partitionKeys,
            List<String> primaryKey,
            Function<Table, T> check) {
        TableIdentifier identifier = identifier(options); // before the catalog touches any directory
        Catalog catalog = IcebergCatalogs.open(options);
        try {
            Table existing = null;
            try {
                existing = catalog.loadTable(identifier);
            } catch (NoSuchTableException missing) {
                // staged below
            }
            if (existing != null) {
                WriteSchemas.checkWritable(existing, rowType);
                return check.apply(existing);
            }
            Transaction create = stageCreate(catalog, identifier, rowType, partitionKeys, primaryKey, options);
            T result;
            try {
                WriteSchemas.checkWritable(create.table(), rowType);
                result = check.apply(create.table());
            } catch (IllegalArgumentException e) {
                // a staged table is named without its catalog: name it as the created one would be
                String staged = "'" + create.table().name() + "'";
                String named = "'" + catalog.name() + "." + identifier + "'";
                throw staged.equals(named)
                        ? e
                        : new IllegalArgumentException(
                                String.valueOf(e.getMessage()).replace(staged, named), e);
            }
            createNamespace(catalog, identifier);
            try {
                create.commitTransaction();
            } catch (AlreadyExistsException concurrentlyCreated) {
                // another client got there first: its table must pass the same checks
                Table table = catalog.loadTable(identifier);
                WriteSchemas.checkWritable(table, rowType);
                return check.apply(table);
            }
            return result;
        } finally {
            closeQuietly(catalog);
        }
    }

    /**
     * The table the options name. Database and table must each be one path segment ({@link
     * PathNames#checkName}): a Hadoop catalog makes {@code <warehouse>/<database>/<table>} of them
     * (and Hive and REST catalogs default table locations the same way), so {@code ..} or {@code
     * a/b} would create and write tables outside the warehouse.
     */
    static TableIdentifier identifier(ReadableConfig options) {
        String database = options.get(IcebergOptions.CATALOG_DATABASE);
        String table = options.getOptional(IcebergOptions.CATALOG_TABLE)
                .orElseThrow(() -> new IllegalArgumentException(
                        "Missing required option '" + IcebergOptions.CATALOG_TABLE.key() + "'"));
        PathNames.checkName(IcebergOptions.CATALOG_DATABASE.key(), database);
        PathNames.checkName(IcebergOptions.CATALOG_TABLE.key(), table);
        List<String> levels = new ArrayList<>();
        // a catalog's base namespace: its tables' databases are namespaces below it
        String base = options.getOptional(IcebergOptions.BASE_NAMESPACE).orElse("");
        for (String level : base.isEmpty() ? new String[0] : base.split("\\.", -1)) {
            PathNames.checkName(IcebergOptions.BASE_NAMESPACE.key(), level);
            levels.add(level);
        }
        levels.add(database);
        return TableIdentifier.of(Namespace.of(levels.toArray(new String[0])), table);
    }

    static void createNamespace(Catalog catalog, TableIdentifier identifier) {
        if (catalog instanceof SupportsNamespaces) {
            SupportsNamespaces namespaces = (SupportsNamespaces) catalog;
            if (!namespaces.namespaceExists(identifier.namespace())) {
                if (HIVE_CATALOG.equals(catalog.getClass().getName()) && catalog instanceof Configurable) {
                    makeDatabaseDirectory(((Configurable) catalog).getConf(), identifier.namespace());
                }
                try {
                    namespaces.createNamespace(identifier.namespace());
                } catch (AlreadyExistsException concurrentlyCreated) {
                    // another client got there first: just as good
                }
            }
        }
    }

    /**
     * Makes the directory a Hive metastore gives a new database of {@code catalog}, before the
     * database is created. The metastore creates that directory itself, and deletes it, with
     * everything in it, when a create that made it fails; of two clients creating one database at
     * once (the dynamic sink's routers, two jobs) both can find the directory missing and make it,
     * and the one that loses the race then deletes the directory after the winner's table went
     * into it: the table stays in the metastore with its metadata file gone, and every later load
     * fails. A directory that is there before the create is never deleted. Only where the catalog
     * names a warehouse (else the metastore's own decides); failing here is left to the create.
     */
    private static void makeDatabaseDirectory(Configuration conf, Namespace namespace) {
        String warehouse = conf == null ? null : conf.get("hive.metastore.warehouse.dir");
        if (warehouse == null || warehouse.isBlank() || namespace.isEmpty()) {
            return;
        }
        Path directory = new Path(LocationUtil.stripTrailingSlash(warehouse) + "/" + namespace.level(0) + ".db");
        try {
            directory.getFileSystem(conf).mkdirs(directory);
        } catch (IOException | RuntimeException e) {
            LOG.debug("Could not make the directory {} of database {} before creating it", directory, namespace, e);
        }
    }

    /** A create transaction: the new table as an object to check, in the catalog only once committed. */
    private static Transaction stageCreate(
            Catalog catalog,
            TableIdentifier identifier,
            RowType rowType,
            List<String> partitionKeys,
            List<String> primaryKey,
            ReadableConfig options) {
        Schema schema = schema(identifier, rowType, primaryKey);
        PartitionSpec.Builder spec = PartitionSpec.builderFor(schema);
        for (String key : partitionKeys) {
            try {
                spec.identity(key);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "Cannot partition new Iceberg table '" + identifier + "' by '" + key + "': " + e.getMessage(),
                        e);
            }
        }
        Map<String, String> properties = new HashMap<>();
        options.getOptional(IcebergOptions.FORMAT_VERSION)
                .ifPresent(v -> properties.put(TableProperties.FORMAT_VERSION, String.valueOf(v)));
        options.getOptional(IcebergOptions.TABLE_UPSERT_ENABLED)
                .ifPresent(v -> properties.put(TableProperties.UPSERT_ENABLED, String.valueOf(v)));
        boolean upsert = options.getOptional(IcebergOptions.UPSERT_ENABLED)
                .orElse(options.getOptional(IcebergOptions.TABLE_UPSERT_ENABLED).orElse(false));
        if (upsert) {
            // equality deletes need v2; whatever Iceberg's default is, an upsert table gets it
            properties.putIfAbsent(TableProperties.FORMAT_VERSION, "2");
        }
        try {
            try {
                return catalog.buildTable(identifier, schema)
                        .withPartitionSpec(spec.build())
                        .withProperties(properties)
                        .createTransaction();
            } catch (NoSuchNamespaceException missingDatabase) {
                // a REST catalog stages a table only in a database that exists; Hadoop and Hive
                // catalogs do not need it before the commit
                createNamespace(catalog, identifier);
                return catalog.buildTable(identifier, schema)
                        .withPartitionSpec(spec.build())
                        .withProperties(properties)
                        .createTransaction();
            }
        } catch (AlreadyExistsException concurrentlyCreated) {
            throw new IllegalArgumentException(
                    "Iceberg table '" + identifier + "' was created while this statement was"
                            + " planned; run it again",
                    concurrentlyCreated);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Cannot create Iceberg table '" + identifier + "': " + e.getMessage(), e);
        }
    }

    /** The table schema of {@code rowType}, with the primary key's columns as identifier fields. */
    static Schema schema(TableIdentifier identifier, RowType rowType, List<String> primaryKey) {
        ResolvedSchema columns = FlinkSchemaUtil.toResolvedSchema(rowType);
        if (primaryKey.isEmpty()) {
            return FlinkSchemaUtil.convert(columns);
        }
        try {
            return FlinkSchemaUtil.convert(new ResolvedSchema(
                    columns.getColumns(),
                    Collections.emptyList(),
                    UniqueConstraint.primaryKey("PK_" + identifier.name(), primaryKey)));
        } catch (RuntimeException e) {
            // Iceberg checks that the key's columns exist and are NOT NULL
            throw new IllegalArgumentException(
                    "Cannot create Iceberg table '" + identifier + "' with primary key " + primaryKey
                            + " as identifier fields: " + e.getMessage(),
                    e);
        }
    }

    /** The table, as loaded; {@link Table#refresh()} brings it up to date. */
    Table table() {
        return table;
    }

    /** The table's identifier in its catalog. */
    TableIdentifier identifier() {
        return identifier;
    }

    @Override
    public void close() throws IOException {
        if (catalog instanceof Closeable) {
            ((Closeable) catalog).close();
        }
    }

    static void closeQuietly(Catalog catalog) {
        if (catalog instanceof Closeable) {
            try {
                ((Closeable) catalog).close();
            } catch (IOException | RuntimeException ignored) {
                // already failing with a better message
            }
        }
    }
}
