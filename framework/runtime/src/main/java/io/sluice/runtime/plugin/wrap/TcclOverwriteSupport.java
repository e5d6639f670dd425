package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.sink.OverwriteSupport;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.util.TemporaryClassLoaderContext;

/** A target's {@link OverwriteSupport}, called under the plugin's context class loader. */
public final class TcclOverwriteSupport extends TcclFacet<OverwriteSupport> implements OverwriteSupport {

    TcclOverwriteSupport(OverwriteSupport delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public void checkOverwrite(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.checkOverwrite(context);
        }
    }
}
