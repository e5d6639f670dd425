package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.SluiceFactory;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.util.TemporaryClassLoaderContext;

import java.util.Set;

/**
 * Base of the factory wrappers: the methods every {@link SluiceFactory} has, each run with the
 * plugin's class loader as the thread context class loader.
 */
abstract class TcclFactory<F extends SluiceFactory> implements SluiceFactory, PluginBound {

    final F delegate;
    final ClassLoader loader;

    TcclFactory(F delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    @Override
    public String identifier() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.identifier();
        }
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.requiredOptions();
        }
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.optionalOptions();
        }
    }

    @Override
    public Set<String> optionPrefixes() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.optionPrefixes();
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
