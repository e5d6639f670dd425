package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.util.TemporaryClassLoaderContext;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** A plugin's {@link TargetCommitter}, called under the plugin's context class loader. */
public final class TcclTargetCommitter implements TargetCommitter, PluginBound {

    private final TargetCommitter delegate;
    private final ClassLoader loader;

    TcclTargetCommitter(TargetCommitter delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    @Override
    public void commit(CommitRequest request) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.commit(request);
        }
    }

    @Override
    public Optional<Path> partitionLocation(String partitionId) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.partitionLocation(partitionId);
        }
    }

    @Override
    public List<Path> visibleFiles(String partitionId) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.visibleFiles(partitionId);
        }
    }

    @Override
    public void discard(List<PendingCommit> pending) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.discard(pending);
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
