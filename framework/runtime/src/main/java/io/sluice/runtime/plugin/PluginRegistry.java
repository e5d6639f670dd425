package io.sluice.runtime.plugin;

import io.sluice.runtime.plugin.wrap.SpiWrappers;
import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.SpiVersion;

import org.apache.flink.util.TemporaryClassLoaderContext;
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
        FlinkFileSystems.loadBeforePlugins();
        this.manager = new IsolatingPluginManager(settings.pluginsDir(), settings.classLoadingRule());
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
            throw new IllegalArgumentException("Plugins directory " + dir
                    + " does not exist or is not a directory (set '" + PluginSettings.PLUGINS_DIR + "')");
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
        failClashingPlugins();
        failUnknownEnabledIds();
        for (PluginInfo info : plugins.values()) {
            if (info.status() == PluginInfo.Status.FAILED) {
                LOG.error("Sluice plugin {} in {} failed: {}", info.id(), info.path(), info.error());
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
            if (Files.isDirectory(unpacked)
                    && !Files.isRegularFile(unpacked.resolve("plugin.properties"))
                    && !Files.isRegularFile(unpacked.resolve("META-INF/MANIFEST.MF"))) {
                fail(
                        name,
                        path,
                        "no plugin.properties in " + unpacked
                                + " (a plugin folder needs one with plugin.id, plugin.version and plugin.requires)");
                return;
            }
            descriptor = manager.readDescriptor(unpacked);
            String id = descriptor.getPluginId();
            if (id == null || id.isEmpty()) {
                fail(name, path, "no plugin id in its descriptor (plugin.properties or MANIFEST.MF)");
                return;
            }
            PluginInfo existing = plugins.get(id);
            if (existing != null) {
                fail(
                        id + " (" + name + ")",
                        path,
                        "duplicate plugin id '" + id + "': already loaded from " + existing.path());
                return;
            }
            String version = descriptor.getVersion();
            String badVersion = malformedVersion(version);
            if (badVersion != null) {
                // a version PF4J cannot compare ('one.two') used to load; the version is what 'sluice plugins' reports
                // and what a
                // plugin's dependants compare against
                failDescribed(
                        id,
                        String.valueOf(version),
                        descriptor.getRequires(),
                        path,
                        "plugin '" + id + "' in " + path + " has a malformed plugin.version '" + version + "' ("
                                + badVersion + "); expected a semantic version such as 1.0.0");
                return;
            }
            String noCode = noCode(unpacked);
            if (noCode != null) {
                // a folder without jars used to load, offering nothing
                failDescribed(
                        id,
                        version,
                        descriptor.getRequires(),
                        path,
                        "plugin '" + id + "' in " + path + " has no code: " + noCode);
                return;
            }
            if (!settings.enabled().isEmpty() && !settings.enabled().contains(id)) {
                plugins.put(
                        id,
                        new PluginInfo(
                                id,
                                descriptor.getVersion(),
                                descriptor.getRequires(),
                                path,
                                PluginInfo.Status.DISABLED,
                                null,
                                Collections.emptyMap()));
                return;
            }
            String requires = descriptor.getRequires();
            boolean compatible;
            boolean unbounded;
            try {
                compatible = manager.getVersionManager().checkVersionConstraint(SpiVersion.CURRENT, requires);
                // PF4J reads a missing plugin.requires as '*', and '>=1.1.0' admits every later major too
                unbounded = manager.getVersionManager().checkVersionConstraint(nextMajor(SpiVersion.CURRENT), requires);
            } catch (RuntimeException e) {
                failDescribed(
                        id,
                        descriptor.getVersion(),
                        requires,
                        path,
                        "plugin '" + id + "' has a malformed plugin.requires '" + requires + "' ("
                                + e.getClass().getSimpleName()
                                + (e.getMessage() == null ? "" : ": " + e.getMessage())
                                + "); expected an SPI version range such as "
                                + exampleRequirement());
                return;
            }
            String corrupt = corruptJar(unpacked);
            if (corrupt != null) {
                failDescribed(
                        id,
                        descriptor.getVersion(),
                        requires,
                        path,
                        "plugin '" + id + "' has a corrupt jar: " + corrupt);
                return;
            }
            if (!compatible) {
                failDescribed(
                        id,
                        descriptor.getVersion(),
                        requires,
                        path,
                        "plugin '" + id + "' requires SPI " + requires + " but this framework provides SPI "
                                + SpiVersion.CURRENT
                                + (builtForEarlierMajor(requires)
                                        ? "; it was built for an earlier major of the SPI, whose types changed:"
                                                + " rebuild it against sluice-spi " + SpiVersion.CURRENT
                                                + " and declare plugin.requires " + exampleRequirement()
                                        : "; upgrade Sluice or use a plugin built for SPI " + SpiVersion.CURRENT));
                return;
            }
            if (unbounded) {
                // a plugin built for an earlier major would die with AbstractMethodError or NoSuchMethodError
                failDescribed(
                        id,
                        descriptor.getVersion(),
                        requires,
                        path,
                        "plugin '" + id + "' requires SPI "
                                + (requires == null || requires.isEmpty() ? "*" : requires)
                                + ", which admits SPI " + nextMajor(SpiVersion.CURRENT)
                                + " and later majors too; a major version"
                                + " of the SPI may break a plugin, so plugin.requires must end before the next major: for a"
                                + " plugin built for this framework's SPI " + SpiVersion.CURRENT + ", "
                                + exampleRequirement());
                return;
            }
            manager.loadPlugin(unpacked);
            manager.startPlugin(id);
            PluginWrapper wrapper = manager.getPlugin(id);
            if (wrapper.getFailedException() != null) {
                throw wrapper.getFailedException();
            }
            plugins.put(
                    id,
                    new PluginInfo(
                            id,
                            descriptor.getVersion(),
                            requires,
                            path,
                            PluginInfo.Status.LOADED,
                            null,
                            Collections.emptyMap()));
        } catch (Throwable t) {
            fail(name, path, describe(t));
        }
    }

    /** The first version of the major after {@code version} ({@code major.minor.patch}): 2.3.1 -> 3.0.0. */
    static String nextMajor(String version) {
        int dot = version.indexOf('.');
        return (Integer.parseInt(dot < 0 ? version : version.substring(0, dot)) + 1) + ".0.0";
    }

    /**
     * Whether a requirement this framework's SPI does not meet is one of a plugin built for an
     * earlier major (it admits the last version of the major before), rather than a later SPI.
     */
    private boolean builtForEarlierMajor(String requires) {
        int major = Integer.parseInt(SpiVersion.CURRENT.substring(0, SpiVersion.CURRENT.indexOf('.')));
        return major > 0
                && manager.getVersionManager()
                        .checkVersionConstraint(
                                (major - 1) + "." + Integer.MAX_VALUE + "." + Integer.MAX_VALUE, requires);
    }

    /** The requirement of a plugin built for this framework's SPI, as a message shows it. */
    private static String exampleRequirement() {
        return "'>=" + SpiVersion.CURRENT + " & <" + nextMajor(SpiVersion.CURRENT) + "' (or '^" + SpiVersion.CURRENT
                + "')";
    }

    /** Records plugin {@code id} as FAILED for {@code reason}, with the version and requirement its descriptor gives. */
    private void failDescribed(String id, String version, String requires, Path path, String reason) {
        plugins.put(
                id,
                new PluginInfo(id, version, requires, path, PluginInfo.Status.FAILED, reason, Collections.emptyMap()));
    }

    private void fail(String key, Path path, String reason) {
        // logged with every other failure once the directory is loaded
        plugins.put(
                key,
                new PluginInfo(
                        key,
                        "?",
                        "?",
                        path,
                        PluginInfo.Status.FAILED,
                        "cannot load plugin from " + path + ": " + reason,
                        Collections.emptyMap()));
    }

    private static String describe(Throwable t) {
        if (t instanceof java.util.zip.ZipException) {
            return "corrupt plugin archive (" + t.getMessage() + ")";
        }
        String message = t.getMessage();
        return t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /**
     * Creates the plugin's extensions from its extension index and registers them, or none of them:
     * PF4J's own lookup logs and skips an indexed class that is missing or whose constructor
     * throws, which would leave a plugin LOADED without the extension it is installed for.
     */
    private void index(PluginInfo info) {
        String id = info.id();
        ClassLoader loader = manager.getPluginClassLoader(id);
        Map<String, List<String>> offered = new LinkedHashMap<>();
        List<Object[]> found = new ArrayList<>(); // SPI type, identifier, wrapped factory
        List<String> problems = new ArrayList<>();
        for (String className : new java.util.TreeSet<>(manager.getExtensionClassNames(id))) {
            Class<?> extensionClass;
            try {
                extensionClass = Class.forName(className, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                problems.add("its extension index (META-INF/extensions.idx) names " + className
                        + ", which the plugin cannot load (" + describe(e) + ")");
                continue;
            }
            if (io.sluice.spi.format.RowEncodingFormat.class.isAssignableFrom(extensionClass)
                    && io.sluice.spi.format.BulkWritingFormat.class.isAssignableFrom(extensionClass)) {
                // which one a sink would use is undefined; a format writes row by row or in bulk
                problems.add("extension " + className + " is both a RowEncodingFormat and a BulkWritingFormat;"
                        + " a format writes either row by row or in bulk");
                continue;
            }
            for (Class<? extends SluiceFactory> type : SpiWrappers.SPI_TYPES) {
                if (!type.isAssignableFrom(extensionClass)) {
                    continue;
                }
                try {
                    SluiceFactory wrapped = create(type, extensionClass, loader);
                    found.add(new Object[] {type, wrapped.identifier(), wrapped});
                } catch (Throwable t) {
                    problems.add("extension " + className + " (" + type.getSimpleName() + ") cannot be created: "
                            + describe(rootOfCreation(t)));
                }
            }
        }
        if (!problems.isEmpty()) {
            plugins.put(
                    id,
                    new PluginInfo(
                            id,
                            info.version(),
                            info.requiredSpi(),
                            info.path(),
                            PluginInfo.Status.FAILED,
                            "plugin '" + id + "': " + String.join("; ", problems),
                            Collections.emptyMap()));
            return;
        }
        for (Object[] f : found) {
            @SuppressWarnings("unchecked")
            Class<? extends SluiceFactory> type = (Class<? extends SluiceFactory>) f[0];
            String identifier = (String) f[1];
            offered.computeIfAbsent(type.getSimpleName(), k -> new ArrayList<>())
                    .add(identifier);
            Map<String, Registered> byId = extensions.computeIfAbsent(type, k -> new TreeMap<>());
            Registered previous = byId.get(identifier);
            if (previous != null) {
                List<String> owners = clashes.computeIfAbsent(type, k -> new TreeMap<>())
                        .computeIfAbsent(identifier, k -> new ArrayList<>(List.of(previous.pluginId)));
                owners.add(id);
            } else {
                byId.put(identifier, new Registered(id, (SluiceFactory) f[2]));
            }
        }
        plugins.put(
                id,
                new PluginInfo(
                        id, info.version(), info.requiredSpi(), info.path(), PluginInfo.Status.LOADED, null, offered));
    }

    private <T extends SluiceFactory> T create(Class<T> type, Class<?> extensionClass, ClassLoader loader) {
        // a constructor that looks up services or classes does so through the plugin's loader, as every later call does
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return SpiWrappers.wrap(
                    type, type.cast(manager.getExtensionFactory().create(extensionClass)), loader);
        }
    }

    /** What a constructor threw, without PF4J's and reflection's wrappers. */
    private static Throwable rootOfCreation(Throwable t) {
        Throwable cause = t;
        while ((cause instanceof org.pf4j.PluginRuntimeException
                        || cause instanceof java.lang.reflect.InvocationTargetException
                        || cause instanceof ExceptionInInitializerError)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /**
     * Every plugin offering an extension identifier that another plugin offers for the same SPI
     * fails, naming the others: which one a job would get is an accident of load order. Their
     * other extensions stay available; the shared identifier serves neither ({@link #find}).
     */
    private void failClashingPlugins() {
        Map<String, List<String>> reasons = new TreeMap<>();
        clashes.forEach((type, byId) -> byId.forEach((identifier, owners) -> {
            for (String owner : owners) {
                List<String> others = new ArrayList<>(owners);
                others.remove(owner);
                reasons.computeIfAbsent(owner, k -> new ArrayList<>())
                        .add(type.getSimpleName() + " '" + identifier + "' is offered by plugin "
                                + String.join(", ", others) + " too");
            }
        }));
        reasons.forEach((owner, clash) -> {
            PluginInfo p = plugins.get(owner);
            plugins.put(
                    owner,
                    new PluginInfo(
                            owner,
                            p.version(),
                            p.requiredSpi(),
                            p.path(),
                            PluginInfo.Status.FAILED,
                            "plugin '" + owner + "' clashes: " + String.join("; ", clash)
                                    + "; remove one or enable only one with '" + PluginSettings.PLUGINS_ENABLED + "'",
                            p.extensions()));
        });
    }

    /** An id in the enabled list that no plugin of the directory has: a typo that would silently disable a plugin. */
    private void failUnknownEnabledIds() {
        List<String> available = new ArrayList<>();
        for (PluginInfo p : plugins.values()) {
            if (!"?".equals(p.version())) {
                available.add(p.id());
            }
        }
        for (String enabled : settings.enabled()) {
            if (!plugins.containsKey(enabled)) {
                plugins.put(
                        enabled,
                        new PluginInfo(
                                enabled,
                                "?",
                                "?",
                                settings.pluginsDir(),
                                PluginInfo.Status.FAILED,
                                "'" + PluginSettings.PLUGINS_ENABLED + "' names plugin '" + enabled
                                        + "', which is not in " + settings.pluginsDir() + "; plugins there: "
                                        + available,
                                Collections.emptyMap()));
            }
        }
    }

    /** Why {@code version} is not a semantic version (major.minor.patch, as PF4J compares them), or null. */
    private String malformedVersion(String version) {
        if (version == null || version.trim().isEmpty()) {
            return "empty";
        }
        try {
            manager.getVersionManager().compareVersions(version, version);
            return null;
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        }
    }

    /**
     * Why a plugin folder holds no code PF4J would load (no jar or zip in {@code lib/}, no {@code
     * classes/} folder), or null; a plugin that is itself a jar has code.
     */
    private static String noCode(Path plugin) {
        if (Files.isRegularFile(plugin)) {
            return null;
        }
        Path classes = plugin.resolve("classes");
        if (Files.isDirectory(classes)) {
            return null;
        }
        Path lib = plugin.resolve("lib");
        if (Files.isDirectory(lib)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(lib, "*.{jar,zip}")) {
                if (entries.iterator().hasNext()) {
                    return null;
                }
            } catch (IOException e) {
                return lib + " cannot be listed (" + e + ")";
            }
        }
        return "no jar in " + lib + " and no folder " + classes;
    }

    /** The first jar of the plugin that is not a readable archive (truncated, not a zip), or null. */
    private static String corruptJar(Path plugin) {
        List<Path> jars = new ArrayList<>();
        if (Files.isRegularFile(plugin)) {
            jars.add(plugin);
        } else {
            Path lib = plugin.resolve("lib");
            if (Files.isDirectory(lib)) {
                try (DirectoryStream<Path> entries = Files.newDirectoryStream(lib, "*.{jar,zip}")) {
                    entries.forEach(jars::add);
                } catch (IOException e) {
                    return lib + " cannot be listed (" + e + ")";
                }
            }
        }
        Collections.sort(jars);
        for (Path jar : jars) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                // the central directory is read on open: a truncated jar has none
                zip.size();
            } catch (IOException e) {
                return jar + " is not a readable jar (" + e.getMessage() + ")";
            }
        }
        return null;
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
            throw new IllegalArgumentException("More than one plugin offers " + type.getSimpleName() + " '" + identifier
                    + "': " + owners + " in " + settings.pluginsDir() + "; enable only one with '"
                    + PluginSettings.PLUGINS_ENABLED + "'");
        }
        Registered r = extensions.getOrDefault(type, Collections.emptyMap()).get(identifier);
        if (r == null) {
            StringBuilder failed = new StringBuilder();
            for (PluginInfo p : plugins.values()) {
                if (p.status() == PluginInfo.Status.FAILED) {
                    failed.append("\n  failed plugin ")
                            .append(p.id())
                            .append(": ")
                            .append(p.error());
                } else if (p.status() == PluginInfo.Status.DISABLED) {
                    failed.append("\n  disabled plugin ")
                            .append(p.id())
                            .append(": not in '")
                            .append(PluginSettings.PLUGINS_ENABLED)
                            .append("' = ")
                            .append(settings.enabled());
                }
            }
            throw new IllegalArgumentException("No " + type.getSimpleName() + " named '" + identifier + "'. Available: "
                    + identifiers(type) + " (plugins directory " + settings.pluginsDir() + ")" + failed);
        }
        return r;
    }

    @Override
    public List<String> identifiers(Class<? extends SluiceFactory> type) {
        return new ArrayList<>(
                extensions.getOrDefault(type, Collections.emptyMap()).keySet());
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
