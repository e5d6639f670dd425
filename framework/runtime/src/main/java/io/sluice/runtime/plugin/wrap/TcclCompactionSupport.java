package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.compact.CompactionSupport;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.util.TemporaryClassLoaderContext;

import java.util.Optional;

/** A target's {@link CompactionSupport}, called under the plugin's context class loader. */
public final class TcclCompactionSupport extends TcclFacet<CompactionSupport> implements CompactionSupport {

    TcclCompactionSupport(CompactionSupport delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public Optional<String> fileFormat(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.fileFormat(context);
        }
    }
}
