package io.sluice.partfiles.testing;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.SluiceFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An {@link ExtensionLookup} of the given factories, each under every SPI interface it implements
 * (also those its interfaces extend, as format capabilities do): what a plugin's extensions are to
 * the engine's format writers and readers.
 */
public final class TestFormats implements ExtensionLookup {

    private final Map<Class<?>, Map<String, SluiceFactory>> factories = new java.util.LinkedHashMap<>();

    public TestFormats(SluiceFactory... all) {
        register(all);
    }

    /** The test formats {@code lines} and {@code bulk-lines}. */
    public static TestFormats lines() {
        return new TestFormats(new LinesFormatFactory(), new BulkLinesFormatFactory());
    }

    public void register(SluiceFactory... all) {
        for (SluiceFactory f : all) {
            registerAs(f, f.getClass());
        }
    }

    private void registerAs(SluiceFactory f, Class<?> type) {
        for (Class<?> spi : type.getInterfaces()) {
            if (SluiceFactory.class.isAssignableFrom(spi) && spi != SluiceFactory.class) {
                factories.computeIfAbsent(spi, t -> new TreeMap<>()).put(f.identifier(), f);
                registerAs(f, spi);
            }
        }
    }

    @Override
    public <T extends SluiceFactory> T find(Class<T> type, String identifier) {
        SluiceFactory f = factories.getOrDefault(type, Collections.emptyMap()).get(identifier);
        if (f == null) {
            throw new IllegalArgumentException("No " + type.getSimpleName() + " '" + identifier + "'; available: "
                    + identifiers(type));
        }
        return type.cast(f);
    }

    @Override
    public List<String> identifiers(Class<? extends SluiceFactory> type) {
        return new ArrayList<>(factories.getOrDefault(type, Collections.emptyMap()).keySet());
    }
}
