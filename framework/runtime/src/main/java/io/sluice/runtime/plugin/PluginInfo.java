package io.sluice.runtime.plugin;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** What the registry knows about one plugin: for {@code bin/sluice plugins} and error messages. */
public final class PluginInfo {

    /** The state of a plugin in the registry. */
    public enum Status {
        /** Loaded and started; its extensions are available. */
        LOADED,
        /** Present but not in {@code sluice.plugins.enabled}. */
        DISABLED,
        /**
         * Could not be loaded, or is unusable as installed; see {@link #error()}. A plugin that
         * offers an extension name another plugin offers too is FAILED with its other extensions
         * still available: the shared name serves neither.
         */
        FAILED
    }

    private final String id;
    private final String version;
    private final String requiredSpi;
    private final Path path;
    private final Status status;
    private final String error;
    private final Map<String, List<String>> extensions;

    PluginInfo(
            String id,
            String version,
            String requiredSpi,
            Path path,
            Status status,
            String error,
            Map<String, List<String>> extensions) {
        this.id = id;
        this.version = version;
        this.requiredSpi = requiredSpi;
        this.path = path;
        this.status = status;
        this.error = error;
        this.extensions = Collections.unmodifiableMap(extensions);
    }

    /** The plugin id, or the file name where the descriptor could not be read. */
    public String id() {
        return id;
    }

    public String version() {
        return version;
    }

    /** The SPI version constraint the plugin declares ({@code plugin.requires}). */
    public String requiredSpi() {
        return requiredSpi;
    }

    public Path path() {
        return path;
    }

    public Status status() {
        return status;
    }

    /** Why the plugin failed, or {@code null}. */
    public String error() {
        return error;
    }

    /** Extension identifiers by SPI simple name, e.g. {@code FormatFactory -> [csv, json]}. */
    public Map<String, List<String>> extensions() {
        return extensions;
    }

    @Override
    public String toString() {
        return id + " " + version + " [" + status + "]" + (error == null ? "" : ": " + error);
    }
}
