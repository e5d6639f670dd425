package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.catalog.CatalogContext;
import io.sluice.spi.catalog.TargetCatalogFactory;

import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.util.TemporaryClassLoaderContext;

import java.util.Map;

/** {@link TargetCatalogFactory} of a plugin, called under the plugin's context class loader. */
public final class TcclTargetCatalogFactory extends TcclFactory<TargetCatalogFactory> implements TargetCatalogFactory {

    public TcclTargetCatalogFactory(TargetCatalogFactory delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public org.apache.flink.table.catalog.Catalog createCatalog(CatalogContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return TcclCatalog.wrap(delegate.createCatalog(context), loader);
        }
    }

    @Override
    public Map<String, String> tableOptions(
            CatalogContext context, ObjectPath table, Map<String, String> tableProperties) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.tableOptions(context, table, tableProperties);
        }
    }
}
