package io.sluice.runtime.plugin.wrap;

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
 * one binary wraps a catalog on every line. Not final: the framework's catalog of a target
 * extends it to answer some methods itself.
 */
public class TcclCatalog implements InvocationHandler, PluginBound {

    private static final Method PLUGIN_CLASS_LOADER = method(PluginBound.class, "pluginClassLoader");
    private static final Method UNWRAP = method(PluginBound.class, "unwrap");

    protected final Catalog delegate;
    protected final ClassLoader loader;

    protected TcclCatalog(Catalog delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    /** The same plugin catalog, for a subclass that answers some methods itself. */
    protected TcclCatalog(TcclCatalog wrapped) {
        this(wrapped.delegate, wrapped.loader);
    }

    /** {@code delegate} behind a {@link Catalog} that is also {@link PluginBound}. */
    public static Catalog wrap(Catalog delegate, ClassLoader loader) {
        return new TcclCatalog(delegate, loader).proxy();
    }

    /** The handler behind {@code catalog}, if it is a catalog this class or a subclass made. */
    public static java.util.Optional<TcclCatalog> handlerOf(Object catalog) {
        if (catalog != null
                && Proxy.isProxyClass(catalog.getClass())
                && Proxy.getInvocationHandler(catalog) instanceof TcclCatalog) {
            return java.util.Optional.of((TcclCatalog) Proxy.getInvocationHandler(catalog));
        }
        return java.util.Optional.empty();
    }

    /** A new {@link Catalog} whose every call goes to this handler. */
    protected final Catalog proxy() {
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
    public final Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
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
        return call(method, args);
    }

    /**
     * A {@link Catalog} method; the plugin's, under its loader, unless a subclass answers it.
     * Exceptions of the plugin's catalog reach the caller as they are.
     */
    protected Object call(Method method, Object[] args) throws Throwable {
        return callPlugin(method, args);
    }

    /** {@code method} of the plugin's catalog, under the plugin's loader. */
    protected final Object callPlugin(Method method, Object[] args) throws Throwable {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return method.invoke(delegate, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Whether {@code method} is {@code name} with these parameter types (by name: some are not on every line). */
    protected static boolean is(Method method, String name, Class<?>... parameters) {
        return method.getName().equals(name) && java.util.Arrays.equals(method.getParameterTypes(), parameters);
    }

    private static Method method(Class<?> type, String name) {
        try {
            return type.getMethod(name);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }
}
