package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.dynamic.DynamicTables;
import io.sluice.spi.dynamic.TableRequest;
import io.sluice.spi.dynamic.TableState;

import org.apache.flink.util.TemporaryClassLoaderContext;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A plugin's {@link DynamicTables}, called under the plugin's context class loader. */
public final class TcclDynamicTables implements DynamicTables, PluginBound {

    private final DynamicTables delegate;
    private final ClassLoader loader;

    TcclDynamicTables(DynamicTables delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    @Override
    public Optional<TableState> load(String identifier) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.load(identifier);
        }
    }

    @Override
    public TableState create(TableRequest request) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.create(request);
        }
    }

    @Override
    public TableState update(TableRequest request) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.update(request);
        }
    }

    @Override
    public Map<String, String> sinkOptions(
            String identifier,
            @Nullable String branch,
            List<String> spec,
            @Nullable Boolean upsert,
            List<String> equalityFields) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.sinkOptions(identifier, branch, spec, upsert, equalityFields);
        }
    }

    @Override
    public void close() throws Exception {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.close();
        }
    }

    @Override
    public ClassLoader pluginClassLoader() {
        return loader;
    }

    @Override
    public Object unwrap() {
        return delegate;
    }
}
