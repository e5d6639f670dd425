package io.sluice.runtime.plugin;

/** Implemented by every wrapper: the plugin object inside and the loader it runs under. */
public interface PluginBound {

    /** The class loader of the plugin the wrapped object belongs to. */
    ClassLoader pluginClassLoader();

    /** The wrapped plugin object. */
    Object unwrap();
}
