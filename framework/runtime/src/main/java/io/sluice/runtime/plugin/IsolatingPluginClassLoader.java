package io.sluice.runtime.plugin;

import org.pf4j.PluginClassLoader;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginManager;

/**
 * The class loader of one plugin. Its parent is the platform class loader, so a plugin sees the
 * JDK and its own jars and nothing of the job's or the cluster's classpath, except the prefixes in
 * {@link ParentFirstPatterns}: those are asked of the framework's class loader first and fall back
 * to the plugin's jars only when the framework does not have the class (a plugin may bundle Flink
 * connector code that the cluster lacks). Flink format and connector modules a plugin bundles are
 * the exception: plugin first ({@link ParentFirstPatterns#isPluginFirst}).
 *
 * <p>PF4J's own loader delegates {@code org.pf4j.} to its parent and nothing else, which is why
 * {@link #loadClass(String)} is replaced here as a whole. Resources follow the same rule as
 * non-shared classes: the JDK's, then the plugin's, so a {@link java.util.ServiceLoader} inside a
 * plugin finds the plugin's providers only.
 */
public class IsolatingPluginClassLoader extends PluginClassLoader {

    static {
        ClassLoader.registerAsParallelCapable();
    }

    private final ClassLoader frameworkLoader;
    private final ParentFirstPatterns parentFirst;
    private final String pluginId;

    public IsolatingPluginClassLoader(
            PluginManager pluginManager,
            PluginDescriptor descriptor,
            ClassLoader frameworkLoader,
            ParentFirstPatterns parentFirst) {
        super(pluginManager, descriptor, ClassLoader.getPlatformClassLoader());
        this.frameworkLoader = frameworkLoader;
        this.parentFirst = parentFirst;
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
            Class<?> c = findLoadedClass(className);
            if (c == null) {
                if (parentFirst.isPluginFirst(className)) {
                    c = loadPluginFirst(className);
                } else if (parentFirst.isParentFirst(className)) {
                    c = loadShared(className);
                } else {
                    c = loadOwn(className);
                }
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    private Class<?> loadShared(String className) throws ClassNotFoundException {
        try {
            return frameworkLoader.loadClass(className);
        } catch (ClassNotFoundException notShared) {
            try {
                return findClass(className);
            } catch (ClassNotFoundException e) {
                throw new ClassNotFoundException(
                        className + " (neither the framework nor plugin '" + pluginId + "' has it)",
                        notShared);
            }
        }
    }

    private Class<?> loadPluginFirst(String className) throws ClassNotFoundException {
        try {
            return findClass(className);
        } catch (ClassNotFoundException notOwn) {
            return loadShared(className);
        }
    }

    private Class<?> loadOwn(String className) throws ClassNotFoundException {
        try {
            return getParent().loadClass(className); // the JDK's classes only
        } catch (ClassNotFoundException notJdk) {
            try {
                return findClass(className);
            } catch (ClassNotFoundException e) {
                throw new ClassNotFoundException(
                        className + " (not in plugin '" + pluginId + "'; plugins see only their own"
                                + " jars, the JDK and the prefixes " + parentFirst.prefixes() + ")");
            }
        }
    }

    @Override
    public String toString() {
        return "IsolatingPluginClassLoader[" + pluginId + "]";
    }
}
