package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.distribution.DistributionKey;

import org.apache.flink.table.data.RowData;

/**
 * A plugin's {@link DistributionKey}, called under the plugin's context class loader: once per
 * row, so the switch is inlined as in {@link TcclEncoder}.
 */
public final class TcclDistributionKey implements DistributionKey, PluginBound {

    private final DistributionKey delegate;
    private final ClassLoader loader;

    TcclDistributionKey(DistributionKey delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    @Override
    public byte[] of(RowData row) {
        Thread t = Thread.currentThread();
        ClassLoader previous = t.getContextClassLoader();
        t.setContextClassLoader(loader);
        try {
            return delegate.of(row);
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
