package io.sluice.runtime.plugin;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.SluiceFactory;

/** Finding an extension the way {@code ...kind = custom} options name it. */
public final class Extensions {

    private Extensions() {}

    /**
     * The extension with identifier {@code name}, or whose factory class is named {@code name}.
     *
     * @throws IllegalArgumentException naming the option, the value, what is available and the
     *     plugins that failed to load or were refused
     */
    public static <T extends SluiceFactory> T byNameOrClass(
            ExtensionLookup extensions, Class<T> type, String name, String option) {
        for (String id : extensions.identifiers(type)) {
            T factory = extensions.find(type, id);
            Object inner = factory instanceof PluginBound ? ((PluginBound) factory).unwrap() : factory;
            if (id.equals(name) || inner.getClass().getName().equals(name)) {
                return factory;
            }
        }
        try {
            // the lookup's own error lists what is available and every plugin that failed or was
            // refused (an SPI it was not built for ...), which is often why the name is missing
            return extensions.find(type, name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Invalid '" + option + "' '" + name + "', neither the identifier nor the class of a "
                            + type.getSimpleName() + ": " + e.getMessage(),
                    e);
        }
    }
}
