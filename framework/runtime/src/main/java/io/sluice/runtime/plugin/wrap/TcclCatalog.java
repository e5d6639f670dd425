package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;

import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.util.TemporaryClassLoaderContext;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * A plugin's Flink {@link Catalog}, every call under the plugin's context class loader.
 *
 * <p>A dynamic proxy rather than a class that implements {@code Catalog}: the interface differs
 * between Flink lines (methods whose types are gone, defaults added for new kinds of objects), and
 * a proxy forwards whatever methods the running Flink declares, default methods included, so
 * one binary wraps a catalog on every line. The framework's catalog of a target ({@code
 * SluiceCatalog}) is another proxy in front of this one, which answers some methods itself.
 */
public final class TcclCatalog implements InvocationHandler, PluginBound {

    private static final Method PLUGIN_CLASS_LOADER = method(PluginBound.class, "pluginClassLoader");
    private static final Method UNWRAP = method(PluginBound.class, "unwrap");

    private final Catalog delegate;
    private final ClassLoader loader;

    private TcclCatalog(Catalog delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    /** {@code delegate} behind a {@link Catalog} that is also {@link PluginBound}. */
    public static Catalog wrap(Catalog delegate, ClassLoader loader) {
        return new TcclCatalog(delegate, loader).proxy();
    }

    /** A new {@link Catalog} whose every call goes to this handler. */
    private Catalog proxy() {
        // the framework's loader: it sees Catalog and PluginBound, the proxy class is the framework's
        return (Catalog) Proxy.newProxyInstance(
                TcclCatalog.class.getClassLoader(), new Class<?>[] {Catalog.class, PluginBound.class}, this);
    }

    @Override
    public ClassLoader pluginClassLoader() {
        return loader;
    }

    @Override
    public Object unwrap() {
        return delegate;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            switch (method.getName()) {
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                default:
                    return getClass().getSimpleName() + "(" + delegate + ")";
            }
        }
        if (method.equals(PLUGIN_CLASS_LOADER)) {
            return loader;
        }
        if (method.equals(UNWRAP)) {
            return delegate;
        }
        // exceptions of the plugin's catalog reach the caller as they are
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return method.invoke(delegate, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static Method method(Class<?> type, String name) {
        try {
            return type.getMethod(name);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }
}
