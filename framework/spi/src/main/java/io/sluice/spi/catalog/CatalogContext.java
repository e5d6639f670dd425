package io.sluice.spi.catalog;

import io.sluice.spi.ExtensionLookup;

import java.util.Map;

/** What a {@link TargetCatalogFactory} gets to create a catalog. */
public interface CatalogContext {

    /** The catalog's name in Flink. */
    String name();

    /**
     * The catalog's options as given in {@code CREATE CATALOG}, without {@code type}, {@code
     * target} and the framework's plugin settings.
     */
    Map<String, String> options();

    /** Every plugin's extensions. */
    ExtensionLookup extensions();
}
