package io.sluice.spi;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SPI's public signatures name only the JDK, Flink's API and the SPI itself: never Avro,
 * Hadoop, Parquet, ORC, Iceberg, Hive, Jackson or Guava, whose versions differ per plugin (a
 * signature naming one would tie every plugin to the framework's copy), and none of Flink's
 * runtime internals. The module's dependencies (Flink API jars only, all provided) keep such types
 * from compiling; this test keeps them out if a dependency is ever added.
 */
class SpiSignaturesTest {

    /** Where a type in a public SPI signature may come from. */
    private static final List<String> ALLOWED = List.of(
            "java.",
            "javax.annotation.Nullable",
            "io.sluice.spi.",
            // Flink's API packages that the SPI's types build on (and Flink 2.x keeps)
            "org.apache.flink.api.common.serialization.",
            "org.apache.flink.api.common.typeinfo.",
            "org.apache.flink.api.connector.source.",
            "org.apache.flink.configuration.",
            "org.apache.flink.connector.file.src.",
            "org.apache.flink.core.fs.",
            "org.apache.flink.metrics.",
            "org.apache.flink.table.catalog.",
            "org.apache.flink.table.data.",
            "org.apache.flink.table.expressions.",
            "org.apache.flink.table.types.",
            "org.apache.flink.table.utils.");

    @Test
    void publicSignaturesNameOnlyTheJdkFlinksApiAndTheSpi() throws Exception {
        Set<String> offending = new TreeSet<>();
        List<Class<?>> types = spiTypes();
        assertThat(types).as("SPI types found").hasSizeGreaterThan(40);
        for (Class<?> type : types) {
            if (!Modifier.isPublic(type.getModifiers())) {
                continue;
            }
            List<Type> used = new ArrayList<>();
            used.add(type.getGenericSuperclass());
            used.addAll(List.of(type.getGenericInterfaces()));
            for (Method m : type.getDeclaredMethods()) {
                if (Modifier.isPublic(m.getModifiers()) || Modifier.isProtected(m.getModifiers())) {
                    used.add(m.getGenericReturnType());
                    used.addAll(List.of(m.getGenericParameterTypes()));
                    used.addAll(List.of(m.getGenericExceptionTypes()));
                }
            }
            for (Constructor<?> c : type.getDeclaredConstructors()) {
                if (Modifier.isPublic(c.getModifiers()) || Modifier.isProtected(c.getModifiers())) {
                    used.addAll(List.of(c.getGenericParameterTypes()));
                }
            }
            for (Field f : type.getDeclaredFields()) {
                if (Modifier.isPublic(f.getModifiers()) || Modifier.isProtected(f.getModifiers())) {
                    used.add(f.getGenericType());
                }
            }
            for (Type t : used) {
                for (Class<?> c : classesOf(t)) {
                    String name = c.getName();
                    if (!c.isPrimitive() && ALLOWED.stream().noneMatch(name::startsWith)) {
                        offending.add(type.getName() + " names " + name);
                    }
                }
            }
        }
        assertThat(offending)
                .as("types outside the JDK, Flink's API and the SPI in public SPI signatures")
                .isEmpty();
    }

    private static List<Class<?>> classesOf(Type t) {
        List<Class<?>> out = new ArrayList<>();
        if (t == null) {
            return out;
        }
        if (t instanceof Class) {
            Class<?> c = (Class<?>) t;
            while (c.isArray()) {
                c = c.getComponentType();
            }
            out.add(c);
        } else if (t instanceof ParameterizedType) {
            out.addAll(classesOf(((ParameterizedType) t).getRawType()));
            for (Type a : ((ParameterizedType) t).getActualTypeArguments()) {
                out.addAll(classesOf(a));
            }
        } else if (t instanceof GenericArrayType) {
            out.addAll(classesOf(((GenericArrayType) t).getGenericComponentType()));
        } else if (t instanceof WildcardType) {
            for (Type b : ((WildcardType) t).getUpperBounds()) {
                out.addAll(classesOf(b));
            }
            for (Type b : ((WildcardType) t).getLowerBounds()) {
                out.addAll(classesOf(b));
            }
        } else if (t instanceof TypeVariable) {
            for (Type b : ((TypeVariable<?>) t).getBounds()) {
                out.addAll(classesOf(b));
            }
        }
        return out;
    }

    /** Every class of the SPI module's output directory. */
    private static List<Class<?>> spiTypes() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Paths.get(SluiceFactory.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        List<String> names;
        try (Stream<Path> files = Files.walk(root)) {
            names = files.filter(p -> p.toString().endsWith(".class"))
                    .map(p -> root.relativize(p).toString().replace('/', '.').replace(".class", ""))
                    .collect(Collectors.toList());
        }
        List<Class<?>> types = new ArrayList<>();
        for (String name : names) {
            types.add(Class.forName(name, false, SpiSignaturesTest.class.getClassLoader()));
        }
        return types;
    }
}
