package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;

/**
 * Base of the wrappers of a target's facets ({@code TargetFactory#changes()} and the others): the
 * plugin's facet and its class loader, under which each facet wrapper runs every call.
 */
abstract class TcclFacet<T> implements PluginBound {

    final T delegate;
    final ClassLoader loader;

    TcclFacet(T delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    @Override
    public final ClassLoader pluginClassLoader() {
        return loader;
    }

    @Override
    public final Object unwrap() {
        return delegate;
    }
}
