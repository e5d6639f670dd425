package io.sluice.runtime.plugin;

import io.sluice.runtime.plugin.wrap.SpiWrappers;
import io.sluice.spi.SluiceFactory;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.api.common.serialization.Encoder;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves by reflection that the TCCL wrappers are complete: every method (default methods too) of
 * every SPI interface a wrapper implements is implemented by the wrapper itself rather than
 * inherited from the interface, every SPI type a factory hands out has a wrapper, and {@link
 * SpiWrappers#SPI_TYPES} lists every factory interface of the SPI jar.
 */
class SpiWrapperCoverageTest {

    private static final String WRAP_PACKAGE = "io.sluice.runtime.plugin.wrap";

    /** Flink interfaces whose plugin implementations cross the boundary and must be wrapped. */
    private static final Set<Class<?>> FLINK_SPI = Set.of(Encoder.class, BulkWriter.class, BulkWriter.Factory.class);

    private static boolean isSpiInterface(Class<?> type) {
        return type.isInterface() && (type.getName().startsWith("io.sluice.spi.") || FLINK_SPI.contains(type));
    }

    @Test
    void everyWrapperImplementsEveryMethodOfItsSpiInterfacesItself() throws Exception {
        List<Class<?>> wrappers = wrapperClasses();
        assertThat(wrappers).as("wrapper classes in " + WRAP_PACKAGE).hasSizeGreaterThanOrEqualTo(15);
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (Class<?> wrapper : wrappers) {
            for (Class<?> spi : spiInterfaces(wrapper)) {
                for (Method m : spi.getMethods()) {
                    if (Modifier.isStatic(m.getModifiers())) {
                        continue;
                    }
                    checked++;
                    Method impl = wrapper.getMethod(m.getName(), m.getParameterTypes());
                    Class<?> owner = impl.getDeclaringClass();
                    if (owner.isInterface()
                            || !owner.getPackageName().equals(WRAP_PACKAGE)
                            || Modifier.isAbstract(impl.getModifiers())) {
                        missing.add(wrapper.getSimpleName() + " does not wrap " + spi.getSimpleName() + "."
                                + m.getName() + " (resolves to " + owner.getName() + ")");
                    }
                }
            }
        }
        assertThat(missing)
                .as("SPI methods a wrapper leaves to the interface (would run outside the plugin's TCCL)")
                .isEmpty();
        assertThat(checked).isGreaterThan(40);
    }

    @Test
    void everySpiTypeAFactoryHandsOutHasAWrapper() throws Exception {
        Set<Class<?>> wrapped = new LinkedHashSet<>();
        for (Class<?> wrapper : wrapperClasses()) {
            if (PluginBound.class.isAssignableFrom(wrapper)) {
                wrapped.addAll(spiInterfaces(wrapper));
            }
        }
        Set<Class<?>> reachable = new LinkedHashSet<>();
        for (Class<?> type : SpiWrappers.SPI_TYPES) {
            collectReachable(type, reachable);
        }
        assertThat(reachable).hasSizeGreaterThanOrEqualTo(15);
        assertThat(wrapped).containsAll(reachable);
    }

    @Test
    void spiTypesListEveryFactoryInterfaceOfTheSpi() throws Exception {
        Set<Class<?>> factories = new LinkedHashSet<>();
        for (String name : classNamesUnder(SluiceFactory.class, "io/sluice/spi/")) {
            Class<?> c = Class.forName(name, false, SluiceFactory.class.getClassLoader());
            if (c.isInterface() && c != SluiceFactory.class && SluiceFactory.class.isAssignableFrom(c)) {
                factories.add(c);
            }
        }
        assertThat(factories).as("factory interfaces found in the SPI").hasSizeGreaterThanOrEqualTo(6);
        assertThat(new ArrayList<Class<?>>(SpiWrappers.SPI_TYPES)).containsExactlyInAnyOrderElementsOf(factories);
    }

    private static void collectReachable(Class<?> type, Set<Class<?>> reachable) {
        if (!reachable.add(type)) {
            return;
        }
        for (Method m : type.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            if (isSpiInterface(m.getReturnType())) {
                collectReachable(m.getReturnType(), reachable);
            } else if (m.getReturnType() == java.util.Optional.class
                    && m.getGenericReturnType() instanceof java.lang.reflect.ParameterizedType) {
                // an SPI object handed out in an Optional (TargetFactory.dynamicTables)
                java.lang.reflect.Type held =
                        ((java.lang.reflect.ParameterizedType) m.getGenericReturnType()).getActualTypeArguments()[0];
                if (held instanceof Class && isSpiInterface((Class<?>) held)) {
                    collectReachable((Class<?>) held, reachable);
                }
            }
        }
    }

    /** The SPI interfaces a class implements, directly or through its superclasses and superinterfaces. */
    private static Set<Class<?>> spiInterfaces(Class<?> type) {
        Set<Class<?>> all = new LinkedHashSet<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            collectInterfaces(c, all);
        }
        return all.stream()
                .filter(SpiWrapperCoverageTest::isSpiInterface)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private static void collectInterfaces(Class<?> type, Set<Class<?>> all) {
        for (Class<?> i : type.getInterfaces()) {
            if (all.add(i)) {
                collectInterfaces(i, all);
            }
        }
    }

    /** Classes of the wrap package that implement an SPI interface. */
    private static List<Class<?>> wrapperClasses() throws Exception {
        List<Class<?>> wrappers = new ArrayList<>();
        for (String name : classNamesUnder(SpiWrappers.class, WRAP_PACKAGE.replace('.', '/') + "/")) {
            Class<?> c = Class.forName(name, false, SpiWrappers.class.getClassLoader());
            if (!c.isInterface() && !spiInterfaces(c).isEmpty()) {
                wrappers.add(c);
            }
        }
        return wrappers;
    }

    /** Names of the classes under {@code dir} (with {@code /}) in the jar or directory that {@code anchor} came from. */
    private static Set<String> classNamesUnder(Class<?> anchor, String dir) throws IOException, URISyntaxException {
        Path location = Paths.get(
                anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        Set<String> names = new TreeSet<>();
        if (Files.isDirectory(location)) {
            Path root = location.resolve(dir);
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(p -> p.toString().endsWith(".class"))
                        .map(p -> location.relativize(p).toString().replace('\\', '/'))
                        .forEach(n -> names.add(
                                n.substring(0, n.length() - ".class".length()).replace('/', '.')));
            }
        } else {
            try (JarFile jar = new JarFile(location.toFile())) {
                for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                    String n = e.nextElement().getName();
                    if (n.startsWith(dir) && n.endsWith(".class") && !n.endsWith("module-info.class")) {
                        names.add(n.substring(0, n.length() - ".class".length()).replace('/', '.'));
                    }
                }
            }
        }
        assertThat(names).as("classes under " + dir + " in " + location).isNotEmpty();
        return names;
    }
}
