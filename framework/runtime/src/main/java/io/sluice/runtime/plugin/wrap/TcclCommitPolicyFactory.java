package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.partition.CommitPolicy;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.partition.PartitionCommitContext;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.util.TemporaryClassLoaderContext;

/** {@link CommitPolicyFactory} of a plugin, called under the plugin's context class loader. */
public final class TcclCommitPolicyFactory extends TcclFactory<CommitPolicyFactory> implements CommitPolicyFactory {

    public TcclCommitPolicyFactory(CommitPolicyFactory delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public CommitPolicy create(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            CommitPolicy policy = delegate.create(context);
            return new Policy(policy, loader);
        }
    }

    /** A plugin's {@link CommitPolicy}, called under the plugin's context class loader. */
    public static final class Policy implements CommitPolicy, PluginBound {
        private final CommitPolicy delegate;
        private final ClassLoader loader;

        Policy(CommitPolicy delegate, ClassLoader loader) {
            this.delegate = delegate;
            this.loader = loader;
        }

        @Override
        public void commit(PartitionCommitContext context) throws Exception {
            try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
                delegate.commit(context);
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
}
