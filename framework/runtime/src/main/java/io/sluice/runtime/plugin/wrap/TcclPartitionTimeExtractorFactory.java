package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.partition.PartitionTimeExtractor;
import io.sluice.spi.partition.PartitionTimeExtractorFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.util.TemporaryClassLoaderContext;

import java.time.LocalDateTime;
import java.util.List;

/** {@link PartitionTimeExtractorFactory} of a plugin, called under the plugin's context class loader. */
public final class TcclPartitionTimeExtractorFactory extends TcclFactory<PartitionTimeExtractorFactory>
        implements PartitionTimeExtractorFactory {

    public TcclPartitionTimeExtractorFactory(PartitionTimeExtractorFactory delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public PartitionTimeExtractor create(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new Extractor(delegate.create(context), loader);
        }
    }

    /** A plugin's {@link PartitionTimeExtractor}, called under the plugin's context class loader. */
    public static final class Extractor implements PartitionTimeExtractor, PluginBound {
        private final PartitionTimeExtractor delegate;
        private final ClassLoader loader;

        Extractor(PartitionTimeExtractor delegate, ClassLoader loader) {
            this.delegate = delegate;
            this.loader = loader;
        }

        @Override
        public LocalDateTime extract(List<String> partitionKeys, List<String> partitionValues) {
            try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
                return delegate.extract(partitionKeys, partitionValues);
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
}
