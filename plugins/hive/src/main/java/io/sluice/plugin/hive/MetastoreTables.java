package io.sluice.plugin.hive;

import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogPropertiesUtil;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.CatalogView;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedCatalogView;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.hive.client.HiveShim;
import org.apache.flink.table.catalog.hive.util.HiveTableUtil;
import org.apache.flink.table.catalog.hive.util.HiveTypeUtil;
import org.apache.flink.table.types.DataType;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.TableType;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.NotNullConstraintsRequest;
import org.apache.hadoop.hive.metastore.api.PrimaryKeysRequest;
import org.apache.hadoop.hive.metastore.api.SQLNotNullConstraint;
import org.apache.hadoop.hive.metastore.api.SQLPrimaryKey;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.hive.metastore.utils.MetaStoreUtils;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfoUtils;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tables and views of a hive catalog as the metastore keeps them, written and read as upstream's
 * {@code HiveCatalog} (flink-connector-hive 3.0) does, so that either catalog reads what the other
 * wrote: a table's columns in the storage descriptor and its partition keys as Hive types, the
 * storage format, SerDe, location and {@code EXTERNAL} from upstream's {@code CREATE TABLE ... WITH}
 * keys ({@link HiveTableDefinition}), the comment and the remaining options as table properties,
 * the primary key and NOT NULL columns as the metastore's constraints; a view's queries, and its
 * schema as Flink's properties.
 *
 * <p>The plugin's own code rather than upstream's: upstream's table path links against Flink 1.20
 * classes that Flink 2 removed ({@code ManagedTableListener}, the legacy {@code UniqueConstraint},
 * {@code CatalogTable.of}). The storage descriptor is still made by upstream's public helpers of
 * {@code HiveTableUtil}, which link on both lines, so that the bytes in the metastore stay upstream's.
 */
final class MetastoreTables {

    /** Upstream's table property of a table's comment. */
    static final String COMMENT = "comment";

    /** Upstream's key of an external table among the create keys. */
    static final String IS_EXTERNAL = "hive.is-external";

    /**
     * Upstream's keys of the constraints as its Hive dialect passes them: which columns are NOT
     * NULL, and the traits (ENABLE, VALIDATE, RELY) of the primary key and each NOT NULL.
     */
    private static final String NOT_NULL_COLUMNS = "hive.not.null.cols";

    private static final String PRIMARY_KEY_TRAIT = "hive.pk.constraint.trait";
    private static final String NOT_NULL_TRAITS = "hive.not.null.constraint.traits";
    private static final String TRAIT_DELIMITER = ";";

    /**
     * How upstream marks what Flink stored for itself: a view's (and a "generic" table's)
     * properties carry this prefix, and the table {@link #IS_GENERIC}.
     */
    private static final String FLINK_PROPERTY_PREFIX = "flink.";

    private static final String IS_GENERIC = "is_generic";

    /** Flink's keys of a schema among a view's properties ({@code CatalogPropertiesUtil}'s). */
    private static final String SCHEMA = "schema.";

    /** Where tables stored by Flink 1.10 kept their schema; upstream still reads it. */
    private static final String OLD_SCHEMA = "generic.table.schema";

    /** Upstream's encoding of a constraint's traits in one byte. */
    private static final byte ENABLE = 1 << 2;

    private static final byte VALIDATE = 1 << 1;
    private static final byte RELY = 1;
    /** What upstream gives a constraint the statement says nothing about. */
    private static final byte DEFAULT_TRAIT = ENABLE | RELY;

    private final IMetaStoreClient client;
    private final HiveConf conf;
    private final HiveShim shim;

    MetastoreTables(IMetaStoreClient client, HiveConf conf, HiveShim shim) {
        this.client = client;
        this.conf = conf;
        this.shim = shim;
    }

    /**
     * Creates the Hive table for {@code table} ({@code 'connector' = 'hive'} among its options),
     * with its primary key and NOT NULL columns as constraints when it has any.
     *
     * @throws org.apache.hadoop.hive.metastore.api.AlreadyExistsException if the table exists
     */
    void create(ObjectPath path, ResolvedCatalogTable table) throws TException {
        Table hiveTable = hiveTable(path, table);
        Map<String, String> parameters = hiveTable.getParameters();
        ResolvedSchema schema = table.getResolvedSchema();
        UniqueConstraint primaryKey = schema.getPrimaryKey().orElse(null);
        List<String> notNull = new ArrayList<>();
        String notNullGiven = parameters.remove(NOT_NULL_COLUMNS);
        if (notNullGiven != null) {
            notNull.addAll(Arrays.asList(notNullGiven.split(TRAIT_DELIMITER)));
        } else {
            for (Column column : schema.getColumns()) {
                if (!column.getDataType().getLogicalType().isNullable()) {
                    notNull.add(column.getName());
                }
            }
        }
        parameters.remove(SluiceHiveCatalog.CONNECTOR); // a Hive table says so by having none
        if (primaryKey == null && notNull.isEmpty()) {
            client.createTable(hiveTable);
            return;
        }
        String keyTraitGiven = parameters.remove(PRIMARY_KEY_TRAIT);
        byte keyTrait = keyTraitGiven == null ? DEFAULT_TRAIT : Byte.parseByte(keyTraitGiven);
        List<SQLPrimaryKey> keys = new ArrayList<>();
        if (primaryKey != null) {
            List<String> columns = primaryKey.getColumns();
            for (int i = 0; i < columns.size(); i++) {
                keys.add(new SQLPrimaryKey(
                        hiveTable.getDbName(),
                        hiveTable.getTableName(),
                        columns.get(i),
                        i + 1,
                        primaryKey.getName(),
                        (keyTrait & ENABLE) != 0,
                        (keyTrait & VALIDATE) != 0,
                        (keyTrait & RELY) != 0));
            }
        }
        List<Byte> notNullTraits = new ArrayList<>();
        String notNullTraitsGiven = parameters.remove(NOT_NULL_TRAITS);
        if (notNullTraitsGiven != null) {
            String[] traits = notNullTraitsGiven.split(TRAIT_DELIMITER);
            if (traits.length != notNull.size()) {
                throw new CatalogException("Table " + path.getFullName() + ": '" + NOT_NULL_TRAITS + "' has "
                        + traits.length + " traits for " + notNull.size() + " NOT NULL columns " + notNull);
            }
            for (String trait : traits) {
                notNullTraits.add(Byte.parseByte(trait));
            }
        } else {
            notNullTraits.addAll(Collections.nCopies(notNull.size(), DEFAULT_TRAIT));
        }
        String catalog = MetaStoreUtils.getDefaultCatalog(conf);
        List<SQLNotNullConstraint> notNulls = new ArrayList<>();
        for (int i = 0; i < notNull.size(); i++) {
            byte trait = notNullTraits.get(i);
            notNulls.add(new SQLNotNullConstraint(
                    catalog,
                    hiveTable.getDbName(),
                    hiveTable.getTableName(),
                    notNull.get(i),
                    null,
                    (trait & ENABLE) != 0,
                    (trait & VALIDATE) != 0,
                    (trait & RELY) != 0));
        }
        client.createTableWithConstraints(
                hiveTable,
                keys,
                Collections.emptyList(),
                Collections.emptyList(),
                notNulls,
                Collections.emptyList(),
                Collections.emptyList());
    }

    /**
     * Replaces the definition of the Hive table at {@code path} ({@code existing}, as the metastore
     * has it) with {@code table}'s: the constraints stay as they are, as upstream leaves them; a
     * table given without a location keeps its own.
     */
    void alter(ObjectPath path, ResolvedCatalogTable table, Table existing) throws TException {
        Table hiveTable = hiveTable(path, table);
        if (!hiveTable.getSd().isSetLocation()) {
            hiveTable.getSd().setLocation(existing.getSd().getLocation());
        }
        hiveTable.getParameters().remove(SluiceHiveCatalog.CONNECTOR);
        shim.alterTable(client, path.getDatabaseName(), path.getObjectName(), hiveTable);
    }

    /**
     * Creates the view as upstream stores one: Hive's empty table of type {@code VIRTUAL_VIEW}
     * with the original and expanded query, its columns as Hive types where Hive has them, and
     * Flink's schema, comment and options as {@code flink.}-prefixed properties with {@code
     * is_generic} (Hive cannot run Flink's expanded query, and the schema need not map to Hive's).
     */
    void createView(ObjectPath path, ResolvedCatalogView view) throws TException {
        client.createTable(hiveView(path, view));
    }

    /** Replaces the view at {@code path} with {@code view}, as upstream does. */
    void alterView(ObjectPath path, ResolvedCatalogView view, Table existing) throws TException {
        Table hiveTable = hiveView(path, view);
        if (!hiveTable.getSd().isSetLocation() && existing.getSd() != null) {
            hiveTable.getSd().setLocation(existing.getSd().getLocation());
        }
        shim.alterTable(client, path.getDatabaseName(), path.getObjectName(), hiveTable);
    }

    private Table hiveView(ObjectPath path, ResolvedCatalogView view) {
        Table hiveTable =
                org.apache.hadoop.hive.ql.metadata.Table.getEmptyTable(path.getDatabaseName(), path.getObjectName());
        hiveTable.setCreateTime((int) (System.currentTimeMillis() / 1000));
        HiveTableUtil.setDefaultStorageFormat(hiveTable.getSd(), conf);
        // upstream's order: the options and the comment, then Flink's serialized view over them
        Map<String, String> properties = new HashMap<>(view.getOptions());
        if (view.getComment() != null) {
            properties.put(COMMENT, view.getComment());
        }
        Map<String, String> serialized = new HashMap<>();
        putSchema(path, view.getResolvedSchema(), serialized);
        if (view.getComment() != null && !view.getComment().isEmpty()) {
            serialized.put(COMMENT, view.getComment());
        }
        serialized.putAll(view.getOptions());
        serialized.remove(IS_GENERIC);
        properties.putAll(serialized);
        Map<String, String> parameters = new HashMap<>();
        properties.forEach((key, value) -> {
            if (key != null && value != null) {
                parameters.put(FLINK_PROPERTY_PREFIX + key, value);
            }
        });
        parameters.put(IS_GENERIC, "true");
        hiveTable.setParameters(parameters); // no columns: upstream leaves a view's descriptor empty
        hiveTable.setPartitionKeys(new ArrayList<>());
        hiveTable.setViewOriginalText(view.getOriginalQuery());
        hiveTable.setViewExpandedText(view.getExpandedQuery());
        hiveTable.setTableType(TableType.VIRTUAL_VIEW.name());
        return hiveTable;
    }

    /**
     * A view's columns under Flink's schema keys: name, type and comment of each. A view's schema
     * is that of its query, physical columns only.
     */
    private static void putSchema(ObjectPath path, ResolvedSchema schema, Map<String, String> properties) {
        if (!schema.getWatermarkSpecs().isEmpty() || schema.getPrimaryKey().isPresent()) {
            throw new CatalogException("View " + path.getFullName() + " has a watermark or a primary key: a hive"
                    + " catalog stores the columns of a view's query only");
        }
        List<Column> columns = schema.getColumns();
        for (int i = 0; i < columns.size(); i++) {
            Column column = columns.get(i);
            String key = SCHEMA + i;
            if (!column.isPhysical()) {
                throw new CatalogException("View " + path.getFullName() + " has the computed or metadata column "
                        + column.getName() + ": a hive catalog stores the columns of a view's query only");
            }
            properties.put(key + ".name", column.getName());
            properties.put(
                    key + ".data-type", column.getDataType().getLogicalType().asSerializableString());
            column.getComment().ifPresent(comment -> properties.put(key + ".comment", comment));
        }
    }

    /**
     * The Flink table or view of a metastore object, upstream's way. A Hive table or view ({@code
     * 'connector' = 'hive'}, which {@code HiveCatalog#getHiveTable} puts on whatever Flink did not
     * store as "generic"): columns and partition keys as Flink types, NOT NULL and the primary key
     * from the metastore's RELY constraints, the comment, the table properties as options. A view or
     * table Flink stored ({@code is_generic}): schema, partition keys, comment and options from its
     * {@code flink.} properties.
     */
    CatalogBaseTable flinkTable(Table hiveTable) {
        Schema schema;
        String comment;
        List<String> partitionKeys = new ArrayList<>();
        Map<String, String> options;
        if (SluiceHiveCatalog.HIVE.equalsIgnoreCase(hiveTable.getParameters().get(SluiceHiveCatalog.CONNECTOR))) {
            schema = hiveSchema(hiveTable);
            for (FieldSchema key : hiveTable.getPartitionKeys()) {
                partitionKeys.add(key.getName());
            }
            options = new HashMap<>(hiveTable.getParameters());
            comment = options.remove(COMMENT);
        } else {
            Map<String, String> properties = flinkProperties(hiveTable);
            if ("default".equalsIgnoreCase(properties.get(SluiceHiveCatalog.CONNECTOR))) {
                properties.remove(SluiceHiveCatalog.CONNECTOR); // a Flink managed table, as upstream
            }
            CatalogTable stored = stored(properties);
            schema = stored.getUnresolvedSchema();
            partitionKeys = stored.getPartitionKeys();
            comment = properties.get(COMMENT);
            options = stored.getOptions();
        }
        if (TableType.VIRTUAL_VIEW.name().equals(hiveTable.getTableType())) {
            return CatalogView.of(
                    schema, comment, hiveTable.getViewOriginalText(), hiveTable.getViewExpandedText(), options);
        }
        return CatalogTable.newBuilder()
                .schema(schema)
                .comment(comment)
                .partitionKeys(partitionKeys)
                .options(options)
                .build();
    }

    private static Map<String, String> flinkProperties(Table hiveTable) {
        Map<String, String> properties = new HashMap<>();
        hiveTable.getParameters().forEach((key, value) -> {
            if (key.startsWith(FLINK_PROPERTY_PREFIX)) {
                properties.put(key.substring(FLINK_PROPERTY_PREFIX.length()), value);
            }
        });
        return properties;
    }

    private static CatalogTable stored(Map<String, String> properties) {
        CatalogTable stored = CatalogPropertiesUtil.deserializeCatalogTable(properties);
        if (stored.getUnresolvedSchema().getColumns().isEmpty()) {
            stored = CatalogPropertiesUtil.deserializeCatalogTable(properties, OLD_SCHEMA);
        }
        return stored;
    }

    /**
     * The metastore table for {@code table}: Hive's empty table (its default SerDe parameters),
     * the catalog's default format, then the create keys; what is left of the options, and the
     * comment, become table properties.
     */
    private Table hiveTable(ObjectPath path, ResolvedCatalogTable table) {
        Table hiveTable =
                org.apache.hadoop.hive.ql.metadata.Table.getEmptyTable(path.getDatabaseName(), path.getObjectName());
        hiveTable.setCreateTime((int) (System.currentTimeMillis() / 1000));
        Map<String, String> properties = new HashMap<>(table.getOptions());
        if (table.getComment() != null) {
            properties.put(COMMENT, table.getComment());
        }
        if (Boolean.parseBoolean(properties.remove(IS_EXTERNAL))) {
            hiveTable.setTableType(TableType.EXTERNAL_TABLE.toString());
            hiveTable.getParameters().put("EXTERNAL", "TRUE"); // as Hive marks one
        }
        HiveTableUtil.setDefaultStorageFormat(hiveTable.getSd(), conf);
        HiveTableUtil.extractRowFormat(hiveTable.getSd(), properties);
        HiveTableUtil.extractStoredAs(hiveTable.getSd(), properties, conf);
        HiveTableUtil.extractLocation(hiveTable.getSd(), properties);
        hiveTable.getParameters().putAll(properties);

        List<FieldSchema> columns = HiveTableUtil.createHiveColumns(table.getResolvedSchema());
        // as upstream: the partition keys are the last columns (Flink's DDL puts them there)
        int keys = table.getPartitionKeys().size();
        hiveTable.getSd().setCols(new ArrayList<>(columns.subList(0, columns.size() - keys)));
        hiveTable.setPartitionKeys(new ArrayList<>(columns.subList(columns.size() - keys, columns.size())));
        return hiveTable;
    }

    /** A Hive table's columns and partition keys as Flink's, with its RELY constraints. */
    private Schema hiveSchema(Table hiveTable) {
        List<FieldSchema> columns = new ArrayList<>(HiveTableUtil.getNonPartitionFields(conf, hiveTable, shim));
        columns.addAll(hiveTable.getPartitionKeys());
        String database = hiveTable.getDbName();
        String name = hiveTable.getTableName();
        PrimaryKey primaryKey = primaryKey(database, name);
        Set<String> notNull = notNullColumns(database, name);
        if (primaryKey != null) {
            notNull.addAll(primaryKey.columns);
        }
        Schema.Builder schema = Schema.newBuilder();
        for (FieldSchema column : columns) {
            DataType type = HiveTypeUtil.toFlinkType(TypeInfoUtils.getTypeInfoFromTypeString(column.getType()));
            schema.column(column.getName(), notNull.contains(column.getName()) ? type.notNull() : type);
        }
        if (primaryKey != null) {
            schema.primaryKeyNamed(primaryKey.name, primaryKey.columns);
        }
        return schema.build();
    }

    /** A primary key the metastore keeps: its name and columns in key order. */
    private static final class PrimaryKey {
        final String name;
        final List<String> columns;

        PrimaryKey(String name, List<String> columns) {
            this.name = name;
            this.columns = columns;
        }
    }

    /**
     * The table's primary key if every column of it is RELY, as upstream reads one (a key the
     * metastore does not rely on is no key to Flink); null if none, or if the metastore predates
     * constraints.
     */
    @Nullable
    private PrimaryKey primaryKey(String database, String table) {
        List<SQLPrimaryKey> keys;
        try {
            keys = client.getPrimaryKeys(new PrimaryKeysRequest(database, table));
        } catch (TException e) {
            if (predatesConstraints(e)) {
                return null;
            }
            throw new CatalogException("Cannot read the primary key of table " + database + "." + table, e);
        }
        if (keys == null || keys.isEmpty()) {
            return null;
        }
        List<String> columns = new ArrayList<>();
        for (SQLPrimaryKey key : keys) {
            if (!key.isRely_cstr()) {
                return null;
            }
            columns.add(key.getColumn_name());
        }
        return new PrimaryKey(keys.get(0).getPk_name(), columns);
    }

    /** The columns with a RELY NOT NULL constraint; none if the metastore predates constraints. */
    private Set<String> notNullColumns(String database, String table) {
        Set<String> columns = new LinkedHashSet<>();
        try {
            NotNullConstraintsRequest request =
                    new NotNullConstraintsRequest(MetaStoreUtils.getDefaultCatalog(conf), database, table);
            for (SQLNotNullConstraint constraint : client.getNotNullConstraints(request)) {
                if (constraint.isRely_cstr()) {
                    columns.add(constraint.getColumn_name());
                }
            }
        } catch (TException e) {
            if (!predatesConstraints(e)) {
                throw new CatalogException(
                        "Cannot read the NOT NULL constraints of table " + database + "." + table, e);
            }
        }
        return columns;
    }

    /** Whether the metastore has no such call (Hive before 2.1 has no constraints). */
    private static boolean predatesConstraints(TException e) {
        return e instanceof TApplicationException
                && e.getMessage() != null
                && e.getMessage().contains("Invalid method name");
    }
}
