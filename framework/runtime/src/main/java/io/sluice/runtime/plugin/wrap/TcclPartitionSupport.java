package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.partition.PartitionSupport;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.util.TemporaryClassLoaderContext;

/** A target's {@link PartitionSupport}, called under the plugin's context class loader. */
public final class TcclPartitionSupport extends TcclFacet<PartitionSupport> implements PartitionSupport {

    TcclPartitionSupport(PartitionSupport delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public boolean requiresGrouping(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.requiresGrouping(context);
        }
    }
}
