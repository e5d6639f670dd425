package io.sluice.runtime.plugin;

import org.pf4j.CompoundPluginLoader;
import org.pf4j.DefaultPluginLoader;
import org.pf4j.DefaultPluginManager;
import org.pf4j.ExtensionFinder;
import org.pf4j.JarPluginLoader;
import org.pf4j.LegacyExtensionFinder;
import org.pf4j.PluginClassLoader;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginLoader;

import java.nio.file.Path;

/**
 * PF4J's plugin manager with Sluice's class loading: every plugin, directory or jar, gets an
 * {@link IsolatingPluginClassLoader}, and extensions are found only through a plugin's extension
 * index ({@code META-INF/extensions.idx}), never through service files of the libraries it bundles.
 */
final class IsolatingPluginManager extends DefaultPluginManager {

    private final ClassLoadingRule rule;

    IsolatingPluginManager(Path pluginsDir, ClassLoadingRule rule) {
        super(pluginsDir);
        this.rule = rule;
    }

    @Override
    protected PluginLoader createPluginLoader() {
        return new CompoundPluginLoader()
                .add(new JarPluginLoader(this) {
                    @Override
                    protected PluginClassLoader createPluginClassLoader(Path path, PluginDescriptor d) {
                        return newLoader(d);
                    }
                })
                .add(new DefaultPluginLoader(this) {
                    @Override
                    protected PluginClassLoader createPluginClassLoader(Path path, PluginDescriptor d) {
                        return newLoader(d);
                    }
                });
    }

    @Override
    protected ExtensionFinder createExtensionFinder() {
        return new LegacyExtensionFinder(this);
    }

    /** The descriptor of the plugin at {@code path}, read without loading it. */
    PluginDescriptor readDescriptor(Path path) {
        return getPluginDescriptorFinder().find(path);
    }

    private PluginClassLoader newLoader(PluginDescriptor descriptor) {
        // the rule is read here, not captured: createPluginLoader runs inside the super constructor
        return new IsolatingPluginClassLoader(
                this,
                descriptor,
                IsolatingPluginManager.class.getClassLoader(),
                rule != null ? rule : ClassLoadingRule.defaults());
    }
}
