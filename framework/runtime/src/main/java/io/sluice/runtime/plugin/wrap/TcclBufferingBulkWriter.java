package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.format.BufferingBulkWriter;

import org.apache.flink.table.data.RowData;
import org.apache.flink.util.TemporaryClassLoaderContext;

import java.io.IOException;

/**
 * A plugin's {@link BufferingBulkWriter}, called under the plugin's context class loader: a
 * {@link TcclBulkWriter} that also passes on the writer's heap estimate.
 */
public final class TcclBufferingBulkWriter implements BufferingBulkWriter, PluginBound {

    private final BufferingBulkWriter delegate;
    private final ClassLoader loader;
    private final TcclBulkWriter rows;

    TcclBufferingBulkWriter(BufferingBulkWriter delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
        this.rows = new TcclBulkWriter(delegate, loader);
    }

    @Override
    public void addElement(RowData element) throws IOException {
        rows.addElement(element);
    }

    @Override
    public void flush() throws IOException {
        rows.flush();
    }

    @Override
    public void finish() throws IOException {
        rows.finish();
    }

    @Override
    public long heapBytes() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.heapBytes();
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
