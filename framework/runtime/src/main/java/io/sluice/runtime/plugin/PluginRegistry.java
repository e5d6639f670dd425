package io.sluice.runtime.plugin;

import io.sluice.runtime.plugin.wrap.SpiWrappers;
import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.SpiVersion;

import org.pf4j.PluginDescriptor;
import org.pf4j.PluginWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.ZipFile;

/**
 * The plugins of one plugins directory, loaded once per JVM and kept for the life of the process
 * (or, where the framework ships inside a job jar, of the job's class loader).
 *
 * <p>Plugins are loaded one by one, so a missing, corrupt, duplicate or incompatible plugin is
 * recorded with its reason ({@link #plugins()}) and does not stop the others. Extensions are
 * indexed by SPI type and identifier at load time; everything handed out is wrapped so calls run
 * under the owning plugin's context class loader.
 */
public final class PluginRegistry implements ExtensionLookup, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PluginRegistry.class);
    private static final Map<PluginSettings, PluginRegistry> REGISTRIES = new ConcurrentHashMap<>();

    private final PluginSettings settings;
    private final IsolatingPluginManager manager;
    private final Map<String, PluginInfo> plugins = new TreeMap<>();
    /** SPI type -> identifier -> extension. */
    private final Map<Class<?>, Map<String, Registered>> extensions = new LinkedHashMap<>();
    /** SPI type -> identifier -> plugin ids offering it, where more than one does. */
    private final Map<Class<?>, Map<String, List<String>>> clashes = new LinkedHashMap<>();

    private PluginRegistry(PluginSettings settings) {
        this.settings = settings;
        this.manager = new IsolatingPluginManager(settings.pluginsDir(), settings.parentFirstPatterns());
        load();
    }

    /**
     * The registry of these settings in this JVM, loading it on first use.
     *
     * @throws IllegalArgumentException if the plugins directory does not exist or holds no plugin
     */
    public static PluginRegistry get(PluginSettings settings) {
        return REGISTRIES.computeIfAbsent(settings, PluginRegistry::new);
    }

    /** Closes and forgets every registry of this JVM (class loader); used by release hooks. */
    public static void closeAll() {
        for (PluginRegistry r : new ArrayList<>(REGISTRIES.values())) {
            r.close();
        }
    }

    private void load() {
        Path dir = settings.pluginsDir();
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(
                    "Plugins directory " + dir + " does not exist or is not a directory (set '"
                            + PluginSettings.PLUGINS_DIR + "')");
        }
        List<Path> candidates = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (name.startsWith(".")) {
                    continue;
                }
                if (Files.isDirectory(p) || name.endsWith(".zip") || name.endsWith(".jar")) {
                    // a zip is unpacked by PF4J next to itself; skip a zip whose folder is present
                    if (name.endsWith(".zip") && Files.isDirectory(dir.resolve(name.substring(0, name.length() - 4)))) {
                        continue;
                    }
                    candidates.add(p);
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot list plugins directory " + dir + ": " + e, e);
        }
        Collections.sort(candidates);
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException(
                    "Plugins directory " + dir + " holds no plugin (expected one folder, zip or jar per plugin)");
        }
        for (Path candidate : candidates) {
            loadOne(candidate);
        }
        for (PluginInfo info : new ArrayList<>(plugins.values())) {
            if (info.status() == PluginInfo.Status.LOADED) {
                index(info);
            }
        }
        LOG.info("Sluice plugins in {}: {}", dir, plugins.values());
    }

    private void loadOne(Path path) {
        String name = path.getFileName().toString();
        PluginDescriptor descriptor;
        try {
            if (name.endsWith(".zip")) {
                try (ZipFile ignored = new ZipFile(path.toFile())) {
                    // only checks that the archive can be read
                }
            }
            Path unpacked = name.endsWith(".zip") ? org.pf4j.util.FileUtils.expandIfZip(path) : path;
            descriptor = manager.readDescriptor(unpacked);
            String id = descriptor.getPluginId();
            if (id == null || id.isEmpty()) {
                fail(name, path, "no plugin id in its descriptor (plugin.properties or MANIFEST.MF)");
                return;
            }
            PluginInfo existing = plugins.get(id);
            if (existing != null) {
                fail(id + " (" + name + ")", path, "duplicate plugin id '" + id + "': already loaded from " + existing.path());
                return;
            }
            if (!settings.enabled().isEmpty() && !settings.enabled().contains(id)) {
                plugins.put(id, new PluginInfo(id, descriptor.getVersion(), descriptor.getRequires(), path,
                        PluginInfo.Status.DISABLED, null, Collections.emptyMap()));
                return;
            }
            String requires = descriptor.getRequires();
            if (!manager.getVersionManager().checkVersionConstraint(SpiVersion.CURRENT, requires)) {
                plugins.put(id, new PluginInfo(id, descriptor.getVersion(), requires, path, PluginInfo.Status.FAILED,
                        "plugin '" + id + "' requires SPI " + requires + " but this framework provides SPI "
                                + SpiVersion.CURRENT + "; upgrade Sluice or use a plugin built for SPI " + SpiVersion.CURRENT,
                        Collections.emptyMap()));
                return;
            }
            manager.loadPlugin(unpacked);
            manager.startPlugin(id);
            PluginWrapper wrapper = manager.getPlugin(id);
            if (wrapper.getFailedException() != null) {
                throw wrapper.getFailedException();
            }
            plugins.put(id, new PluginInfo(id, descriptor.getVersion(), requires, path, PluginInfo.Status.LOADED, null,
                    Collections.emptyMap()));
        } catch (Throwable t) {
            fail(name, path, describe(t));
        }
    }

    private void fail(String key, Path path, String reason) {
        LOG.error("Sluice plugin {} in {} failed to load: {}", key, path, reason);
        plugins.put(key, new PluginInfo(key, "?", "?", path, PluginInfo.Status.FAILED,
                "cannot load plugin from " + path + ": " + reason, Collections.emptyMap()));
    }

    private static String describe(Throwable t) {
        if (t instanceof java.util.zip.ZipException) {
            return "corrupt plugin archive (" + t.getMessage() + ")";
        }
        String message = t.getMessage();
        return t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    private void index(PluginInfo info) {
        String id = info.id();
        ClassLoader loader = manager.getPluginClassLoader(id);
        Map<String, List<String>> offered = new LinkedHashMap<>();
        try {
            for (Class<? extends SluiceFactory> type : SpiWrappers.SPI_TYPES) {
                indexType(type, id, loader, offered);
            }
            plugins.put(id, new PluginInfo(id, info.version(), info.requiredSpi(), info.path(),
                    PluginInfo.Status.LOADED, null, offered));
        } catch (Throwable t) {
            plugins.put(id, new PluginInfo(id, info.version(), info.requiredSpi(), info.path(),
                    PluginInfo.Status.FAILED, "cannot instantiate extensions of plugin '" + id + "': " + describe(t),
                    Collections.emptyMap()));
        }
    }

    private <T extends SluiceFactory> void indexType(
            Class<T> type, String pluginId, ClassLoader loader, Map<String, List<String>> offered) {
        for (T factory : manager.getExtensions(type, pluginId)) {
            T wrapped = SpiWrappers.wrap(type, factory, loader);
            String identifier = wrapped.identifier();
            offered.computeIfAbsent(type.getSimpleName(), k -> new ArrayList<>()).add(identifier);
            Map<String, Registered> byId = extensions.computeIfAbsent(type, k -> new TreeMap<>());
            Registered previous = byId.get(identifier);
            if (previous != null) {
                List<String> owners = clashes.computeIfAbsent(type, k -> new TreeMap<>())
                        .computeIfAbsent(identifier, k -> new ArrayList<>(List.of(previous.pluginId)));
                owners.add(pluginId);
            } else {
                byId.put(identifier, new Registered(pluginId, wrapped));
            }
        }
    }

    @Override
    public <T extends SluiceFactory> T find(Class<T> type, String identifier) {
        return type.cast(findRegistered(type, identifier).factory);
    }

    /** The id of the plugin that offers the extension. */
    public String pluginOf(Class<? extends SluiceFactory> type, String identifier) {
        return findRegistered(type, identifier).pluginId;
    }

    private Registered findRegistered(Class<? extends SluiceFactory> type, String identifier) {
        List<String> owners = clashes.getOrDefault(type, Collections.emptyMap()).get(identifier);
        if (owners != null) {
            throw new IllegalArgumentException(
                    "More than one plugin offers " + type.getSimpleName() + " '" + identifier + "': " + owners
                            + " in " + settings.pluginsDir() + "; enable only one with '" + PluginSettings.PLUGINS_ENABLED + "'");
        }
        Registered r = extensions.getOrDefault(type, Collections.emptyMap()).get(identifier);
        if (r == null) {
            StringBuilder failed = new StringBuilder();
            for (PluginInfo p : plugins.values()) {
                if (p.status() == PluginInfo.Status.FAILED) {
                    failed.append("\n  failed plugin ").append(p.id()).append(": ").append(p.error());
                }
            }
            throw new IllegalArgumentException(
                    "No " + type.getSimpleName() + " named '" + identifier + "'. Available: " + identifiers(type)
                            + " (plugins directory " + settings.pluginsDir() + ")" + failed);
        }
        return r;
    }

    @Override
    public List<String> identifiers(Class<? extends SluiceFactory> type) {
        return new ArrayList<>(extensions.getOrDefault(type, Collections.emptyMap()).keySet());
    }

    /** Every plugin found in the directory, with its status. */
    public List<PluginInfo> plugins() {
        return new ArrayList<>(plugins.values());
    }

    /** The class loader of a loaded plugin. */
    public ClassLoader classLoader(String pluginId) {
        ClassLoader loader = manager.getPluginClassLoader(pluginId);
        if (loader == null) {
            throw new IllegalArgumentException("No loaded plugin '" + pluginId + "' in " + settings.pluginsDir());
        }
        return loader;
    }

    public PluginSettings settings() {
        return settings;
    }

    /**
     * Stops every plugin one at a time (PF4J's bulk stop can fail with a concurrent modification)
     * and closes their class loaders.
     */
    @Override
    public void close() {
        REGISTRIES.remove(settings, this);
        for (PluginWrapper plugin : new ArrayList<>(manager.getStartedPlugins())) {
            try {
                manager.stopPlugin(plugin.getPluginId());
            } catch (RuntimeException e) {
                LOG.warn("Stopping plugin {} failed", plugin.getPluginId(), e);
            }
        }
        for (PluginWrapper plugin : new ArrayList<>(manager.getPlugins())) {
            try {
                manager.unloadPlugin(plugin.getPluginId());
            } catch (RuntimeException e) {
                LOG.warn("Unloading plugin {} failed", plugin.getPluginId(), e);
            }
        }
    }

    private static final class Registered {
        final String pluginId;
        final SluiceFactory factory;

        Registered(String pluginId, SluiceFactory factory) {
            this.pluginId = pluginId;
            this.factory = factory;
        }
    }
}
