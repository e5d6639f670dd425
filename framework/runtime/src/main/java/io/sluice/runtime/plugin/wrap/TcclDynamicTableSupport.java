package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.dynamic.DynamicTableSupport;
import io.sluice.spi.dynamic.DynamicTables;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.util.TemporaryClassLoaderContext;

import java.io.IOException;

/** A target's {@link DynamicTableSupport}, called under the plugin's context class loader. */
public final class TcclDynamicTableSupport extends TcclFacet<DynamicTableSupport> implements DynamicTableSupport {

    TcclDynamicTableSupport(DynamicTableSupport delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public DynamicTables open(SinkContext context) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new TcclDynamicTables(delegate.open(context), loader);
        }
    }

    @Override
    public boolean supportsWriterOpenings() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.supportsWriterOpenings();
        }
    }
}
