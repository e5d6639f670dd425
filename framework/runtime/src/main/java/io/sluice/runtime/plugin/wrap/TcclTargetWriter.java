package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.Payload;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.RecordContext;
import io.sluice.spi.sink.TargetWriter;

import org.apache.flink.table.data.RowData;
import org.apache.flink.util.TemporaryClassLoaderContext;

import java.io.IOException;
import java.util.List;

/** A plugin's {@link TargetWriter}, called under the plugin's context class loader. */
public final class TcclTargetWriter implements TargetWriter, PluginBound {

    private final TargetWriter delegate;
    private final ClassLoader loader;

    TcclTargetWriter(TargetWriter delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    @Override
    public void write(RowData row, RecordContext context) throws IOException {
        Thread t = Thread.currentThread();
        ClassLoader previous = t.getContextClassLoader();
        t.setContextClassLoader(loader);
        try {
            delegate.write(row, context);
        } finally {
            t.setContextClassLoader(previous);
        }
    }

    @Override
    public List<PendingCommit> prepareCommit(boolean endOfInput) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.prepareCommit(endOfInput);
        }
    }

    @Override
    public List<Payload> snapshotState(long checkpointId) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.snapshotState(checkpointId);
        }
    }

    @Override
    public long processingTimeInterval() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.processingTimeInterval();
        }
    }

    @Override
    public void onProcessingTime(long currentTime) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.onProcessingTime(currentTime);
        }
    }

    @Override
    public boolean isIdle() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.isIdle();
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
