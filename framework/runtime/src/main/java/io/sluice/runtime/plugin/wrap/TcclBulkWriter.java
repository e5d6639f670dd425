package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.TemporaryClassLoaderContext;

import java.io.IOException;

/** A plugin's {@link BulkWriter}, called under the plugin's context class loader. */
public final class TcclBulkWriter implements BulkWriter<RowData>, PluginBound {

    private final BulkWriter<RowData> delegate;
    private final ClassLoader loader;

    TcclBulkWriter(BulkWriter<RowData> delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    @Override
    public void addElement(RowData element) throws IOException {
        Thread t = Thread.currentThread();
        ClassLoader previous = t.getContextClassLoader();
        t.setContextClassLoader(loader);
        try {
            delegate.addElement(element);
        } finally {
            t.setContextClassLoader(previous);
        }
    }

    @Override
    public void flush() throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.flush();
        }
    }

    @Override
    public void finish() throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.finish();
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
