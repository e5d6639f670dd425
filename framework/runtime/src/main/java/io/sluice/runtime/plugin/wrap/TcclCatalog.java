package io.sluice.runtime.plugin.wrap;

import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionAlreadyExistsException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionSpecInvalidException;
import org.apache.flink.table.catalog.exceptions.ProcedureNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.flink.table.catalog.exceptions.TablePartitionedException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.factories.FunctionDefinitionFactory;
import org.apache.flink.table.factories.TableFactory;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.util.TemporaryClassLoaderContext;

import java.util.List;
import java.util.Optional;

/**
 * A plugin's Flink {@link Catalog}, every call under the plugin's context class loader. Not final:
 * the framework's catalog of a target extends it to add what Flink needs of a Sluice catalog.
 */
@SuppressWarnings("deprecation") // Catalog#getTableFactory: Flink's legacy factory stack, passed on unchanged
public class TcclCatalog implements Catalog, PluginBound {

    protected final Catalog delegate;
    protected final ClassLoader loader;

    public TcclCatalog(Catalog delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    /** The same plugin catalog, for a subclass that adds to it. */
    protected TcclCatalog(TcclCatalog wrapped) {
        this(wrapped.delegate, wrapped.loader);
    }

    @Override
    public ClassLoader pluginClassLoader() {
        return loader;
    }

    @Override
    public Object unwrap() {
        return delegate;
    }

    @Override
    public Optional<Factory> getFactory() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.getFactory();
        }
    }

    @Override
    public Optional<TableFactory> getTableFactory() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.getTableFactory();
        }
    }

    @Override
    public Optional<FunctionDefinitionFactory> getFunctionDefinitionFactory() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.getFunctionDefinitionFactory();
        }
    }

    @Override
    public void open() throws CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.open();
        }
    }

    @Override
    public void close() throws CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.close();
        }
    }

    @Override
    public String getDefaultDatabase() throws CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.getDefaultDatabase();
        }
    }

    @Override
    public List<String> listDatabases() throws CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.listDatabases();
        }
    }

    @Override
    public CatalogDatabase getDatabase(String databaseName) throws DatabaseNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.getDatabase(databaseName);
        }
    }

    @Override
    public boolean databaseExists(String databaseName) throws CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.databaseExists(databaseName);
        }
    }

    @Override
    public void createDatabase(String databaseName, CatalogDatabase database, boolean ignoreIfExists)
            throws DatabaseAlreadyExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.createDatabase(databaseName, database, ignoreIfExists);
        }
    }

    @Override
    public void dropDatabase(String databaseName, boolean ignoreIfNotExists)
            throws DatabaseNotExistException, DatabaseNotEmptyException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.dropDatabase(databaseName, ignoreIfNotExists);
        }
    }

    @Override
    public void dropDatabase(String databaseName, boolean ignoreIfNotExists, boolean cascade)
            throws DatabaseNotExistException, DatabaseNotEmptyException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.dropDatabase(databaseName, ignoreIfNotExists, cascade);
        }
    }

    @Override
    public void alterDatabase(String databaseName, CatalogDatabase database, boolean ignoreIfNotExists)
            throws DatabaseNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.alterDatabase(databaseName, database, ignoreIfNotExists);
        }
    }

    @Override
    public List<String> listTables(String databaseName) throws DatabaseNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.listTables(databaseName);
        }
    }

    @Override
    public List<String> listViews(String databaseName) throws DatabaseNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.listViews(databaseName);
        }
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath objectPath) throws TableNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.getTable(objectPath);
        }
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath objectPath, long timestamp)
            throws TableNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.getTable(objectPath, timestamp);
        }
    }

    @Override
    public boolean tableExists(ObjectPath objectPath) throws CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.tableExists(objectPath);
        }
    }

    @Override
    public void dropTable(ObjectPath objectPath, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.dropTable(objectPath, ignoreIfNotExists);
        }
    }

    @Override
    public void renameTable(ObjectPath objectPath, String newName, boolean ignoreIfNotExists)
            throws TableNotExistException, TableAlreadyExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.renameTable(objectPath, newName, ignoreIfNotExists);
        }
    }

    @Override
    public void createTable(ObjectPath objectPath, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.createTable(objectPath, table, ignoreIfExists);
        }
    }

    @Override
    public void alterTable(ObjectPath objectPath, CatalogBaseTable table, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.alterTable(objectPath, table, ignoreIfNotExists);
        }
    }

    @Override
    public void alterTable(
            ObjectPath objectPath, CatalogBaseTable table, List<TableChange> changes, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.alterTable(objectPath, table, changes, ignoreIfNotExists);
        }
    }

    @Override
    public boolean supportsManagedTable() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.supportsManagedTable();
        }
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath objectPath)
            throws TableNotExistException, TableNotPartitionedException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.listPartitions(objectPath);
        }
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath objectPath, CatalogPartitionSpec partitionSpec)
            throws TableNotExistException, TableNotPartitionedException, PartitionSpecInvalidException,
                    CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.listPartitions(objectPath, partitionSpec);
        }
    }

    @Override
    public List<CatalogPartitionSpec> listPartitionsByFilter(ObjectPath objectPath, List<Expression> filters)
            throws TableNotExistException, TableNotPartitionedException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.listPartitionsByFilter(objectPath, filters);
        }
    }

    @Override
    public CatalogPartition getPartition(ObjectPath objectPath, CatalogPartitionSpec partitionSpec)
            throws PartitionNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.getPartition(objectPath, partitionSpec);
        }
    }

    @Override
    public boolean partitionExists(ObjectPath objectPath, CatalogPartitionSpec partitionSpec) throws CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.partitionExists(objectPath, partitionSpec);
        }
    }

    @Override
    public void createPartition(
            ObjectPath objectPath,
            CatalogPartitionSpec partitionSpec,
            CatalogPartition partition,
            boolean ignoreIfExists)
            throws TableNotExistException, TableNotPartitionedException, PartitionSpecInvalidException,
                    PartitionAlreadyExistsException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.createPartition(objectPath, partitionSpec, partition, ignoreIfExists);
        }
    }

    @Override
    public void dropPartition(ObjectPath objectPath, CatalogPartitionSpec partitionSpec, boolean ignoreIfNotExists)
            throws PartitionNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.dropPartition(objectPath, partitionSpec, ignoreIfNotExists);
        }
    }

    @Override
    public void alterPartition(
            ObjectPath objectPath,
            CatalogPartitionSpec partitionSpec,
            CatalogPartition partition,
            boolean ignoreIfNotExists)
            throws PartitionNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.alterPartition(objectPath, partitionSpec, partition, ignoreIfNotExists);
        }
    }

    @Override
    public List<String> listFunctions(String databaseName) throws DatabaseNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.listFunctions(databaseName);
        }
    }

    @Override
    public List<String> listProcedures(String databaseName) throws DatabaseNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.listProcedures(databaseName);
        }
    }

    @Override
    public CatalogFunction getFunction(ObjectPath objectPath) throws FunctionNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.getFunction(objectPath);
        }
    }

    @Override
    public Procedure getProcedure(ObjectPath objectPath) throws ProcedureNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.getProcedure(objectPath);
        }
    }

    @Override
    public boolean functionExists(ObjectPath objectPath) throws CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.functionExists(objectPath);
        }
    }

    @Override
    public void createFunction(ObjectPath objectPath, CatalogFunction function, boolean ignoreIfExists)
            throws FunctionAlreadyExistException, DatabaseNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.createFunction(objectPath, function, ignoreIfExists);
        }
    }

    @Override
    public void alterFunction(ObjectPath objectPath, CatalogFunction function, boolean ignoreIfNotExists)
            throws FunctionNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.alterFunction(objectPath, function, ignoreIfNotExists);
        }
    }

    @Override
    public void dropFunction(ObjectPath objectPath, boolean ignoreIfNotExists)
            throws FunctionNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.dropFunction(objectPath, ignoreIfNotExists);
        }
    }

    @Override
    public CatalogTableStatistics getTableStatistics(ObjectPath objectPath)
            throws TableNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.getTableStatistics(objectPath);
        }
    }

    @Override
    public CatalogColumnStatistics getTableColumnStatistics(ObjectPath objectPath)
            throws TableNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.getTableColumnStatistics(objectPath);
        }
    }

    @Override
    public CatalogTableStatistics getPartitionStatistics(ObjectPath objectPath, CatalogPartitionSpec partitionSpec)
            throws PartitionNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.getPartitionStatistics(objectPath, partitionSpec);
        }
    }

    @Override
    public List<CatalogTableStatistics> bulkGetPartitionStatistics(
            ObjectPath objectPath, List<CatalogPartitionSpec> partitionSpecs)
            throws PartitionNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.bulkGetPartitionStatistics(objectPath, partitionSpecs);
        }
    }

    @Override
    public CatalogColumnStatistics getPartitionColumnStatistics(
            ObjectPath objectPath, CatalogPartitionSpec partitionSpec)
            throws PartitionNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.getPartitionColumnStatistics(objectPath, partitionSpec);
        }
    }

    @Override
    public List<CatalogColumnStatistics> bulkGetPartitionColumnStatistics(
            ObjectPath objectPath, List<CatalogPartitionSpec> partitionSpecs)
            throws PartitionNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.bulkGetPartitionColumnStatistics(objectPath, partitionSpecs);
        }
    }

    @Override
    public void alterTableStatistics(
            ObjectPath objectPath, CatalogTableStatistics statistics, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.alterTableStatistics(objectPath, statistics, ignoreIfNotExists);
        }
    }

    @Override
    public void alterTableColumnStatistics(
            ObjectPath objectPath, CatalogColumnStatistics columnStatistics, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException, TablePartitionedException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.alterTableColumnStatistics(objectPath, columnStatistics, ignoreIfNotExists);
        }
    }

    @Override
    public void alterPartitionStatistics(
            ObjectPath objectPath,
            CatalogPartitionSpec partitionSpec,
            CatalogTableStatistics statistics,
            boolean ignoreIfNotExists)
            throws PartitionNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.alterPartitionStatistics(objectPath, partitionSpec, statistics, ignoreIfNotExists);
        }
    }

    @Override
    public void alterPartitionColumnStatistics(
            ObjectPath objectPath,
            CatalogPartitionSpec partitionSpec,
            CatalogColumnStatistics columnStatistics,
            boolean ignoreIfNotExists)
            throws PartitionNotExistException, CatalogException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.alterPartitionColumnStatistics(objectPath, partitionSpec, columnStatistics, ignoreIfNotExists);
        }
    }
}
