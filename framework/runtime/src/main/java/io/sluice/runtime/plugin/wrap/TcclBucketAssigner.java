package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.sink.BucketAssigner;
import io.sluice.spi.sink.RecordContext;

import org.apache.flink.table.data.RowData;

/** A plugin's {@link BucketAssigner}, called under the plugin's context class loader. */
public final class TcclBucketAssigner implements BucketAssigner, PluginBound {

    private final BucketAssigner delegate;
    private final ClassLoader loader;

    TcclBucketAssigner(BucketAssigner delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    @Override
    public String bucketId(RowData row, RecordContext context) {
        Thread t = Thread.currentThread();
        ClassLoader previous = t.getContextClassLoader();
        t.setContextClassLoader(loader);
        try {
            return delegate.bucketId(row, context);
        } finally {
            t.setContextClassLoader(previous);
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
