package io.sluice.testkit;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.SluiceFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An {@link ExtensionLookup} over factory instances a test hands it, without plugin loading: each
 * factory is found under every SPI interface it implements, also those its interfaces extend (a
 * csv format as {@code FormatFactory}, {@code RowEncodingFormat} and {@code StreamReadingFormat}),
 * as the framework's registry finds it.
 */
public final class TestExtensions implements ExtensionLookup {

    private final Map<Class<?>, Map<String, SluiceFactory>> byType = new HashMap<>();

    /** A lookup of the given factories. */
    public static TestExtensions of(SluiceFactory... factories) {
        TestExtensions extensions = new TestExtensions();
        for (SluiceFactory f : factories) {
            extensions.add(f);
        }
        return extensions;
    }

    /** Adds a factory; a later one of the same type and identifier replaces the earlier. */
    public TestExtensions add(SluiceFactory factory) {
        register(factory, factory.getClass());
        return this;
    }

    private void register(SluiceFactory factory, Class<?> type) {
        for (Class<?> spi : type.getInterfaces()) {
            if (SluiceFactory.class.isAssignableFrom(spi) && spi != SluiceFactory.class) {
                byType.computeIfAbsent(spi, t -> new TreeMap<>()).put(factory.identifier(), factory);
                register(factory, spi);
            }
        }
        if (type.getSuperclass() != null) {
            register(factory, type.getSuperclass());
        }
    }

    @Override
    public <T extends SluiceFactory> T find(Class<T> type, String identifier) {
        SluiceFactory f = byType.getOrDefault(type, Collections.emptyMap()).get(identifier);
        if (f == null) {
            throw new IllegalArgumentException("No " + type.getSimpleName() + " named '" + identifier + "'. Available: "
                    + identifiers(type) + " (a test's extensions)");
        }
        return type.cast(f);
    }

    @Override
    public List<String> identifiers(Class<? extends SluiceFactory> type) {
        return new ArrayList<>(byType.getOrDefault(type, Collections.emptyMap()).keySet());
    }
}
