package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.sink.BucketAssigner;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.util.TemporaryClassLoaderContext;

/** {@link BucketAssignerFactory} of a plugin, called under the plugin's context class loader. */
public final class TcclBucketAssignerFactory extends TcclFactory<BucketAssignerFactory>
        implements BucketAssignerFactory {

    public TcclBucketAssignerFactory(BucketAssignerFactory delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public BucketAssigner create(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new TcclBucketAssigner(delegate.create(context), loader);
        }
    }
}
