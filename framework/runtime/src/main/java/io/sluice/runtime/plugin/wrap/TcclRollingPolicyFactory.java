package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.sink.RollingPolicy;
import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.util.TemporaryClassLoaderContext;

/** {@link RollingPolicyFactory} of a plugin, called under the plugin's context class loader. */
public final class TcclRollingPolicyFactory extends TcclFactory<RollingPolicyFactory> implements RollingPolicyFactory {

    public TcclRollingPolicyFactory(RollingPolicyFactory delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public RollingPolicy create(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new TcclRollingPolicy(delegate.create(context), loader);
        }
    }
}
