package io.sluice.runtime.adapt;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Loads the framework's classes that are compiled against a library the job brings (Avro) so that
 * they link to the job's copy of it.
 *
 * <p>With the framework in Flink's {@code lib/} and Avro only in the job jar, the framework's own
 * class loader cannot see Avro: a framework class that names Avro fails to link there. Such
 * classes live in one package ({@value #BRIDGED_PACKAGE}); when needed, this class defines them
 * once more, from the framework's own class files, in a small loader whose parent is the job's
 * class loader. Everything else they name (Flink, the rest of the framework) still resolves to the
 * same classes as before, through the job loader's parents; the library resolves to the job's.
 * Where the framework's loader already sees the job's copy (one class path, or the framework
 * inside the job jar), the classes are used as they are.
 */
final class JobClassBridge {

    private static final Logger LOG = LoggerFactory.getLogger(JobClassBridge.class);

    /** The package whose classes may be defined below a job's loader; nothing else is. */
    static final String BRIDGED_PACKAGE = "io.sluice.runtime.adapt.avro.";

    /** One bridge per job loader while it is in use; weak both ways so neither pins the other. */
    private static final Map<ClassLoader, WeakReference<BridgeLoader>> BRIDGES = new WeakHashMap<>();

    private JobClassBridge() {}

    /**
     * The class {@code className} of the bridged package, linked to the {@code libraryClass} the
     * job sees.
     *
     * @param jobLoader the job's class loader, or null; the thread's context loader and the
     *     framework's own loader are tried after it
     * @throws IllegalStateException if none of them has the library
     */
    static Class<?> load(String className, String libraryClass, ClassLoader jobLoader) {
        if (!className.startsWith(BRIDGED_PACKAGE)) {
            throw new IllegalArgumentException(className + " is not in " + BRIDGED_PACKAGE);
        }
        ClassLoader own = JobClassBridge.class.getClassLoader();
        Class<?> ownLibrary = find(libraryClass, own);
        Set<ClassLoader> candidates = new LinkedHashSet<>();
        if (jobLoader != null) {
            candidates.add(jobLoader);
        }
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context != null) {
            candidates.add(context);
        }
        candidates.add(own);
        List<String> tried = new ArrayList<>();
        for (ClassLoader candidate : candidates) {
            Class<?> library = find(libraryClass, candidate);
            if (library == null) {
                tried.add(candidate + ": no " + libraryClass);
                continue;
            }
            try {
                if (library == ownLibrary) {
                    // the framework links to this very copy already
                    return Class.forName(className, true, own);
                }
                if (find(RecordConverter.class.getName(), candidate) != RecordConverter.class) {
                    tried.add(candidate + ": has its own copy of the framework");
                    continue;
                }
                return Class.forName(className, true, bridgeFor(candidate, library));
            } catch (ClassNotFoundException | LinkageError e) {
                throw new IllegalStateException(
                        "Cannot load " + className + " against " + libraryClass + " of " + candidate + " ("
                                + describe(library) + ")",
                        e);
            }
        }
        throw new IllegalStateException("The job's class path has no " + libraryClass
                + ": a job that writes Avro records brings its own Avro (1.10 or later); the Sluice"
                + " framework bundles none. Tried: " + tried);
    }

    private static Class<?> find(String name, ClassLoader loader) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    private static String describe(Class<?> c) {
        String version = c.getPackage() == null ? null : c.getPackage().getImplementationVersion();
        return c.getName() + (version == null ? "" : " " + version) + " from " + c.getClassLoader();
    }

    private static BridgeLoader bridgeFor(ClassLoader jobLoader, Class<?> library) {
        synchronized (BRIDGES) {
            WeakReference<BridgeLoader> ref = BRIDGES.get(jobLoader);
            BridgeLoader bridge = ref == null ? null : ref.get();
            if (bridge == null) {
                bridge = new BridgeLoader(jobLoader, JobClassBridge.class.getClassLoader());
                BRIDGES.put(jobLoader, new WeakReference<>(bridge));
                LOG.info("Classes of {} linked to the job's {}", BRIDGED_PACKAGE, describe(library));
            }
            return bridge;
        }
    }

    /**
     * Child of the job's loader that defines the bridged package itself, from the framework's
     * class files, and delegates every other class to the job's loader.
     */
    static final class BridgeLoader extends ClassLoader {

        static {
            registerAsParallelCapable();
        }

        private final ClassLoader framework;

        BridgeLoader(ClassLoader jobLoader, ClassLoader framework) {
            super(jobLoader);
            this.framework = framework;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(BRIDGED_PACKAGE)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    // never the parent: it would hand back the framework's copy, linked elsewhere
                    c = define(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        private Class<?> define(String name) throws ClassNotFoundException {
            String resource = name.replace('.', '/') + ".class";
            try (InputStream in = framework.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new ClassNotFoundException(name + " (no " + resource + " in the framework)");
                }
                byte[] bytes = in.readAllBytes();
                return defineClass(name, bytes, 0, bytes.length, JobClassBridge.class.getProtectionDomain());
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }

        @Override
        public String toString() {
            return "JobClassBridge[" + getParent() + "]";
        }
    }
}
