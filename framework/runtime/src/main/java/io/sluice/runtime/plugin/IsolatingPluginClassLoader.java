package io.sluice.runtime.plugin;

import io.sluice.runtime.plugin.ClassLoadingRule.Origin;

import org.pf4j.PluginClassLoader;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginManager;

import java.io.IOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The class loader of one plugin. Its parent is the platform class loader, so a plugin sees the
 * JDK and its own jars and nothing of the job's or the cluster's class path but what {@link
 * ClassLoadingRule} shares. Classes and resources alike take one load path per {@link Origin} of
 * their name; the framework's class loader is the one that loaded the framework (Flink's {@code
 * lib/}, or a job's class loader where a job jar carries the framework).
 *
 * <p>PF4J's own loader delegates {@code org.pf4j.} to its parent and looks everything else up in
 * the plugin, its dependencies and the parent, in an order of its strategy, for classes and
 * resources; that is why {@link #loadClass(String, boolean)}, {@link #getResource} and {@link
 * #getResources} are replaced here as a whole. A {@link java.util.ServiceLoader} inside a plugin
 * therefore finds the plugin's providers only: {@code META-INF/services/} is the plugin's.
 */
public class IsolatingPluginClassLoader extends PluginClassLoader {

    static {
        ClassLoader.registerAsParallelCapable();
    }

    private final ClassLoader frameworkLoader;
    private final ClassLoadingRule rule;
    private final String pluginId;

    public IsolatingPluginClassLoader(
            PluginManager pluginManager,
            PluginDescriptor descriptor,
            ClassLoader frameworkLoader,
            ClassLoadingRule rule) {
        super(pluginManager, descriptor, ClassLoader.getPlatformClassLoader());
        this.frameworkLoader = frameworkLoader;
        this.rule = rule;
        this.pluginId = descriptor.getPluginId();
    }

    /** The id of the plugin this loader belongs to. */
    public String pluginId() {
        return pluginId;
    }

    @Override
    public Class<?> loadClass(String className) throws ClassNotFoundException {
        return loadClass(className, false);
    }

    @Override
    protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(className)) {
            // first, so that a class this loader defined (a proxy, say) is never looked up again
            Class<?> c = findLoadedClass(className);
            if (c == null) {
                Origin origin = rule.originOf(className);
                switch (origin) {
                    case JDK:
                        c = loadJdk(className);
                        break;
                    case FRAMEWORK_ONLY:
                        c = loadFrameworkOnly(className);
                        break;
                    case SHARED:
                        c = loadShared(className);
                        break;
                    case PLUGIN_FIRST:
                        c = loadPluginFirst(className);
                        break;
                    case PLUGIN_ONLY:
                        c = loadPluginOnly(className);
                        break;
                    default:
                        throw new IllegalStateException("Unknown origin " + origin);
                }
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    private Class<?> loadJdk(String className) throws ClassNotFoundException {
        try {
            return getParent().loadClass(className);
        } catch (ClassNotFoundException e) {
            throw new ClassNotFoundException(
                    className + " (a JDK class: taken from the JDK's platform modules only," + " which do not have it)",
                    e);
        }
    }

    private Class<?> loadFrameworkOnly(String className) throws ClassNotFoundException {
        try {
            return frameworkLoader.loadClass(className);
        } catch (ClassNotFoundException e) {
            throw new ClassNotFoundException(
                    className + " (a framework class: never loaded from plugin '" + pluginId
                            + "', and the framework does not have it)",
                    e);
        }
    }

    private Class<?> loadShared(String className) throws ClassNotFoundException {
        try {
            return frameworkLoader.loadClass(className);
        } catch (ClassNotFoundException notShared) {
            try {
                return findClass(className);
            } catch (ClassNotFoundException e) {
                throw neither(className, notShared);
            }
        }
    }

    private Class<?> loadPluginFirst(String className) throws ClassNotFoundException {
        try {
            return findClass(className);
        } catch (ClassNotFoundException notOwn) {
            try {
                return frameworkLoader.loadClass(className);
            } catch (ClassNotFoundException e) {
                throw neither(className, e);
            }
        }
    }

    private Class<?> loadPluginOnly(String className) throws ClassNotFoundException {
        try {
            return findClass(className);
        } catch (ClassNotFoundException e) {
            throw new ClassNotFoundException(className + " (not in plugin '" + pluginId + "'; a plugin takes "
                    + "this package from its own jars only, never from the framework or the cluster: see "
                    + ClassLoadingRule.class.getName() + ")");
        }
    }

    private ClassNotFoundException neither(String className, ClassNotFoundException cause) {
        return new ClassNotFoundException(
                className + " (neither the framework nor plugin '" + pluginId + "' has it)", cause);
    }

    @Override
    public URL getResource(String name) {
        switch (rule.originOf(name)) {
            case JDK:
                return getParent().getResource(name);
            case FRAMEWORK_ONLY:
                return frameworkLoader.getResource(name);
            case SHARED:
                URL shared = frameworkLoader.getResource(name);
                return shared != null ? shared : findResource(name);
            case PLUGIN_FIRST:
                URL own = findResource(name);
                return own != null ? own : frameworkLoader.getResource(name);
            case PLUGIN_ONLY:
            default:
                return findResource(name);
        }
    }

    /** All copies of a resource its origin allows, in the order its classes are looked up. */
    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        List<URL> urls = new ArrayList<>();
        switch (rule.originOf(name)) {
            case JDK:
                urls.addAll(Collections.list(getParent().getResources(name)));
                break;
            case FRAMEWORK_ONLY:
                urls.addAll(Collections.list(frameworkLoader.getResources(name)));
                break;
            case SHARED:
                urls.addAll(Collections.list(frameworkLoader.getResources(name)));
                urls.addAll(Collections.list(findResources(name)));
                break;
            case PLUGIN_FIRST:
                urls.addAll(Collections.list(findResources(name)));
                urls.addAll(Collections.list(frameworkLoader.getResources(name)));
                break;
            case PLUGIN_ONLY:
            default:
                urls.addAll(Collections.list(findResources(name)));
                break;
        }
        return Collections.enumeration(urls);
    }

    @Override
    public String toString() {
        return "IsolatingPluginClassLoader[" + pluginId + "]";
    }
}
