package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.distribution.DistributionKey;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.spi.distribution.DistributionSupport;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.util.TemporaryClassLoaderContext;

import java.util.Optional;
import java.util.Set;

/** A target's {@link DistributionSupport}, called under the plugin's context class loader. */
public final class TcclDistributionSupport extends TcclFacet<DistributionSupport> implements DistributionSupport {

    TcclDistributionSupport(DistributionSupport delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public Set<DistributionMode> modes(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.modes(context);
        }
    }

    @Override
    public Optional<DistributionMode> tableMode(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.tableMode(context);
        }
    }

    @Override
    public DistributionKey key(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new TcclDistributionKey(delegate.key(context), loader);
        }
    }

    @Override
    public DistributionKey rangeKey(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new TcclDistributionKey(delegate.rangeKey(context), loader);
        }
    }
}
