package io.sluice.runtime.table;

import io.sluice.runtime.config.Secrets;
import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.catalog.CatalogContext;
import io.sluice.spi.catalog.TargetCatalogFactory;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.GenericInMemoryCatalog;
import org.apache.flink.table.factories.CatalogFactory;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code CREATE CATALOG c WITH ('type' = 'sluice', 'target' = 'iceberg', ...)}: finds the target's
 * {@link TargetCatalogFactory} in the plugins and wraps the catalog it makes in a {@link
 * SluiceCatalog}. The plugin settings ({@code sluice.plugins.dir} ...) are the framework's; every
 * other option goes to the plugin, which reports invalid ones.
 */
public final class SluiceCatalogFactory implements CatalogFactory {

    private static final List<String> PLUGIN_SETTINGS = Arrays.asList(
            PluginSettings.PLUGINS_DIR,
            PluginSettings.PLUGINS_ENABLED,
            PluginSettings.PARENT_FIRST_ADDITIONAL,
            PluginSettings.PLUGIN_FIRST_ADDITIONAL);

    @Override
    public String factoryIdentifier() {
        return SluiceDynamicTableFactory.IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Collections.singleton(SluiceOptions.TARGET);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return new HashSet<>(); // the target's catalog checks its own options
    }

    @Override
    public Catalog createCatalog(Context context) {
        Map<String, String> options = new LinkedHashMap<>(context.getOptions());
        options.remove("type");
        String target = options.remove(SluiceOptions.TARGET.key());
        Map<String, String> settings = new LinkedHashMap<>();
        for (String key : PLUGIN_SETTINGS) {
            String value = options.remove(key);
            if (value != null) {
                settings.put(key, value);
            }
        }
        try {
            if (target == null) {
                throw new IllegalArgumentException("Missing required option 'target'");
            }
            PluginRegistry registry = PluginRegistry.get(PluginSettings.fromOptions(settings));
            TargetCatalogFactory factory = registry.find(TargetCatalogFactory.class, target);
            CatalogContext catalogContext = new PluginCatalogContext(context.getName(), options, registry);
            return SluiceCatalog.create(
                    factory.createCatalog(catalogContext), target, factory, catalogContext, settings);
        } catch (RuntimeException e) {
            String message = e instanceof IllegalArgumentException || e instanceof IllegalStateException
                    ? "Invalid options of catalog '" + context.getName() + "' ('type' = 'sluice'): " + e.getMessage()
                    : "Cannot create catalog '" + context.getName() + "' ('type' = 'sluice'): " + e;
            return new InvalidCatalog(
                    context.getName(),
                    new ValidationException(
                            Secrets.scrub(message, context.getOptions()), Secrets.scrub(e, context.getOptions())));
        }
    }

    /**
     * What the factory returns for a catalog it cannot create: one that fails with the (masked)
     * error when Flink opens it, right after this factory returns.
     *
     * <p>Why not throw here: Flink 1.20's {@code FactoryUtil.createCatalog} wraps a factory's
     * exception in "Unable to create catalog ... Catalog options are: ...", listing every option
     * and masking only the keys {@code GlobalConfiguration.isSensitive} knows; and a {@code
     * CatalogException} from {@code open()} is wrapped by {@code CreateCatalogOperation} in "Could
     * not execute CREATE CATALOG: (... properties: [...])", masking none. A {@code
     * ValidationException} from {@code open()} reaches the user as it is.
     */
    private static final class InvalidCatalog extends GenericInMemoryCatalog {
        private final ValidationException error;

        InvalidCatalog(String name, ValidationException error) {
            super(name);
            this.error = error;
        }

        @Override
        public void open() {
            throw error;
        }
    }

    private static final class PluginCatalogContext implements CatalogContext {
        private final String name;
        private final Map<String, String> options;
        private final ExtensionLookup extensions;

        PluginCatalogContext(String name, Map<String, String> options, ExtensionLookup extensions) {
            this.name = name;
            this.options = Collections.unmodifiableMap(options);
            this.extensions = extensions;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Map<String, String> options() {
            return options;
        }

        @Override
        public ExtensionLookup extensions() {
            return extensions;
        }
    }
}
