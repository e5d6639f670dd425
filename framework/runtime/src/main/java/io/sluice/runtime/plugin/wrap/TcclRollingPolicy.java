package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.sink.PartFileState;
import io.sluice.spi.sink.RollingPolicy;

import org.apache.flink.table.data.RowData;
import org.apache.flink.util.TemporaryClassLoaderContext;

/** A plugin's {@link RollingPolicy}, called under the plugin's context class loader. */
public final class TcclRollingPolicy implements RollingPolicy, PluginBound {

    private final RollingPolicy delegate;
    private final ClassLoader loader;

    TcclRollingPolicy(RollingPolicy delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    @Override
    public boolean shouldRollOnCheckpoint(PartFileState partFile) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.shouldRollOnCheckpoint(partFile);
        }
    }

    @Override
    public boolean shouldRollOnEvent(PartFileState partFile, RowData element) {
        Thread t = Thread.currentThread();
        ClassLoader previous = t.getContextClassLoader();
        t.setContextClassLoader(loader);
        try {
            return delegate.shouldRollOnEvent(partFile, element);
        } finally {
            t.setContextClassLoader(previous);
        }
    }

    @Override
    public boolean shouldRollOnProcessingTime(PartFileState partFile, long currentTime) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.shouldRollOnProcessingTime(partFile, currentTime);
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
