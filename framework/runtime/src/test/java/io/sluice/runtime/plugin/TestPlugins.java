package io.sluice.runtime.plugin;

import io.sluice.spi.SpiVersion;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Builds real PF4J plugins at test time: a folder per plugin with a {@code plugin.properties} and a
 * {@code lib/} holding a jar compiled (with PF4J's extension annotation processor, so the jar has a
 * {@code META-INF/extensions.idx}) from Java source strings against the test's own classpath, plus
 * any library jars the plugin bundles.
 *
 * <pre>{@code
 * Path dir = TestPlugins.plugin(pluginsDir, "csv")
 *         .source("p.CsvFactory", "package p; @org.pf4j.Extension public class CsvFactory implements ... {}")
 *         .library(avroJar)
 *         .build();
 * }</pre>
 *
 * Compiled jars are cached per JVM by their sources, so building the same plugin twice compiles once.
 */
public final class TestPlugins {

    /** The directory of library jars copied by the build (see this module's pom), system property {@code sluice.test.libs}. */
    public static final String LIBS_PROPERTY = "sluice.test.libs";

    private static final Map<String, Path> COMPILED = new ConcurrentHashMap<>();
    private static volatile Path cacheDir;

    private TestPlugins() {}

    /** Starts a plugin {@code id} in {@code pluginsDir}, in a folder named like the id. */
    public static Builder plugin(Path pluginsDir, String id) {
        return new Builder(pluginsDir, id);
    }

    /** Lines of a Java source file (the tests compile with release 11: no text blocks). */
    public static String src(String... lines) {
        return String.join("\n", lines) + "\n";
    }

    /** The entry of plugin (or file name) {@code id} in {@link PluginRegistry#plugins()}. */
    public static PluginInfo info(PluginRegistry registry, String id) {
        return registry.plugins().stream()
                .filter(p -> p.id().equals(id))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no plugin '" + id + "' in " + registry.plugins()));
    }

    /** A library jar from {@code target/test-libs}, e.g. {@code avro-1.11.4.jar}. */
    public static Path testLib(String fileName) {
        String dir = System.getProperty(LIBS_PROPERTY);
        if (dir == null) {
            throw new IllegalStateException(
                    "System property " + LIBS_PROPERTY + " is not set (run the tests through Maven)");
        }
        Path jar = Paths.get(dir, fileName);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("No " + jar + "; the build copies it in generate-test-resources");
        }
        return jar;
    }

    /** A file {@code name} (ending in {@code .zip}) in {@code pluginsDir} that is not a zip archive. */
    public static Path corruptZip(Path pluginsDir, String name) throws IOException {
        Files.createDirectories(pluginsDir);
        Path zip = pluginsDir.resolve(name);
        // a local file header signature followed by garbage: looks like a zip, has no central directory
        byte[] bytes = new byte[512];
        bytes[0] = 'P';
        bytes[1] = 'K';
        bytes[2] = 3;
        bytes[3] = 4;
        for (int i = 4; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31);
        }
        Files.write(zip, bytes);
        return zip;
    }

    /** A plugin without code in folder {@code folder} whose descriptor claims the id {@code id}. */
    public static Path duplicateId(Path pluginsDir, String folder, String id) throws IOException {
        return plugin(pluginsDir, id).folder(folder).build();
    }

    /** A plugin without code that requires SPI {@code >=9.0.0}, which no framework of this build offers. */
    public static Path requiringFutureSpi(Path pluginsDir, String id) throws IOException {
        return plugin(pluginsDir, id).requires(">=9.0.0").build();
    }

    /**
     * Compiles {@code sources} (class name -> source) into a jar (not a plugin, e.g. a library a
     * plugin bundles), with {@code resources} (path -> text) added.
     */
    public static Path compileJar(
            Path jar, Map<String, String> sources, Map<String, String> resources, List<Path> classpath)
            throws IOException {
        Path compiled = compile(sources, resources, classpath);
        Files.createDirectories(jar.toAbsolutePath().getParent());
        return Files.copy(compiled, jar, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Builder of one plugin folder. */
    public static final class Builder {
        private final Path pluginsDir;
        private final String id;
        private String folder;
        private String version = "1.0.0";
        private boolean noJars;
        private String requires = "^" + SpiVersion.CURRENT;
        private String provider = "Sluice tests";
        private final Map<String, String> sources = new TreeMap<>();
        private final Map<String, String> resources = new TreeMap<>();
        private final List<Path> libraries = new ArrayList<>();

        private Builder(Path pluginsDir, String id) {
            this.pluginsDir = pluginsDir;
            this.id = id;
            this.folder = id;
        }

        /** Writes no {@code lib/} at all: a plugin folder holding only its descriptor. */
        public Builder noJars() {
            this.noJars = true;
            return this;
        }

        /** The folder name in the plugins directory (default: the id). */
        public Builder folder(String folder) {
            this.folder = folder;
            return this;
        }

        public Builder version(String version) {
            this.version = version;
            return this;
        }

        /** {@code plugin.requires}, default {@code ^} the current SPI version (as the built-in plugins: {@code >=} it, {@code <} the next major). */
        public Builder requires(String requires) {
            this.requires = requires;
            return this;
        }

        public Builder provider(String provider) {
            this.provider = provider;
            return this;
        }

        /** A class of the plugin's own jar. */
        public Builder source(String className, String code) {
            sources.put(className, code);
            return this;
        }

        /** A resource of the plugin's own jar, e.g. a {@code META-INF/services/...} file. */
        public Builder resource(String path, String content) {
            resources.put(path, content);
            return this;
        }

        /** A library jar the plugin bundles in {@code lib/}; also on the classpath its sources compile against. */
        public Builder library(Path jar) {
            libraries.add(jar);
            return this;
        }

        /** Writes the plugin folder and returns it. */
        public Path build() throws IOException {
            Path dir = pluginsDir.resolve(folder);
            Files.createDirectories(dir);
            Properties descriptor = new Properties();
            descriptor.put("plugin.id", id);
            descriptor.put("plugin.version", version);
            descriptor.put("plugin.requires", requires);
            descriptor.put("plugin.provider", provider);
            descriptor.write(dir.resolve("plugin.properties"));
            if (noJars) {
                return dir;
            }
            Path lib = Files.createDirectories(dir.resolve("lib"));
            Path jar = lib.resolve(id + "-" + version + ".jar");
            if (!sources.isEmpty() || !resources.isEmpty()) {
                Files.copy(compile(sources, resources, libraries), jar, StandardCopyOption.REPLACE_EXISTING);
            } else if (libraries.isEmpty()) {
                // a plugin without code still has a jar: a folder without any is refused (issue 31)
                jar(Files.createDirectories(cacheDir().resolve("no-classes")), jar);
            }
            for (Path library : libraries) {
                Files.copy(library, lib.resolve(library.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
            return dir;
        }
    }

    /** Ordered {@code plugin.properties} content, written without the date comment of {@link java.util.Properties}. */
    private static final class Properties extends LinkedHashMap<String, String> {
        void write(Path file) throws IOException {
            String text = entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining("\n", "", "\n"));
            Files.write(file, text.getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    // ---------------------------------------------------------------------------------------------

    private static Path compile(Map<String, String> sources, Map<String, String> resources, List<Path> extraClasspath)
            throws IOException {
        String key = key(sources, resources, extraClasspath);
        Path cached = COMPILED.get(key);
        if (cached != null) {
            return cached;
        }
        synchronized (COMPILED) {
            cached = COMPILED.get(key);
            if (cached == null) {
                cached = doCompile(key, sources, resources, extraClasspath);
                COMPILED.put(key, cached);
            }
            return cached;
        }
    }

    private static Path doCompile(
            String key, Map<String, String> sources, Map<String, String> resources, List<Path> extraClasspath)
            throws IOException {
        Path work = cacheDir().resolve(key);
        Path classes = Files.createDirectories(work.resolve("classes"));
        if (!sources.isEmpty()) {
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            if (javac == null) {
                throw new IllegalStateException("No system Java compiler: run the tests on a JDK, not a JRE");
            }
            List<String> classpath = new ArrayList<>();
            for (Path p : extraClasspath) {
                classpath.add(p.toAbsolutePath().toString());
            }
            classpath.add(System.getProperty("java.class.path"));
            List<String> options = List.of(
                    "--release",
                    "11",
                    "-implicit:none",
                    "-classpath",
                    String.join(File.pathSeparator, classpath),
                    "-d",
                    classes.toString(),
                    "-processor",
                    "org.pf4j.processor.ExtensionAnnotationProcessor",
                    "-Apf4j.ignoreExtensionPoint=true",
                    "-Xlint:-options");
            List<JavaFileObject> units = new ArrayList<>();
            for (Map.Entry<String, String> e : sources.entrySet()) {
                units.add(new Source(e.getKey(), e.getValue()));
            }
            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            try (StandardJavaFileManager files =
                    javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
                Boolean ok = javac.getTask(null, files, diagnostics, options, null, units)
                        .call();
                if (!Boolean.TRUE.equals(ok)) {
                    StringBuilder sb = new StringBuilder("Compiling test plugin sources failed:");
                    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                        sb.append('\n')
                                .append(d.getKind())
                                .append(' ')
                                .append(
                                        d.getSource() == null
                                                ? ""
                                                : d.getSource().getName() + ":" + d.getLineNumber() + ": ")
                                .append(d.getMessage(null));
                    }
                    throw new IllegalStateException(sb.toString());
                }
            }
        }
        for (Map.Entry<String, String> e : resources.entrySet()) {
            Path file = classes.resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.write(file, e.getValue().getBytes(StandardCharsets.UTF_8));
        }
        Path jar = work.resolve("code.jar");
        jar(classes, jar);
        return jar;
    }

    private static void jar(Path classes, Path jar) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(classes)) {
            files = walk.filter(Files::isRegularFile)
                    .sorted(Comparator.comparing(Path::toString))
                    .collect(Collectors.toList());
        }
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream jos = new JarOutputStream(out, manifest)) {
            List<String> dirs = new ArrayList<>();
            for (Path file : files) {
                String name = classes.relativize(file).toString().replace(File.separatorChar, '/');
                // directory entries, so that packages and resources resolve like in a jar built by Maven
                for (int i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
                    String dir = name.substring(0, i + 1);
                    if (!dirs.contains(dir)) {
                        dirs.add(dir);
                        jos.putNextEntry(new JarEntry(dir));
                        jos.closeEntry();
                    }
                }
                jos.putNextEntry(new JarEntry(name));
                Files.copy(file, jos);
                jos.closeEntry();
            }
        }
    }

    private static Path cacheDir() throws IOException {
        if (cacheDir == null) {
            synchronized (TestPlugins.class) {
                if (cacheDir == null) {
                    // under java.io.tmpdir, which the build points into target/
                    cacheDir = Files.createTempDirectory("sluice-test-plugins");
                }
            }
        }
        return cacheDir;
    }

    private static String key(Map<String, String> sources, Map<String, String> resources, List<Path> classpath) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Map<String, String> m : List.of(sources, resources)) {
                for (Map.Entry<String, String> e : new TreeMap<>(m).entrySet()) {
                    sha.update(e.getKey().getBytes(StandardCharsets.UTF_8));
                    sha.update((byte) 0);
                    sha.update(e.getValue().getBytes(StandardCharsets.UTF_8));
                    sha.update((byte) 0);
                }
                sha.update((byte) 1);
            }
            for (Path p : classpath) {
                sha.update(p.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8));
            }
            StringBuilder hex = new StringBuilder();
            for (byte b : sha.digest()) {
                hex.append(String.format("%02x", b));
            }
            return hex.substring(0, 20);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A source file held in memory. */
    private static final class Source extends SimpleJavaFileObject {
        private final String code;

        Source(String className, String code) {
            super(URI.create("string:///" + className.replace('.', '/') + Kind.SOURCE.extension), Kind.SOURCE);
            this.code = code;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return code;
        }
    }
}
