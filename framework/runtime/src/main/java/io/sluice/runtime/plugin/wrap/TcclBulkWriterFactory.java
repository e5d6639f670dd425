package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.format.BufferingBulkWriter;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.TemporaryClassLoaderContext;

import java.io.IOException;

/** A plugin's {@link BulkWriter.Factory}, called under the plugin's context class loader. */
public final class TcclBulkWriterFactory implements BulkWriter.Factory<RowData>, PluginBound {

    private static final long serialVersionUID = 1L;

    private final BulkWriter.Factory<RowData> delegate;
    private final transient ClassLoader loader;

    TcclBulkWriterFactory(BulkWriter.Factory<RowData> delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    @Override
    public BulkWriter<RowData> create(FSDataOutputStream out) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            BulkWriter<RowData> writer = delegate.create(out);
            return writer instanceof BufferingBulkWriter
                    ? new TcclBufferingBulkWriter((BufferingBulkWriter) writer, loader)
                    : new TcclBulkWriter(writer, loader);
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
